package lsp

import (
	"testing"
)

func BenchmarkZZRequests(b *testing.B) {
	c, _ := rawOpen(b, "req")
	id := 100
	for _, m := range []struct{ name, method, extra string }{
		{"symbols", "textDocument/documentSymbol", ""},
		{"folding", "textDocument/foldingRange", ""},
		{"codelens", "textDocument/codeLens", ""},
		{"inlay", "textDocument/inlayHint", `,"range":{"start":{"line":50000,"character":0},"end":{"line":50100,"character":0}}`},
		{"tokens-full", "textDocument/semanticTokens/full", ""},
	} {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				id++
				tokensRequest(c, id, m.method, "req", m.extra)
			}
		})
	}
}
