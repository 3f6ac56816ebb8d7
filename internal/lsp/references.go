package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/features"
	"go.lsp.dev/protocol"
)

// references lists the comments anchored on a patch line: each comment's
// start_line value, the number that anchors it there, so that the list
// reads as the places that point at the line and a jump lands where the
// anchor would be edited. On a hunk or file header they are the comments
// in that hunk or file (see features.References).
func references(ctx context.Context, v *requestView, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	conv, an, off, err := v.fileAt(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	out := locations(p.TextDocument.URI, conv, features.References(an, off, p.Context.IncludeDeclaration))
	// On a line that changes a definition: its uses in the working tree.
	return append(out, definitionUses(v, p.TextDocument.URI, conv, an, off)...), nil
}
