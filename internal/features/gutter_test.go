package features

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestGutterFindsTheSpansLines: the binary search gives, for any span,
// the hints a walk over every line gives.
func TestGutterFindsTheSpansLines(t *testing.T) {
	cfg := reviewgen.Default()
	cfg.Files, cfg.DiffLines, cfg.Comments = 6, 600, 10
	doc := exchange.Parse(reviewgen.Generate(cfg))
	an := anchor.CheckDocument(doc, nil)
	every := func(span exchange.Range) []GutterHint {
		var out []GutterHint
		for _, f := range an.Index.Files {
			for _, h := range f.Hunks {
				for j, dl := range h.Lines {
					if at := LineRange(an.Index.Patch, h.PatchLine(j)).Start; at >= span.Start && at <= span.End {
						out = append(out, GutterHint{At: at, Label: GutterLabel(f, dl), Tooltip: numbersWords(dl)})
					}
				}
			}
		}
		return out
	}
	if n := len(every(exchange.Range{End: len(doc.Text.Bytes())})); n < 100 {
		t.Fatalf("the generated review has %d body lines; want a patch to search", n)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		a, b := rng.IntN(len(doc.Text.Bytes())+1), rng.IntN(len(doc.Text.Bytes())+1)
		span := exchange.Range{Start: min(a, b), End: min(max(a, b), min(a, b)+rng.IntN(4000))}
		got, want := Gutter(an, span), every(span)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("span %v: got %d hints, want %d\ngot  %v\nwant %v", span, len(got), len(want), got, want)
		}
	}
}

// BenchmarkGutterVisibleLines asks for the hints of a hundred lines in
// the middle of the 8 MB review, as an editor does at every scroll.
func BenchmarkGutterVisibleLines(b *testing.B) {
	doc := exchange.Parse(reviewgen.Generate(reviewgen.Default()))
	an := anchor.CheckDocument(doc, nil)
	mid := len(doc.Text.Bytes()) / 2
	span := exchange.Range{Start: mid, End: mid + 100*80}
	for b.Loop() {
		if len(Gutter(an, span)) == 0 {
			b.Fatal("no hints")
		}
	}
}
