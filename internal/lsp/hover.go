package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
)

// hover explains what the cursor is on (see features.HoverAt): the diff
// lines a comment lands on, the numbers and comments of a patch line, the
// schema's words for a member or an enumerated value. The range is the
// hovered token's, so that the editor highlights what the text is about.
// The text is Markdown for a client whose hover.contentFormat lists it,
// plain text otherwise.
func hover(ctx context.Context, v *requestView, p *protocol.HoverParams) (*protocol.Hover, error) {
	if v.isSource(p.TextDocument.URI) {
		return sourceHover(ctx, v, p) // sourcerequests.go
	}
	conv, an, off, err := v.fileAt(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	h, ok := features.HoverAt(an, off)
	if t := v.treeFor(p.TextDocument.URI); ok && t != nil {
		if line := features.SourceHover(an, t, off); line != "" {
			h.Markdown += "\n\n" + line
		}
	}
	if sh, g, _ := v.shapeOf(p.TextDocument.URI, an); ok && sh != nil {
		path := features.FileHeaderPath(an, off)
		for _, line := range []string{features.CohortHover(sh, path), features.CohortNotesHover(an, sh, path, g)} {
			if line != "" {
				h.Markdown += "\n\n" + line
			}
		}
	}
	if !ok {
		return nil, nil
	}
	contents := protocol.MarkupContent{Kind: protocol.Markdown, Value: h.Markdown}
	if !v.clientCaps().hoverMarkdown {
		contents = protocol.MarkupContent{Kind: protocol.PlainText, Value: features.PlainText(h.Markdown)}
	}
	rng := conv.Range(h.Range)
	return &protocol.Hover{Contents: contents, Range: &rng}, nil
}
