package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/features"
	"go.lsp.dev/protocol"
)

// inlayHintParams and inlayHint are LSP 3.17 types the protocol library
// does not have.
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

type inlayHint struct {
	Position     protocol.Position `json:"position"`
	Label        string            `json:"label"`
	Kind         int               `json:"kind,omitempty"`
	Tooltip      string            `json:"tooltip,omitempty"`
	PaddingRight bool              `json:"paddingRight,omitempty"`
}

// inlayHints converts features.Gutter for the range asked for.
func inlayHints(ctx context.Context, v *requestView, p *inlayHintParams) ([]inlayHint, error) {
	conv, an, span, err := v.fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	for _, g := range features.Gutter(an, span) {
		hints = append(hints, inlayHint{Position: conv.Position(g.At), Label: g.Label, PaddingRight: true, Tooltip: g.Tooltip})
	}
	return hints, nil
}
