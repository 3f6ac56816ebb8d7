package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestExportImportCommandsNewForges runs export --to and import --from
// for Gerrit, Gitea, Bitbucket and Azure DevOps as the README's
// pipelines do, with what the forge would list in between (the test
// lists each request as posted by "poster", whom the import trusts), and
// compares every active comment of each shipped example with the one it
// comes back as: id, path, side, lines, body and replies; and the title
// and summary.
func TestExportImportCommandsNewForges(t *testing.T) {
	for _, to := range []string{"gerrit", "gitea", "bitbucket", "azure"} {
		for _, name := range []string{"auth", "python-rename", "typescript-string-patch", "unicode-escapes"} {
			t.Run(to+"/"+name, func(t *testing.T) {
				dir, src, payload := exportExample(t, name, "--to", to)
				doc := exchange.Parse(src)
				writeFile(t, filepath.Join(dir, "pr.diff"), []byte(patchText(doc)), 0o644)
				args := []string{"import", "--from", to, "--patch", filepath.Join(dir, "pr.diff"), "--trust", "poster"}
				for file, data := range forgeListing(t, to, payload) {
					writeFile(t, filepath.Join(dir, file+".json"), data, 0o644)
					args = append(args, "--"+file, filepath.Join(dir, file+".json"))
				}
				var stdout, stderr bytes.Buffer
				if code := run(args, nil, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
					t.Fatalf("import: exit %d, stderr %q", code, stderr.String())
				}
				compareCommands(t, doc, exchange.Parse(stdout.Bytes()))
			})
		}
	}
}

// forgeListing turns what export --to printed into the listings import
// --from reads, by flag name, as the forge lists them once posted.
func forgeListing(t *testing.T, to string, payload []byte) map[string][]byte {
	t.Helper()
	const at, stamp = "2026-12-01T09:00:00Z", "2026-12-01 09:00:00.000000000"
	marshal := func(v any) []byte {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	switch to {
	case "gerrit":
		var rv struct {
			Message  string                      `json:"message"`
			Comments map[string][]map[string]any `json:"comments"`
		}
		unmarshal(t, payload, &rv)
		n := 0
		for _, cs := range rv.Comments {
			for _, c := range cs {
				n++
				c["id"], c["patch_set"], c["updated"] = fmt.Sprintf("%08x_1", n), 1, stamp
				c["author"] = map[string]any{"_account_id": 1000, "username": "poster"}
			}
		}
		messages := []map[string]any{{"id": "m1", "date": stamp, "message": "Patch Set 1:\n\n" + rv.Message}}
		return map[string][]byte{"comments": append([]byte(")]}'\n"), marshal(rv.Comments)...), "messages": marshal(messages)}
	case "gitea":
		var rv struct {
			Body     string           `json:"body"`
			Comments []map[string]any `json:"comments"`
		}
		unmarshal(t, payload, &rv)
		var comments []map[string]any
		for i, c := range rv.Comments {
			comments = append(comments, map[string]any{"id": 100 + i, "body": c["body"], "user": map[string]any{"id": 1, "login": "poster"},
				"pull_request_review_id": 1, "created_at": at, "path": c["path"], "position": c["new_position"], "original_position": c["old_position"]})
		}
		reviews := []map[string]any{{"id": 1, "body": rv.Body, "state": "COMMENT", "submitted_at": at}}
		return map[string][]byte{"comments": marshal(nonNilMaps(comments)), "reviews": marshal(reviews)}
	case "bitbucket":
		var reqs []map[string]any
		unmarshal(t, payload, &reqs)
		var activities []map[string]any
		var root map[string]any
		for i, r := range reqs {
			c := map[string]any{"id": i + 1, "text": r["text"], "author": map[string]any{"name": "poster", "slug": "poster"},
				"createdDate": 1764579600000 + int64(i)*1000, "comments": []any{}}
			if r["parent"] != nil {
				root["comments"] = append(root["comments"].([]any), c)
				continue
			}
			root = c
			a := map[string]any{"id": 100 + i, "action": "COMMENTED", "commentAction": "ADDED", "comment": c}
			if r["anchor"] != nil {
				a["commentAnchor"] = r["anchor"]
			}
			activities = append([]map[string]any{a}, activities...) // newest first
		}
		return map[string][]byte{"activities": marshal(map[string]any{"values": nonNilMaps(activities), "isLastPage": true})}
	case "azure":
		var threads []map[string]any
		unmarshal(t, payload, &threads)
		for i, th := range threads {
			th["id"], th["publishedDate"] = i+1, at
			for k, c := range th["comments"].([]any) {
				cm := c.(map[string]any)
				cm["id"], cm["publishedDate"] = k+1, fmt.Sprintf("2026-12-01T09:00:%02dZ", k)
				cm["author"] = map[string]any{"displayName": "Poster", "uniqueName": "poster"}
			}
		}
		return map[string][]byte{"threads": marshal(map[string]any{"value": nonNilMaps(threads), "count": len(threads)})}
	}
	t.Fatalf("no forge %q", to)
	return nil
}

func unmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("export printed no JSON: %v\n%s", err, data)
	}
}

func nonNilMaps(ms []map[string]any) []map[string]any {
	if ms == nil {
		return []map[string]any{}
	}
	return ms
}
