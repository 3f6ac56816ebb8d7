package lsp

import (
	"context"

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

// inlayHints converts features.Analysis.Gutter for the range asked for.
func inlayHints(ctx context.Context, s *requestView, p *inlayHintParams) ([]inlayHint, error) {
	conv, an, span, err := s.fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	for _, g := range an.Gutter(span) {
		hints = append(hints, inlayHint{Position: conv.Position(g.At), Label: g.Label, PaddingRight: true, Tooltip: g.Tooltip})
	}
	return hints, nil
}
