package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Definition returns where the anchor member at offset points: the patch
// lines a comment's path, side, start_line or end_line (key or value)
// resolves to, as ONE range from its first to its last line, so that an
// editor jumps there (a list of one location per line makes Neovim's gd
// open a picker). An anchor that does not resolve points at its drift
// candidates, one range each, which is a real choice; failing those, and
// from `path` always, at the first header line of the file it names.
func Definition(an *anchor.Analysis, offset int) []exchange.Range {
	p := placeNear(an.Doc, offset)
	if p.Comment < 0 || p.Owner != exchange.OwnerComment || p.parent != an.Doc.Review.Comments[p.Comment].Node {
		return nil
	}
	res := an.Anchors.Resolutions[p.Comment]
	switch p.Member() {
	case "path":
		return fileHeader(an, res)
	case "side", "start_line", "end_line":
	default:
		return nil
	}
	if span, ok := anchorSpan(an, res); ok {
		return []exchange.Range{span}
	}
	var out []exchange.Range
	for _, k := range res.Candidates {
		if _, h, first, last, ok := candidateLines(an, k); ok {
			lo, hi := LineRange(&an.Doc.Review.Patch, h.PatchLine(first)), LineRange(&an.Doc.Review.Patch, h.PatchLine(last))
			out = append(out, exchange.Range{Start: lo.Start, End: hi.End})
		}
	}
	if len(out) == 0 {
		return fileHeader(an, res)
	}
	return out
}

// anchorSpan is the source range from the first to the last patch line a
// resolved anchor covers (the other side's lines between them included).
func anchorSpan(an *anchor.Analysis, res *anchor.Resolution) (exchange.Range, bool) {
	ls := res.Lines()
	if len(ls) == 0 {
		return exchange.Range{}, false
	}
	patch := &an.Doc.Review.Patch
	lo, hi := LineRange(patch, ls[0].Patch), LineRange(patch, ls[len(ls)-1].Patch)
	return exchange.Range{Start: lo.Start, End: hi.End}, true
}

// fileHeader is the first header line of the file a comment's path names.
func fileHeader(an *anchor.Analysis, res *anchor.Resolution) []exchange.Range {
	patch := &an.Doc.Review.Patch
	f := res.File
	if f == nil {
		side, _ := anchor.ParseSide(res.Comment.Side) // RIGHT when the side is not valid
		f = an.Index.FileEither(res.Comment.Path, side)
	}
	if f == nil || f.First >= patch.LineCount() {
		return nil
	}
	return []exchange.Range{LineRange(patch, f.First)}
}
