package features

import (
	"slices"

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
func (r Analysed) Definition(offset int) []exchange.Range {
	p := placeNear(r.Doc, offset)
	if p.Comment < 0 || p.Owner != exchange.OwnerComment || p.Node.Parent != r.Doc.Review.Comments[p.Comment].Node {
		return nil
	}
	res := r.Anchors.Resolutions[p.Comment]
	switch p.Member() {
	case "path":
		return r.fileHeader(res)
	case "side", "start_line", "end_line":
	default:
		return nil
	}
	if span, ok := r.anchorSpan(res); ok {
		return []exchange.Range{span}
	}
	var out []exchange.Range
	for _, k := range res.Candidates {
		if _, h, first, last, ok := r.candidateLines(k); ok {
			a, z := LineRange(&r.Doc.Review.Patch, h.Lines[first].Patch), LineRange(&r.Doc.Review.Patch, h.Lines[last].Patch)
			out = append(out, exchange.Range{Start: a.Start, End: z.End})
		}
	}
	if len(out) == 0 {
		return r.fileHeader(res)
	}
	return out
}

// anchorSpan is the source range from the first to the last patch line a
// resolved anchor covers (the other side's lines between them included).
func (r Analysed) anchorSpan(res *anchor.Resolution) (exchange.Range, bool) {
	ls := res.Lines()
	if len(ls) == 0 {
		return exchange.Range{}, false
	}
	patch := &r.Doc.Review.Patch
	a, z := LineRange(patch, ls[0].Patch), LineRange(patch, ls[len(ls)-1].Patch)
	return exchange.Range{Start: a.Start, End: z.End}, true
}

// fileHeader is the first header line of the file a comment's path names.
func (r Analysed) fileHeader(res *anchor.Resolution) []exchange.Range {
	patch := &r.Doc.Review.Patch
	f := res.File
	if f == nil {
		side, _ := anchor.ParseSide(res.Comment.Side) // RIGHT when the side is not valid
		f = r.Index.FileEither(res.Comment.Path, side)
	}
	if f == nil || f.First >= len(patch.Lines) {
		return nil
	}
	return []exchange.Range{LineRange(patch, f.First)}
}

// References returns what points at the place at offset. On a patch line,
// the comments anchored there: the value of each one's start_line, the
// number that anchors it (the comment object when it has none); on a hunk
// header they are the comments resolved into the hunk, on a file header
// those naming the file. Inside a comment, the patch lines its anchor
// covers (one range) and the other comments anchored on any of them. With
// includeDecl the place itself (the line, or the comment's start_line)
// comes first.
func (r Analysed) References(offset int, includeDecl bool) []exchange.Range {
	p := placeNear(r.Doc, offset)
	if p.Kind != PlacePatchLine {
		if p.Comment >= 0 {
			return r.commentReferences(p.Comment, includeDecl)
		}
		return nil
	}
	fi, hi, _, ok := r.Index.LineAt(p.PatchLine)
	var idx []int
	switch {
	case ok:
		idx = r.Anchors.CommentsOn(p.PatchLine)
	case fi < 0:
	case hi >= 0:
		f := r.Index.Files[fi]
		idx = r.commentsWhere(func(res *anchor.Resolution) bool { return res.Resolved && res.File == f && res.Hunk == hi })
	default:
		f := r.Index.Files[fi]
		idx = r.commentsWhere(func(res *anchor.Resolution) bool { return res.File == f })
	}
	var out []exchange.Range
	if includeDecl {
		out = append(out, p.Range)
	}
	for _, i := range idx {
		out = append(out, r.anchorValue(i))
	}
	return out
}

// commentReferences is References from inside comment ci: its anchor's
// lines, then the other comments on those lines in document order. A
// comment that does not resolve has no lines, and so no neighbours.
func (r Analysed) commentReferences(ci int, includeDecl bool) []exchange.Range {
	var out []exchange.Range
	if includeDecl {
		out = append(out, r.anchorValue(ci))
	}
	res := r.Anchors.Resolutions[ci]
	span, ok := r.anchorSpan(res)
	if !ok {
		return out
	}
	out = append(out, span)
	var others []int
	for _, l := range res.Lines() {
		for _, i := range r.Anchors.CommentsOn(l.Patch) {
			if i != ci && !slices.Contains(others, i) {
				others = append(others, i)
			}
		}
	}
	slices.Sort(others)
	for _, i := range others {
		out = append(out, r.anchorValue(i))
	}
	return out
}

// anchorValue is comment i's start_line value, or the comment object when
// it has none.
func (r Analysed) anchorValue(i int) exchange.Range {
	c := r.Doc.Review.Comments[i]
	n := c.Member("start_line")
	if n == nil {
		n = c.Node
	}
	return exchange.NodeRange(n)
}
