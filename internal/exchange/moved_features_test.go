package exchange_test

import (
	"bytes"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestKeystrokeBeforeThePatchMakesNoElement types in the summary and
// runs what the server runs for such a keystroke: the check, the anchor
// analysis, and the features an editor asks for after every change
// (lenses, gutter hints, folds, outline, tokens, dismissed hints). None
// may make the moved patch's 100,000 elements; a hover in the patch may.
func TestKeystrokeBeforeThePatchMakesNoElement(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 6, DiffLines: 600, Comments: 20, DriftedFraction: 0.3, Seed: 9})
	doc := exchange.Parse(src)
	rep := anchor.CheckDocument(doc, nil)
	for k := range 3 {
		at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
		next := append(append(append([]byte{}, src[:at]...), "x"...), src[at:]...)
		doc = exchange.ParseEdited(next, doc, exchange.Change{Prefix: at, Suffix: len(src) - at})
		rep = anchor.CheckDocument(doc, rep)
		src = next
		r := features.Analysed{Report: rep}
		mid := doc.Review.Patch.LineStart(len(doc.Review.Patch.Lines) / 2)
		r.Lenses(rep.Diagnostics)
		r.Gutter(exchange.Range{Start: mid, End: mid + 4000})
		r.Folds()
		r.Symbols()
		features.Tokens(rep.Index, doc.Src)
		features.TokensIn(rep.Index, doc.Src, exchange.Range{Start: mid, End: mid + 4000})
		features.DismissedHints(doc)
		if exchange.ElementsMade(doc.Review.Patch.Node) {
			t.Fatalf("keystroke %d: the moved patch's elements were made", k)
		}
	}
	r := features.Analysed{Report: rep}
	r.Hover(doc.Review.Patch.LineStart(3))
	if !exchange.ElementsMade(doc.Review.Patch.Node) {
		t.Fatal("a hover in the patch did not make its elements: the test no longer sees them")
	}
}
