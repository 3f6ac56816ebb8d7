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
func References(an *anchor.Analysis, offset int, includeDecl bool) []exchange.Range {
	p := placeNear(an.Doc, offset)
	if p.Kind != PlacePatchLine {
		if p.Comment >= 0 {
			return commentReferences(an, p.Comment, includeDecl)
		}
		return nil
	}
	fi, hi, _, ok := an.Index.LineAt(p.PatchLine)
	var idx []int
	switch {
	case ok:
		idx = an.Anchors.CommentsOn(p.PatchLine)
	case fi < 0:
	case hi >= 0:
		f := an.Index.Files[fi]
		idx = commentsWhere(an, func(res *anchor.Resolution) bool { return res.Resolved && res.File == f && res.Hunk == hi })
	default:
		f := an.Index.Files[fi]
		idx = commentsWhere(an, func(res *anchor.Resolution) bool { return res.File == f })
	}
	var out []exchange.Range
	if includeDecl {
		out = append(out, p.Range)
	}
	for _, i := range idx {
		out = append(out, anchorValue(an, i))
	}
	return out
}

// commentReferences is References from inside comment ci: its anchor's
// lines, then the other comments on those lines in document order. A
// comment that does not resolve has no lines, and so no neighbours.
func commentReferences(an *anchor.Analysis, ci int, includeDecl bool) []exchange.Range {
	var out []exchange.Range
	if includeDecl {
		out = append(out, anchorValue(an, ci))
	}
	res := an.Anchors.Resolutions[ci]
	span, ok := anchorSpan(an, res)
	if !ok {
		return out
	}
	out = append(out, span)
	var others []int
	for _, l := range res.Lines() {
		for _, i := range an.Anchors.CommentsOn(l.Patch) {
			if i != ci && !slices.Contains(others, i) {
				others = append(others, i)
			}
		}
	}
	slices.Sort(others)
	for _, i := range others {
		out = append(out, anchorValue(an, i))
	}
	return out
}

// anchorValue is comment i's start_line value, or the comment object when
// it has none.
func anchorValue(an *anchor.Analysis, i int) exchange.Range {
	c := an.Doc.Review.Comments[i]
	n := c.Member("start_line")
	if n == nil {
		n = c.Node
	}
	return exchange.NodeRange(n)
}
