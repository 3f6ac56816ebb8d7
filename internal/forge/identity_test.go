package forge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// identityPatch is the one-file change the identity tests comment on.
var identityPatch = []string{
	"diff --git a/main.go b/main.go",
	"--- a/main.go",
	"+++ b/main.go",
	"@@ -1,2 +1,3 @@",
	" package main",
	"+// added",
	" func main() {}",
}

// forgedBody is a post quoting a reply by hduran as an export would, from
// an account that calls itself poster or hduran.
const forgedBody = "Looks risky.\n\n<!-- lreview:replies -->\n> **hduran** (2026-01-12T10:00:00Z): I approve; ship it.\n\n<!-- lreview:c1 -->"

// TestImportIdentityNotFromDisplayNames imports, for each forge whose
// accounts may lack a username, a post by an account the forge lists with
// no stable name but a display name: once "poster" (the account --trust
// names), once "hduran". The post is attributed to the account's number,
// the quote stays text, and the display name is shown in a note only.
func TestImportIdentityNotFromDisplayNames(t *testing.T) {
	opts := ImportOptions{Trust: []string{"poster"}}
	type forgeCase struct {
		name   string
		wantID string
		run    func(display string) (*Imported, error)
	}
	cases := []forgeCase{
		{"Gerrit", "account 1000096", func(display string) (*Imported, error) {
			// GET /changes/ID/comments: CommentInfo, its author an
			// AccountInfo with no username (the account never set one).
			data := mustJSON(t, map[string]any{"main.go": []any{map[string]any{
				"id": "TvcXrmjM", "line": 2, "message": forgedBody, "updated": "2026-01-12 10:00:00.000000000", "patch_set": 1,
				"author": map[string]any{"_account_id": 1000096, "name": display, "email": display + "@example.com"}}}})
			cs, err := ReadGerritComments("comments.json", append([]byte(")]}'\n"), data...))
			if err != nil {
				return nil, err
			}
			return ImportGerrit(cs, nil, identityPatch, opts)
		}},
		{"Azure DevOps", "id 6f1e0c2a-0000-4000-8000-000000000009", func(display string) (*Imported, error) {
			// GET …/pullRequests/N/threads: an IdentityRef whose
			// uniqueName is empty.
			data := mustJSON(t, map[string]any{"count": 1, "value": []any{map[string]any{
				"id": 40, "publishedDate": "2026-01-12T10:00:00Z", "isDeleted": false, "status": "active",
				"threadContext": map[string]any{"filePath": "/main.go", "rightFileStart": map[string]any{"line": 2, "offset": 1}, "rightFileEnd": map[string]any{"line": 2, "offset": 10}},
				"comments": []any{map[string]any{"id": 1, "parentCommentId": 0, "content": forgedBody, "publishedDate": "2026-01-12T10:00:00Z", "commentType": "text",
					"author": map[string]any{"displayName": display, "uniqueName": "", "id": "6f1e0c2a-0000-4000-8000-000000000009"}}}}}})
			ts, err := ReadAzureThreads("threads.json", data)
			if err != nil {
				return nil, err
			}
			return ImportAzure(ts, identityPatch, opts)
		}},
		{"Bitbucket", "user 105", func(display string) (*Imported, error) {
			// GET …/pull-requests/N/activities: a user with no name and
			// no slug.
			user := map[string]any{"id": 105, "displayName": display, "active": true, "type": "NORMAL"}
			c := map[string]any{"id": 1, "version": 0, "text": forgedBody, "author": user, "createdDate": 1768212000000, "updatedDate": 1768212000000, "comments": []any{}, "state": "OPEN"}
			data := mustJSON(t, map[string]any{"isLastPage": true, "start": 0, "size": 1, "values": []any{map[string]any{
				"id": 901, "createdDate": 1768212000000, "user": user, "action": "COMMENTED", "commentAction": "ADDED", "comment": c,
				"commentAnchor": map[string]any{"path": "main.go", "line": 2, "lineType": "ADDED", "fileType": "TO", "orphaned": false}}}})
			as, err := ReadBitbucketActivities("activities.json", data)
			if err != nil {
				return nil, err
			}
			return ImportBitbucket(as, identityPatch, opts)
		}},
	}
	for _, fc := range cases {
		for _, display := range []string{"poster", "hduran"} {
			t.Run(fc.name+"/"+display, func(t *testing.T) {
				im, err := fc.run(display)
				if err != nil {
					t.Fatal(err)
				}
				var rv struct {
					Comments []struct {
						Author  string          `json:"author"`
						Body    string          `json:"body"`
						Replies json.RawMessage `json:"replies"`
					} `json:"comments"`
				}
				if err := json.Unmarshal(im.Data, &rv); err != nil || len(rv.Comments) != 1 {
					t.Fatalf("got %d comments (%v), want 1:\n%s", len(rv.Comments), err, im.Data)
				}
				c := rv.Comments[0]
				if c.Author != fc.wantID {
					t.Errorf("got author %q, want %q (the account's stable field, never its display name %q)", c.Author, fc.wantID, display)
				}
				if len(c.Replies) > 0 && string(c.Replies) != "[]" {
					t.Errorf("got replies %s, want none: a quote in a post by an untrusted account is text", c.Replies)
				}
				if !strings.Contains(c.Body, "I approve; ship it.") {
					t.Errorf("got body %q, want the quote kept as text", c.Body)
				}
				notes := strings.Join(im.Notes, "\n")
				if !strings.Contains(notes, `"`+display+`"`) || !strings.Contains(notes, "not an identity") {
					t.Errorf("got notes\n%s\nwant the display name %q shown as not an identity", notes, display)
				}
				if doc := exchange.Parse(im.Data); len(doc.Syntax) > 0 {
					t.Errorf("the import is not JSON: %v", doc.Syntax)
				}
			})
		}
	}
}

// TestReadListingNotNull reads a listing that is null, or no listing at
// all, with each forge's reader: each is refused, naming the file.
func TestReadListingNotNull(t *testing.T) {
	readers := map[string]func([]byte) error{
		"github comments":    func(d []byte) error { _, err := ReadGitHubComments("x.json", d); return err },
		"github reviews":     func(d []byte) error { _, err := ReadGitHubReviews("x.json", d); return err },
		"gitlab discussions": func(d []byte) error { _, err := ReadGitLabDiscussions("x.json", d); return err },
		"gitea comments":     func(d []byte) error { _, err := ReadGiteaComments("x.json", d); return err },
		"gitea reviews":      func(d []byte) error { _, err := ReadGiteaReviews("x.json", d); return err },
		"bitbucket":          func(d []byte) error { _, err := ReadBitbucketActivities("x.json", d); return err },
		"azure":              func(d []byte) error { _, err := ReadAzureThreads("x.json", d); return err },
		"gerrit comments":    func(d []byte) error { _, err := ReadGerritComments("x.json", d); return err },
		"gerrit messages":    func(d []byte) error { _, err := ReadGerritMessages("x.json", d); return err },
	}
	for name, read := range readers {
		for _, in := range []string{"null", "null\n", "[] null", `{"values": null}`, `{"value": null}`, "7", `"x"`, "true"} {
			err := read([]byte(in))
			if err == nil || !strings.Contains(err.Error(), "x.json") {
				t.Errorf("%s: reading %q: got %v, want an error naming x.json", name, in, err)
			}
		}
	}
}
