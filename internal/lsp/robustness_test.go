package lsp

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestAnyDocumentAnyRequest opens mangled and random documents and sends
// every request the server offers at random places: every request must be
// answered, and no handler may panic.
func TestAnyDocumentAnyRequest(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	docs := []string{"", "{", "[]", "null", "\xff\xfe\x00garbage", `{"leanreview_review": 1, "patch": "@@ -1,999999999 +1,999999999 @@\n+x", "comments": [{}]}`}
	for i := 0; i < 30; i++ {
		b := []byte(exampleReview)
		for k := 0; k < 1+r.IntN(6); k++ {
			at := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b = append(b[:at], b[min(len(b), at+1+r.IntN(20)):]...)
			case 1:
				ins := []string{"\"", "{", "]", ",", "😀", "\\u", "\r\n", "\x00", "\xc3", "@@ -1 +1 @@", "\"start_line\": 1e999999,"}[r.IntN(11)]
				b = append(b[:at], append([]byte(ins), b[at:]...)...)
			case 2:
				b[at] = byte(r.IntN(256))
			}
		}
		docs = append(docs, string(b))
	}
	random := make([]byte, 300)
	for i := range random {
		random[i] = byte(r.IntN(256))
	}
	docs = append(docs, string(random))

	c := newTestClient(t, Options{})
	c.initialize()
	methods := []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion",
		"textDocument/codeAction", "textDocument/semanticTokens/full", "textDocument/semanticTokens/range", "textDocument/inlayHint",
		"textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/codeLens", "textDocument/formatting"}
	for i, text := range docs {
		uri := protocol.DocumentURI(fmt.Sprintf("file:///tmp/robust%d.review.json", i))
		c.open(uri, text)
		c.waitDiagnostics(uri, 1)
		lines := strings.Count(text, "\n") + 1
		for _, m := range methods {
			pos := protocol.Position{Line: uint32(r.IntN(lines)), Character: uint32(r.IntN(40))}
			params := map[string]any{
				"textDocument": map[string]any{"uri": uri},
				"position":     pos,
				"range":        protocol.Range{Start: pos, End: protocol.Position{Line: pos.Line + uint32(r.IntN(5)), Character: 3}},
				"context":      map[string]any{"diagnostics": []any{}, "includeDeclaration": true},
				"options":      map[string]any{"tabSize": 2, "insertSpaces": true},
			}
			// An error reply is fine; no reply, or a panic, is not.
			if err := c.call(m, params, nil); err != nil && !errors.As(err, new(*jsonrpc2.Error)) {
				t.Errorf("%s on document %d: got %v, want a result or an error reply", m, i, err)
			}
		}
		c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	c.mu.Lock()
	logs := strings.Join(c.logs, "\n")
	c.mu.Unlock()
	if strings.Contains(logs, "panic") {
		t.Fatalf("a handler panicked:\n%s", logs)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
