package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Folds are the regions an editor may fold: each file of the patch, each
// hunk, and each comment. A region on one line is the editor's to drop.
func Folds(an *anchor.Analysis) []exchange.Range {
	var out []exchange.Range
	p := an.Index.Patch
	for _, f := range an.Index.Files {
		out = append(out, exchange.Range{Start: p.LineStart(f.First), End: p.LineEnd(f.Last)})
		for _, h := range f.Hunks {
			out = append(out, exchange.Range{Start: p.LineStart(h.Header), End: p.LineEnd(h.LastLine())})
		}
	}
	for _, c := range an.Doc.Review.Comments {
		out = append(out, exchange.NodeRange(c.Node))
	}
	return out
}
