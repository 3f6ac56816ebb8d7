package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// TestEditBodyRoundTrip: lreview.editBody answers a body unescaped, and
// lreview.setBody writes a text back through workspace/applyEdit, quoted
// as the writer quotes; a body with a suggestion block, tabs, quotes,
// backslashes, an emoji and CRLF comes back byte for byte, and writing
// it unchanged sends no edit.
func TestEditBodyRoundTrip(t *testing.T) {
	const body = "Return the error 🚀.\r\n\r\n```suggestion\r\n\t\tline -= \"a\\b\"\r\n```\r\n"
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	text := strings.Replace(navReview, `"body": "`, `"body": `+jsontext.Quote(body)+`, "x": "`, 1)
	for _, tc := range []struct{ name, text, body string }{
		{"a new text", "Looks *fine*.\n", body},
		{"the same text", body, body},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, Options{})
			c.mustCall("initialize", map[string]any{"capabilities": caps}, nil)
			uri := protocol.DocumentURI("file:///tmp/body.review.json")
			c.open(uri, text)
			var got BodyResult
			at := strings.Index(text, `"body": `) + 2
			c.mustCall("workspace/executeCommand", map[string]any{"command": CommandEditBody, "arguments": []any{uri, navPosition(text, at, exchange.UTF16)}}, &got)
			if got.Text != body || got.Reply != -1 || got.Comment == "" {
				t.Fatalf("editBody: got %+v, want the body %q", got, body)
			}
			c.mustCall("workspace/executeCommand", map[string]any{"command": CommandSetBody, "arguments": []any{uri, got.Comment, got.Reply, tc.text}}, nil)
			c.mu.Lock()
			applied := slices.Clone(c.applied)
			c.mu.Unlock()
			if tc.text == body {
				if len(applied) != 0 {
					t.Errorf("unchanged: got %v, want no edit", applied)
				}
				return
			}
			if len(applied) != 1 {
				t.Fatalf("got %d applyEdit requests, want 1", len(applied))
			}
			after := applyTextEdits(t, text, exchange.UTF16, applied[0].Edit.Changes[uri])
			if want := strings.Replace(text, jsontext.Quote(body), `"Looks *fine*.\n"`, 1); after != want {
				t.Errorf("after setBody:\n%s\nwant\n%s", after, want)
			}
			// And back: byte for byte.
			c.change(uri, 2, nil, after)
			c.waitDiagnostics(uri, 2)
			c.mustCall("workspace/executeCommand", map[string]any{"command": CommandSetBody, "arguments": []any{uri, got.Comment, got.Reply, body}}, nil)
			c.mu.Lock()
			last := c.applied[len(c.applied)-1]
			c.mu.Unlock()
			if back := applyTextEdits(t, after, exchange.UTF16, last.Edit.Changes[uri]); back != text {
				t.Errorf("back:\n%s\nwant\n%s", back, text)
			}
		})
	}
}
