package anchor

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// BenchmarkKeystrokeCheck measures the check of one keystroke on the
// default generated review (8 MB, 2,000 comments), given the report of
// the version before it, as the language server runs it: "summary" types
// in the summary, before the patch, which the parse carries over moved by
// a byte; "body" types in the last comment's body, after it. The parse is
// not timed.
func BenchmarkKeystrokeCheck(b *testing.B) {
	src := benchDocument()
	prev := CheckDocument(exchange.Parse(src), nil)
	for _, at := range []struct{ name, after string }{
		{"summary", `"summary": "`},
		{"body", `"body": "`},
	} {
		i := bytes.Index(src, []byte(at.after)) + len(at.after)
		if at.name == "body" {
			i = bytes.LastIndex(src, []byte(at.after)) + len(at.after)
		}
		next := slices.Concat(src[:i], []byte("x"), src[i:])
		doc := exchange.ParseEdited(exchange.NewText(next), prev.Doc, exchange.Change{Prefix: i, Suffix: len(src) - i})
		if _, carried := patchCarried(doc, prev.Doc); at.name == "summary" && !carried {
			b.Fatal("the parse did not carry the patch over")
		}
		b.Run(at.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CheckDocumentContext(context.Background(), doc, prev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
