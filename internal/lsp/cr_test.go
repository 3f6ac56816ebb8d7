package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// crReview is a terminal golden file's diff: its removed and added lines
// carry a lone carriage return in the middle, which git keeps as content
// (only "\n" ends a diff line).
const crReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/t/golden.txt b/t/golden.txt",
    "--- a/t/golden.txt",
    "+++ b/t/golden.txt",
    "@@ -1,5 +1,7 @@",
    " one",
    "-\u001b[?25l\u001b[2K\rHi.",
    "+\u001b[?25l\rHello.",
    "+two",
    "+three",
    " four",
    " five",
    " six"
  ],
  "comments": [
    {"id": "c1", "path": "t/golden.txt", "side": "RIGHT", "start_line": 6, "snippet": "five", "body": "x"},
    {"id": "c2", "path": "t/golden.txt", "side": "LEFT", "start_line": 2, "snippet": "\u001b[?25l\u001b[2K\rHi.", "body": "y"},
    {"id": "c3", "path": "t/golden.txt", "side": "RIGHT", "start_line": 2, "snippet": "\u001b[?25l\rHello.", "body": "z"}
  ]
}
`

// TestLoneCarriageReturnIsContent drives the editor features over a patch
// whose lines hold a lone "\r": no diagnostic, one token and one gutter
// hint per element, and the hover shows the whole line.
func TestLoneCarriageReturnIsContent(t *testing.T) {
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, crReview, e.offer, e.enc)
			if ds := s.c.waitDiagnostics(s.uri, 1); len(ds) != 0 {
				t.Errorf("diagnostics: got %v, want none", codes(ds))
			}
			var toks protocol.SemanticTokens
			s.c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &toks)
			got := tokenText(t, crReview, e.enc, toks.Data)
			want := []string{
				"diffHeader:diff --git a/t/golden.txt b/t/golden.txt",
				"diffHeader:--- a/t/golden.txt",
				"diffHeader:+++ b/t/golden.txt",
				"diffHunk:@@ -1,5 +1,7 @@",
				"diffContext: one",
				`diffRemoved:-\u001b[?25l\u001b[2K\rHi.`,
				`diffAdded:+\u001b[?25l\rHello.`,
				"diffAdded:+two", "diffAdded:+three",
				"diffContext: four", "diffContext: five", "diffContext: six",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("tokens:\ngot  %q\nwant %q", got, want)
			}
			var hints []inlayHint
			s.c.mustCall("textDocument/inlayHint", map[string]any{
				"textDocument": map[string]any{"uri": s.uri},
				"range":        protocol.Range{End: protocol.Position{Line: 100}},
			}, &hints)
			var gutter []string
			for _, h := range hints {
				gutter = append(gutter, fmt.Sprintf("%d %s", h.Position.Line, h.Label))
			}
			wantGutter := []string{"7 1 1", "8 2  ", "9   2", "10   3", "11   4", "12 3 5", "13 4 6", "14 5 7"}
			if strings.Join(gutter, "|") != strings.Join(wantGutter, "|") {
				t.Errorf("gutter:\ngot  %q\nwant %q", gutter, wantGutter)
			}
			// The hover shows the anchored line whole, its control
			// characters as pictures: a raw "\r" would end the Markdown line.
			h := s.hover(`"body": "y"`, 10)
			if h == nil || !strings.Contains(h.Contents.Value, "│ ␛[?25l␛[2K␍Hi.\n") || strings.Contains(h.Contents.Value, "\r") {
				t.Errorf("hover on c2's body: got %+v, want the removed line whole, \"␛[?25l␛[2K␍Hi.\"", h)
			}
		})
	}
}
