package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestCompletionNewCommentIndentAdjusted: a client that declares no
// insertTextMode asIs adds the cursor line's indentation to the lines of
// a multi-line item (the protocol's default, which Neovim's snippets do):
// the item's lines say only what goes beyond it, so that the comment
// ends up laid out as the others, not indented twice.
func TestCompletionNewCommentIndentAdjusted(t *testing.T) {
	text := strings.Replace(exampleReview, "      ]\n    }\n  ]", "      ]\n    },\n    "+cplCursor+"\n  ]", 1)
	at := strings.Index(text, cplCursor)
	text = text[:at] + text[at+len(cplCursor):]
	for _, snippets := range []bool{false, true} {
		c := newTestClient(t, Options{})
		c.mustCall("initialize", map[string]any{"capabilities": map[string]any{
			"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": snippets}}},
		}}, nil)
		uri := protocol.DocumentURI("file:///tmp/indent.review.json")
		c.open(uri, text)
		var list protocol.CompletionList
		c.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": navPosition(text, at, exchange.UTF16)}, &list)
		if len(list.Items) != 1 {
			t.Fatalf("got %d items, want the new comment", len(list.Items))
		}
		it := list.Items[0]
		if it.InsertTextMode == protocol.InsertTextModeAsIs {
			t.Errorf("snippets %v: asIs sent to a client that did not declare it", snippets)
		}
		// As the client applies it: each line after the first gets the
		// cursor line's indentation ("    ").
		adjusted := strings.ReplaceAll(it.TextEdit.NewText, "\n", "\n    ")
		wantPlain := "{\n      \"id\": \"c2\",\n      \"path\": \"internal/api/handler.go\",\n      \"side\": \"RIGHT\",\n      \"start_line\": 70,\n      \"body\": \"\"\n    }"
		if !snippets && adjusted != wantPlain {
			t.Errorf("plain: adjusted by the client, the item reads\n%s\nwant\n%s", adjusted, wantPlain)
		}
		if snippets && (!strings.HasPrefix(adjusted, "{\n      \"id\": \"${1:c2}\",") || !strings.HasSuffix(adjusted, "\n    }")) {
			t.Errorf("snippet: adjusted by the client, the item reads\n%s\nwant members at 6 spaces, the brace at 4", adjusted)
		}
	}
}
