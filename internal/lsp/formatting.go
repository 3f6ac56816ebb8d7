package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// formatting returns the canonical writer's output as a minimal edit set,
// so that the editor keeps the cursor and the undo history meaningful. A
// document with syntax errors gets no edits: its structure is a guess.
func formatting(ctx context.Context, v *requestView, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	conv, an, err := v.fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if len(an.Doc.Syntax) > 0 || an.Doc.Root.Kind != exchange.KindObject {
		return []protocol.TextEdit{}, nil
	}
	edits, err := exchange.FormatEdits(an.Doc)
	if err != nil {
		return []protocol.TextEdit{}, nil
	}
	return conv.TextEdits(edits), nil
}
