package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fuzzTools are the tools FuzzToolArguments calls, chosen by a byte.
var fuzzTools = []string{
	"lreview_check", "lreview_comments", "lreview_locate", "lreview_preview", "lreview_add_comment", "lreview_reply",
	"lreview_set_state", "lreview_edit_comment", "lreview_delete_comment", "lreview_apply_suggestion", "lreview_fix",
	"lreview_rebase", "lreview_new",
}

// fuzzSeeds are arguments of every tool, right and wrong; cursors are
// added once a first page gives their key.
var fuzzSeeds = map[string][]string{
	"lreview_check":            {`{"file":"pr.review.json"}`, `{"file":"pr.review.json","limit":1,"min_severity":"hint"}`, `{"file":"../x"}`, `{"file":"broken.review.json"}`, `{"file":"pr.review.json","limit":-1}`},
	"lreview_comments":         {`{"file":"pr.review.json","state":"dismissed"}`, `{"file":"pr.review.json","cursor":"-1-0"}`, `{"file":"pr.review.json","id":"c9"}`, `{"file":"pr.review.json","limit":1e30}`},
	"lreview_locate":           {`{"file":"pr.review.json","id":"c1"}`, `{"file":"pr.review.json","cursor":"99999999999999999999-x"}`},
	"lreview_preview":          {`{"file":"pr.review.json","change":"fix"}`, `{"file":"pr.review.json","change":"rebase","diff_text":"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"}`, `{"file":"pr.review.json","change":"apply_suggestion","id":"c1"}`},
	"lreview_add_comment":      {`{"file":"pr.review.json","path":"app/users.py","side":"RIGHT","start_line":11,"body":"x"}`, `{"file":"pr.review.json","path":"app/users.py","side":"RIGHT","snippet":"with closing","body":"x"}`, `{"file":"pr.review.json","path":"app/users.py","side":"LEFT","start_line":9223372036854775807,"body":"x"}`, `{"file":"pr.review.json","path":"","side":"RIGHT","start_line":1,"end_line":0,"body":""}`},
	"lreview_reply":            {`{"file":"pr.review.json","id":"c1","body":"ok"}`, `{"file":"pr.review.json","id":"","body":"\u0000"}`},
	"lreview_set_state":        {`{"file":"pr.review.json","id":"c2","state":"stale"}`, `{"file":"pr.review.json","id":"c4","state":"active"}`, `{"file":"pr.review.json","id":"c1","state":"Dismissed"}`},
	"lreview_edit_comment":     {`{"file":"pr.review.json","id":"c2","body":"y"}`, `{"file":"pr.review.json","id":"c1","reply":1,"body":"y"}`, `{"file":"pr.review.json","id":"c1","reply":-3,"body":"y"}`},
	"lreview_delete_comment":   {`{"file":"pr.review.json","id":"c3"}`, `{"file":"pr.review.json","id":"c1","reply":2}`},
	"lreview_apply_suggestion": {`{"file":"pr.review.json","id":"c1"}`, `{"file":"pr.review.json","id":"c4"}`},
	"lreview_fix":              {`{"file":"pr.review.json"}`, `{"file":"broken.review.json"}`},
	"lreview_rebase":           {`{"file":"pr.review.json","diff_file":"d.diff"}`, `{"file":"pr.review.json","diff_text":"@@ -1 +1 @@\n"}`, `{"file":"pr.review.json","diff_file":"d.diff","diff_text":"x"}`},
	"lreview_new":              {`{"file":"n.review.json","diff_file":"d.diff"}`, `{"file":"a/b/n.review.json","diff_text":"not a diff"}`, `{"file":"n.json","diff_file":"d.diff"}`},
}

// FuzzToolArguments calls every tool with arguments a fuzzer mutates: each
// call ends in a result (never a protocol error, never a panic, which the
// tools turn into an "internal error" result: a bug here), and the files
// are put back between calls.
func FuzzToolArguments(f *testing.F) {
	files := map[string]string{
		"pr.review.json":     fixture(f),
		"broken.review.json": `{"leanreview_review": 1, "patch": [`,
		"d.diff":             "--- a/app/users.py\n+++ b/app/users.py\n@@ -2,4 +2,5 @@\n \n import logging\n+from contextlib import closing\n \n from app.db import connect\n",
	}
	s := newSession(f, Options{}, files)
	for i, tool := range fuzzTools {
		for _, args := range fuzzSeeds[tool] {
			f.Add(uint8(i), []byte(args))
		}
	}
	// Cursors with the right key: past the end, at the end, negative.
	for _, i := range []int{0, 1, 2} {
		res := s.call(fuzzTools[i], map[string]any{"file": "pr.review.json", "limit": 1})
		var page struct {
			NextCursor string `json:"next_cursor"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(data, &page)
		_, key, _ := strings.Cut(page.NextCursor, "-")
		for _, start := range []string{"1", "3", "4", "1000", "-1", "+2"} {
			args, _ := json.Marshal(map[string]any{"file": "pr.review.json", "cursor": start + "-" + key})
			f.Add(uint8(i), args)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		if !json.Valid(args) {
			return
		}
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(s.root, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tool := fuzzTools[int(which)%len(fuzzTools)]
		res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s(%s): protocol error %v, want a tool result", tool, args, err)
		}
		if text := resultText(res); strings.Contains(text, ": internal error (") {
			t.Fatalf("%s(%s): %s", tool, args, text)
		}
	})
}
