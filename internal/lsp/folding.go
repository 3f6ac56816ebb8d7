package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// foldingRanges folds each file of the patch, each hunk, and each comment.
func foldingRanges(ctx context.Context, s *Server, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	conv, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	fold := func(start, end int, kind protocol.FoldingRangeKind) {
		a, b := conv.Position(start), conv.Position(end)
		if b.Line > a.Line {
			out = append(out, protocol.FoldingRange{StartLine: a.Line, EndLine: b.Line, Kind: kind})
		}
	}
	lines := an.Index.Patch.Lines
	for _, f := range an.Index.Files {
		fold(lines[f.First].Start, lines[f.Last].End, protocol.RegionFoldingRange)
		for _, h := range f.Hunks {
			last := h.Header
			if k := len(h.Lines); k > 0 {
				last = h.Lines[k-1].Patch
			}
			fold(lines[h.Header].Start, lines[last].End, protocol.RegionFoldingRange)
		}
	}
	for _, c := range an.Doc.Review.Comments {
		fold(c.Node.Start, c.Node.End, protocol.RegionFoldingRange)
	}
	return out, nil
}
