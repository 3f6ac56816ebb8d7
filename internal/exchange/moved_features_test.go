package exchange_test

import (
	"bytes"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestOpenAndKeystrokesMakeNoElement opens a review and types in
// its summary, and runs what the server runs for the open and for each
// keystroke: the check, the anchor analysis, and the features an editor
// asks for after every change (lenses, gutter hints, folds, outline,
// tokens, dismissed hints). None may make the patch's elements, kept in
// a table; a hover in the patch may.
func TestOpenAndKeystrokesMakeNoElement(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 6, DiffLines: 600, Comments: 20, DriftedFraction: 0.3, Seed: 9})
	doc := exchange.Parse(src)
	an := anchor.CheckDocument(doc, nil)
	askAll(an)
	if exchange.ElementsMade(doc.Review.Patch.Node) {
		t.Fatal("the open made the patch's elements")
	}
	for k := range 3 {
		at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
		next := append(append(append([]byte{}, src[:at]...), "x"...), src[at:]...)
		doc = exchange.ParseEdited(exchange.NewText(next), doc, exchange.Change{Prefix: at, Suffix: len(src) - at})
		an = anchor.CheckDocument(doc, an)
		src = next
		askAll(an)
		if exchange.ElementsMade(doc.Review.Patch.Node) {
			t.Fatalf("keystroke %d: the moved patch's elements were made", k)
		}
	}
	r := an
	features.HoverAt(r, doc.Review.Patch.LineStart(3))
	if !exchange.ElementsMade(doc.Review.Patch.Node) {
		t.Fatal("a hover in the patch did not make its elements: the test no longer sees them")
	}
}

// askAll asks r for what an editor asks after every change.
func askAll(an *anchor.Analysis) {
	p := &an.Doc.Review.Patch
	mid := p.LineStart(p.LineCount() / 2)
	features.Lenses(an, an.Diagnostics)
	features.Gutter(an, exchange.Range{Start: mid, End: mid + 4000})
	features.Folds(an)
	features.PatchSymbols(an, features.Outline(an.Anchors, an.Doc))
	features.CommentSymbols(an)
	features.Tokens(an.Index, an.Doc.Text)
	features.TokensIn(an.Index, an.Doc.Text, exchange.Range{Start: mid, End: mid + 4000})
	features.DismissedHints(an.Doc)
}
