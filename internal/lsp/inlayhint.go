package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
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

// inlayHints puts a diff gutter before every body line of the patch: the
// old and new line numbers, the numbers one writes in start_line.
func inlayHints(ctx context.Context, s *Server, p *inlayHintParams) ([]inlayHint, error) {
	conv, an, span, err := fileIn(ctx, p.TextDocument.URI, p.Range)
	if err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	lines := an.Index.Patch.Lines
	for _, f := range an.Index.Files {
		for _, h := range f.Hunks {
			for _, dl := range h.Lines {
				l := lines[dl.Patch]
				// The hint stands before the element's opening quote; in the
				// single-string form, before the line's text.
				at := l.Start
				if !l.Shared {
					at = l.Node.Start
				}
				if at < span.Start || at > span.End {
					continue
				}
				hints = append(hints, inlayHint{
					Position:     conv.Position(at),
					Label:        features.GutterLabel(f, dl),
					PaddingRight: true,
					Tooltip:      gutterTooltip(dl.Old, dl.New),
				})
			}
		}
	}
	return hints, nil
}

func gutterTooltip(old, new int) string {
	switch {
	case old > 0 && new > 0:
		return "LEFT " + itoa(old) + " · RIGHT " + itoa(new)
	case old > 0:
		return "LEFT " + itoa(old)
	case new > 0:
		return "RIGHT " + itoa(new)
	}
	return "in neither image"
}
