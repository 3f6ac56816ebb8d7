package features

import (
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// References returns what points at the place at offset. On a patch line,
// the comments anchored there: the value of each one's start_line, the
// number that anchors it (the comment object when it has none); on a hunk
// header they are the comments resolved into the hunk, on a file header
// those naming the file. Inside a comment, the patch lines its anchor
// covers (one range) and the other comments anchored on any of them. With
// includeDecl the place itself (the line, or the comment's start_line)
// comes first.
func (r Analysis) References(offset int, includeDecl bool) []exchange.Range {
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
func (r Analysis) commentReferences(ci int, includeDecl bool) []exchange.Range {
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
		for _, i := range r.Anchors.CommentsOn(int(l.Patch)) {
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
func (r Analysis) anchorValue(i int) exchange.Range {
	c := r.Doc.Review.Comments[i]
	n := c.Member("start_line")
	if n == nil {
		n = c.Node
	}
	return exchange.NodeRange(n)
}
