package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/features"
	"go.lsp.dev/protocol"
)

// foldingRanges converts features.Folds to lines, dropping the
// regions that fit on one.
func foldingRanges(ctx context.Context, v *requestView, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	conv, an, err := v.fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	for _, r := range features.Folds(an) {
		a, b := conv.Position(r.Start), conv.Position(r.End)
		if b.Line > a.Line {
			out = append(out, protocol.FoldingRange{StartLine: a.Line, EndLine: b.Line, Kind: protocol.RegionFoldingRange})
		}
	}
	return out, nil
}
