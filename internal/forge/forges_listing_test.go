package forge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// This file plays the forges: it turns what an export sends into what
// the forge lists once it is posted, as its API reference describes the
// answer (each validated against the schema subsets of
// testdata/schemas), so that an import can read it back.

const postedSHA = "f9ce7e16e56c162edbc9e480108041cf6b0291fe"

// ownSchema compiles one schema of testdata/schemas.
func ownSchema(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "schemas", name))
	if err != nil {
		t.Fatal(err)
	}
	return testschema.Compile(t, name, data)
}

// validateJSON checks data, JSON text, against s.
func validateJSON(t *testing.T, s *jsonschema.Schema, what string, data []byte) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not validate against %s: %#v\n%s", what, s.Location, err, data)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// replyAt is when a reply posted on the forge by its author is dated: its
// own at when it has one, else a forge time.
func replyAt(at string, j int) time.Time {
	if t, err := time.Parse(time.RFC3339, at); err == nil {
		return t
	}
	return time.Date(2026, 12, 1, 10, j, 0, 0, time.UTC)
}

// postedAt is when the export is posted: before the replies' own times
// (the goldens' are of 2025 and 2026), which a forge that orders by time
// puts after it.
var postedAt = time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)

// gerritListing is what Gerrit lists once rv is posted: the comments
// (GET /changes/ID/comments, with the )]}' line) and the messages. With
// forgeReplies each placed comment's replies are posted after it by
// their authors, in_reply_to the comment.
func gerritListing(t *testing.T, rv GerritReview, plan *Plan, forgeReplies bool) (comments, messages []byte) {
	t.Helper()
	stamp := func(at time.Time) string { return at.UTC().Format("2006-01-02 15:04:05.000000000") }
	account := func(name string) map[string]any {
		return map[string]any{"_account_id": 1000 + len(name), "name": strings.ToUpper(name), "username": name}
	}
	listed := map[string][]map[string]any{}
	seen := map[string]int{}
	id := 0
	for i := range plan.placed {
		pc := &plan.placed[i]
		path := pc.path()
		c := rv.Comments[path][seen[path]]
		seen[path]++
		if c.Range != nil && c.Line != c.Range.EndLine {
			t.Errorf("%s: line %d is not the range's end line %d, as CommentInput wants", path, c.Line, c.Range.EndLine)
		}
		id++
		root := fmt.Sprintf("%08x_%08x", id, 7*id)
		m := map[string]any{"id": root, "patch_set": 1, "commit_id": postedSHA, "line": c.Line, "message": c.Message,
			"updated": stamp(postedAt), "author": account("poster"), "unresolved": c.Unresolved}
		if c.Side == gerritParent {
			m["side"] = gerritParent
		}
		if c.Range != nil {
			m["range"] = c.Range
		}
		listed[path] = append(listed[path], m)
		if !forgeReplies {
			continue
		}
		for j, r := range pc.c.Replies {
			id++
			listed[path] = append(listed[path], map[string]any{"id": fmt.Sprintf("%08x_%08x", id, 7*id), "patch_set": 1, "line": c.Line,
				"in_reply_to": root, "message": r.Body, "updated": stamp(replyAt(r.At, j)), "author": account(r.Author), "unresolved": true})
			if r.Author == "" { // as if the account were gone: no author listed
				delete(listed[path][len(listed[path])-1], "author")
			}
		}
	}
	comments = append([]byte(")]}'\n"), mustJSON(t, listed)...)
	var msgs []map[string]any
	if rv.Message != "" {
		msgs = append(msgs, map[string]any{"id": "m1", "author": account("poster"), "date": stamp(postedAt), "_revision_number": 1,
			"message": fmt.Sprintf("Patch Set 1:\n\n(%d comments)\n\n%s", id, rv.Message)})
	}
	return comments, append([]byte(")]}'\n"), mustJSON(t, nonNil(msgs))...)
}

// giteaListing is what Gitea lists once rv is posted: the review comments
// (each review's, concatenated) and the reviews. With forgeReplies each
// placed comment's replies are posted by their authors on its line, in a
// review of their own.
func giteaListing(t *testing.T, rv GiteaReview, plan *Plan, forgeReplies bool) (pages [][]byte, reviews []byte) {
	t.Helper()
	user := func(login string) map[string]any {
		return map[string]any{"id": 1 + len(login), "login": login, "full_name": login}
	}
	comment := func(id, review int, c GiteaComment, login string, at time.Time) map[string]any {
		return map[string]any{"id": id, "body": c.Body, "user": user(login), "resolver": nil, "pull_request_review_id": review,
			"created_at": at.Format(time.RFC3339), "updated_at": at.Format(time.RFC3339), "path": c.Path,
			"commit_id": postedSHA, "original_commit_id": postedSHA, "diff_hunk": "@@ -1 +1 @@",
			"position": c.NewPosition, "original_position": c.OldPosition,
			"html_url": fmt.Sprintf("https://gitea.example/o/r/pulls/7/files#issuecomment-%d", id), "pull_request_url": "https://gitea.example/o/r/pulls/7"}
	}
	var first, later []map[string]any
	id := 100
	for i, c := range rv.Comments {
		id++
		first = append(first, comment(id, 1, c, "poster", postedAt))
		if !forgeReplies {
			continue
		}
		for j, r := range plan.placed[i].c.Replies {
			id++
			later = append(later, comment(id, 2+i, GiteaComment{Path: c.Path, Body: r.Body, OldPosition: c.OldPosition, NewPosition: c.NewPosition}, r.Author, replyAt(r.At, j)))
		}
	}
	pages = [][]byte{mustJSON(t, nonNil(first)), mustJSON(t, nonNil(later))}
	review := map[string]any{"id": 1, "user": user("poster"), "state": rv.Event, "body": rv.Body, "commit_id": postedSHA,
		"stale": false, "official": false, "dismissed": false, "comments_count": len(rv.Comments), "submitted_at": postedAt.Format(time.RFC3339)}
	return pages, mustJSON(t, []map[string]any{review})
}

