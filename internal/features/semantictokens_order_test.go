package features

import (
	"fmt"
	"slices"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestAllTokensOrder: AllTokens yields the walk's tokens in source order
// and says so; with the index's files out of order (an index built by
// hand can hold them so) it says they are not, and Tokens still sorts
// them.
func TestAllTokensOrder(t *testing.T) {
	for name, src := range reviewsForTokens(t) {
		doc := exchange.Parse(src)
		an := anchor.CheckDocument(doc, nil)
		want := walkTokens(an.Index, doc.Text.Bytes())
		var got []Token
		if ok := AllTokens(an.Index, doc.Text, func(t Token) { got = append(got, t) }); !ok || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: AllTokens yields %d tokens (in order: %v), want the walk's %d in order", name, len(got), ok, len(want))
		}
		if len(an.Index.Files) < 2 {
			continue
		}
		rev := *an.Index
		rev.Files = slices.Clone(rev.Files)
		slices.Reverse(rev.Files)
		got = got[:0]
		if ok := AllTokens(&rev, doc.Text, func(t Token) { got = append(got, t) }); ok || len(got) != len(want) {
			t.Fatalf("%s, files reversed: AllTokens yields %d tokens, in order: %v; want %d out of order", name, len(got), ok, len(want))
		}
		if got := Tokens(&rev, doc.Text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s, files reversed: Tokens gives %d tokens, not the walk's %d in order", name, len(got), len(want))
		}
	}
}
