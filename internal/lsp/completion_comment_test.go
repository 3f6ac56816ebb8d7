package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestCompletionNewComment: between the elements of `comments` the one
// item is a whole new comment with the required members, laid out like
// the comments there, with the commas the place needs; accepted as a
// client would (text edit and additional edits), the document is valid
// and the new comment resolves.
func TestCompletionNewComment(t *testing.T) {
	afterLast := strings.Replace(exampleReview, "      ]\n    }\n  ]", "      ]\n    }\n    "+cplCursor+"\n  ]", 1)
	oneLine := `{"leanreview_review": 1, "patch": ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -3 +3 @@", "-x", "+y"], "comments": [` +
		`{"id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 3, "body": "b"},` + cplCursor + ` {"id": "c7", "path": "a.go", "side": "LEFT", "start_line": 3, "body": "c"}]}` + "\n"
	empty := `{"leanreview_review": 1, "patch": ["diff --git a/a.go b/a.go", "deleted file mode 100644", "--- a/a.go", "+++ /dev/null", "@@ -1 +0,0 @@", "-x"], "comments": [` + cplCursor + `]}` + "\n"
	for _, tc := range []struct {
		name, text string
		want       string // the new comment, as the document holds it once accepted
	}{
		{"an empty line after the last comment, which lacks its comma", afterLast,
			"    },\n    {\n      \"id\": \"c2\",\n      \"path\": \"internal/api/handler.go\",\n      \"side\": \"RIGHT\",\n      \"start_line\": 70,\n      \"body\": \"\"\n    }\n  ]"},
		{"between two comments on one line: a comma after it", oneLine,
			`"body": "b"},{"id": "c8", "path": "a.go", "side": "RIGHT", "start_line": 3, "body": ""}, {"id": "c7"`},
		{"an empty array; a deleted file is commented on LEFT", empty,
			`"comments": [{"id": "c1", "path": "a.go", "side": "LEFT", "start_line": 1, "body": ""}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, snippets := range []bool{false, true} {
				c := newTestClient(t, Options{})
				c.mustCall("initialize", map[string]any{"capabilities": map[string]any{
					"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{
						"snippetSupport": snippets, "insertTextModeSupport": map[string]any{"valueSet": []int{1, 2}},
					}}},
				}}, nil)
				at := strings.Index(tc.text, cplCursor)
				text := tc.text[:at] + tc.text[at+len(cplCursor):]
				uri := protocol.DocumentURI("file:///tmp/new.review.json")
				c.open(uri, text)
				var list protocol.CompletionList
				c.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": navPosition(text, at, exchange.UTF16)}, &list)
				if len(list.Items) != 1 || list.Items[0].Label != "new comment" || list.Items[0].Kind != protocol.CompletionItemKindSnippet {
					t.Fatalf("%s (snippets %v): got %+v, want the one new-comment item", tc.name, snippets, list.Items)
				}
				it := list.Items[0]
				if snippets {
					for _, want := range []string{`"${1:c`, `"${2:`, `"${3:`, `${4:`, `"$0"`} {
						if !strings.Contains(it.TextEdit.NewText, want) || it.InsertTextFormat != protocol.InsertTextFormatSnippet {
							t.Errorf("%s: snippet %q (format %v): want %s in it", tc.name, it.TextEdit.NewText, it.InsertTextFormat, want)
						}
					}
					continue
				}
				if it.InsertTextFormat != protocol.InsertTextFormatPlainText || strings.Contains(it.TextEdit.NewText, "$") {
					t.Errorf("%s: got format %v text %q, want plain text", tc.name, it.InsertTextFormat, it.TextEdit.NewText)
				}
				if strings.Contains(it.TextEdit.NewText, "\n") && it.InsertTextMode != protocol.InsertTextModeAsIs {
					t.Errorf("%s: a multi-line item must be inserted as is, got mode %v", tc.name, it.InsertTextMode)
				}
				got := applyTextEdits(t, text, exchange.UTF16, append([]protocol.TextEdit{*it.TextEdit}, it.AdditionalTextEdits...))
				if !strings.Contains(got, tc.want) {
					t.Errorf("%s: accepted, the document reads\n%s\nwant it to hold\n%s", tc.name, got, tc.want)
				}
				c.change(uri, 2, nil, got)
				for _, d := range c.waitDiagnostics(uri, 2) {
					if d.Severity <= protocol.DiagnosticSeverityWarning && d.Code != "hunk-count-mismatch" { // the example's own
						t.Errorf("%s: accepted, got %v %q, want a valid review whose new comment resolves", tc.name, d.Code, d.Message)
					}
				}
			}
		})
	}
}
