package lsp

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// lensReview has two files: the first with an active comment and a
// drifted one (its snippet is elsewhere: it needs attention), the second
// with a stale comment, and a third file nobody commented on.
const lensReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/é.go b/é.go",
    "--- a/é.go",
    "+++ b/é.go",
    "@@ -1,2 +1,2 @@",
    " package é",
    "-var x = 1",
    "+var x = 2",
    "diff --git a/b.go b/b.go",
    "--- a/b.go",
    "+++ b/b.go",
    "@@ -1 +1 @@",
    "-package b",
    "+package bb",
    "diff --git a/c.go b/c.go",
    "--- a/c.go",
    "+++ b/c.go",
    "@@ -1 +1 @@",
    "-package c",
    "+package cc"
  ],
  "comments": [
    {"id": "😀1", "path": "é.go", "side": "RIGHT", "start_line": 2, "body": "ok"},
    {"id": "c2", "path": "é.go", "side": "RIGHT", "start_line": 1, "body": "drifted", "snippet": "var x = 2"},
    {"id": "c3", "path": "b.go", "side": "RIGHT", "start_line": 1, "body": "later", "state": "stale"}
  ]
}
`

// TestCodeLensesPerFileAndTheirCommand: each file header gets its
// comments by state, every lens carries the show command, and running it
// (as VS Code's and Neovim's clients do, through workspace/executeCommand)
// makes the server ask the client to show the place that needs attention.
func TestCodeLensesPerFileAndTheirCommand(t *testing.T) {
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, lensReview, e.offer, e.enc)
			s.c.waitDiagnostics(s.uri, 1)
			var lenses []protocol.CodeLens
			s.c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &lenses)
			var got []string
			for _, l := range lenses {
				if l.Command == nil || l.Command.Command != CommandShow || len(l.Command.Arguments) != 1 {
					t.Fatalf("lens %+v: want the %s command with one argument", l, CommandShow)
				}
				s.c.mustCall("workspace/executeCommand", map[string]any{"command": l.Command.Command, "arguments": l.Command.Arguments}, nil)
				s.c.mu.Lock()
				shown := s.c.shown[len(s.c.shown)-1]
				s.c.mu.Unlock()
				if shown.URI != protocol.URI(s.uri) || !shown.TakeFocus || shown.Selection == nil || shown.Selection.Start != shown.Selection.End {
					t.Fatalf("showDocument: got %+v, want this document, focused, with a cursor", shown)
				}
				at := navOffset(t, lensReview, shown.Selection.Start, e.enc)
				got = append(got, fmt.Sprintf("%d: %s → %s", l.Range.Start.Line, l.Command.Title, lensReview[at:at+min(len(lensReview)-at, 20)]))
			}
			// Each goes to the first problem on the first comment that has
			// one (c2's drifted snippet, c3's stale state), else to where a
			// new comment would go.
			want := []string{
				`0: 3 comments: 2 active, 1 stale → "var x = 2"},` + "\n    {\"",
				`0: 1 warning, 1 note → "var x = 2"},` + "\n    {\"",
				`3: 2 comments: 2 active → "var x = 2"},` + "\n    {\"",
				`10: 1 comment: 1 stale → "stale"}` + "\n  ]\n}\n",
				`16: no comments → "comments": [` + "\n    {\"",
				// The verdict, before any finalize: Hold, never green.
				"0: contract: n/a · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold → {\n  \"leanreview_revi",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("lenses:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// TestExecuteCommandRefusesWhatItCannotDo: a wrong command or argument is
// an InvalidParams reply; a client without window/showDocument is not
// offered lreview.show, gets lenses that are labels, and a RequestFailed
// reply if it runs the command anyway.
func TestExecuteCommandRefusesWhatItCannotDo(t *testing.T) {
	s := navOpen(t, lensReview, nil, navEncodings[0].enc)
	loc := protocol.Location{URI: s.uri}
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"unknown command", map[string]any{"command": "lreview.nope", "arguments": []any{loc}}},
		{"no argument", map[string]any{"command": CommandShow}},
		{"not a location", map[string]any{"command": CommandShow, "arguments": []any{42}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e *jsonrpc2.Error
			if err := s.c.call("workspace/executeCommand", tc.args, nil); !errors.As(err, &e) || e.Code != jsonrpc2.InvalidParams {
				t.Errorf("%s: got %v, want InvalidParams (-32602)", tc.name, err)
			}
		})
	}
	c := newTestClient(t, Options{})
	var res struct {
		Capabilities struct {
			ExecuteCommandProvider struct{ Commands []string }
		}
	}
	c.mustCall("initialize", map[string]any{"capabilities": map[string]any{}}, &res)
	if cmds := res.Capabilities.ExecuteCommandProvider.Commands; slices.Contains(cmds, CommandShow) {
		t.Errorf("client without showDocument: offered commands %v, want no %s", cmds, CommandShow)
	}
	c.notifyServer("initialized", map[string]any{})
	c.open(s.uri, lensReview)
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &lenses)
	if len(lenses) == 0 || lenses[0].Command == nil || lenses[0].Command.Command != "" || lenses[0].Command.Title == "" {
		t.Errorf("client without showDocument: got lenses %+v, want labels without a command", lenses)
	}
	var e *jsonrpc2.Error
	err := c.call("workspace/executeCommand", map[string]any{"command": CommandShow, "arguments": []any{loc}}, nil)
	if !errors.As(err, &e) || e.Code != -32803 || !strings.Contains(err.Error(), "window/showDocument") {
		t.Errorf("client without showDocument: got %v, want RequestFailed (-32803) naming window/showDocument", err)
	}
}
