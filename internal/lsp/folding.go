package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// foldingRanges converts features.Analysis.Folds to lines, dropping the
// regions that fit on one.
func foldingRanges(ctx context.Context, s *requestView, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	conv, an, err := s.fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	for _, r := range an.Folds() {
		a, b := conv.Position(r.Start), conv.Position(r.End)
		if b.Line > a.Line {
			out = append(out, protocol.FoldingRange{StartLine: a.Line, EndLine: b.Line, Kind: protocol.RegionFoldingRange})
		}
	}
	return out, nil
}