// bitbucketListing is what Bitbucket lists once the requests are posted
// in order (a reply's parent set to the comment before it, as the
// README's loop does): the activities, newest first, in pages of two,
// each page validated against the response schema.
func bitbucketListing(t *testing.T, schema *jsonschema.Schema, reqs []BitbucketComment) []byte {
	t.Helper()
	user := map[string]any{"name": "poster", "slug": "poster", "displayName": "Poster", "id": 5, "active": true, "type": "NORMAL"}
	type thread struct {
		comment map[string]any
		anchor  *BitbucketAnchor
	}
	var threads []*thread
	var activities []map[string]any
	id := int64(0)
	for i, r := range reqs {
		id++
		ms := postedAt.Add(time.Duration(i) * time.Second).UnixMilli()
		c := map[string]any{"id": id, "version": 0, "text": r.Text, "author": user, "createdDate": ms, "updatedDate": ms,
			"comments": []any{}, "state": "OPEN", "severity": "NORMAL", "threadResolved": false}
		if r.Parent != nil {
			if r.Parent.ID != 0 || len(threads) == 0 {
				t.Fatalf("request %d: a reply's parent.id is %d, want 0 after a comment", i, r.Parent.ID)
			}
			root := threads[len(threads)-1].comment
			root["comments"] = append(root["comments"].([]any), c)
			activities = append(activities, map[string]any{"id": 900 + id, "createdDate": ms, "user": user,
				"action": "COMMENTED", "commentAction": "REPLIED", "comment": c})
			continue
		}
		threads = append(threads, &thread{comment: c, anchor: r.Anchor})
		a := map[string]any{"id": 900 + id, "createdDate": ms, "user": user, "action": "COMMENTED", "commentAction": "ADDED", "comment": c}
		if r.Anchor != nil {
			an := mustMap(t, r.Anchor)
			an["orphaned"] = false
			an["fromHash"], an["toHash"] = "5e6dffa282c5129aa67cd227a0429be21bfdaf80", postedSHA
			a["commentAnchor"] = an
		}
		activities = append(activities, a)
	}
	activities = append(activities, map[string]any{"id": 1, "createdDate": postedAt.Add(-time.Hour).UnixMilli(), "user": user, "action": "OPENED"})
	for i, j := 0, len(activities)-1; i < j; i, j = i+1, j-1 {
		activities[i], activities[j] = activities[j], activities[i]
	}
	var buf bytes.Buffer
	for start := 0; start < len(activities); start += 2 {
		end := min(start+2, len(activities))
		page := map[string]any{"values": activities[start:end], "size": end - start, "isLastPage": end == len(activities), "start": start, "limit": 2}
		if end < len(activities) {
			page["nextPageStart"] = end
		}
		data := mustJSON(t, page)
		validateJSON(t, schema, fmt.Sprintf("activities page %d", start/2+1), data)
		buf.Write(data)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// azureListing is what Azure DevOps lists once the threads are posted:
// each thread with its comments numbered from 1 and a comment of its own
// (the system's) last.
func azureListing(t *testing.T, threads []AzureThread) []byte {
	t.Helper()
	author := map[string]any{"displayName": "Poster", "uniqueName": "poster", "id": "6f1e0c2a-0000-4000-8000-000000000001"}
	system := map[string]any{"displayName": "Microsoft.VisualStudio.Services.TFS", "uniqueName": "", "id": "00000002-0000-8888-8000-000000000000"}
	var value []map[string]any
	for i, th := range threads {
		at := postedAt.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
		var comments []map[string]any
		for k, c := range th.Comments {
			comments = append(comments, map[string]any{"id": k + 1, "parentCommentId": c.ParentCommentID, "author": author, "content": c.Content,
				"publishedDate": at, "lastUpdatedDate": at, "commentType": c.CommentType, "isDeleted": false})
		}
		comments = append(comments, map[string]any{"id": len(comments) + 1, "parentCommentId": 0, "author": system,
			"content": "Policy status has been updated", "publishedDate": at, "lastUpdatedDate": at, "commentType": "system", "isDeleted": false})
		v := map[string]any{"id": 40 + i, "publishedDate": at, "lastUpdatedDate": at, "comments": comments,
			"threadContext": th.ThreadContext, "isDeleted": false, "properties": map[string]any{}}
		if th.Status != "" {
			v["status"] = th.Status
		}
		value = append(value, v)
	}
	return mustJSON(t, map[string]any{"value": nonNil(value), "count": len(value)})
}

// mustMap is v as a JSON object.
func mustMap(t *testing.T, v any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(mustJSON(t, v), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// nonNil is ms, or an empty list for none: JSON's [] rather than null.
func nonNil(ms []map[string]any) []map[string]any {
	if ms == nil {
		return []map[string]any{}
	}
	return ms
}
