package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/features"
	"go.lsp.dev/protocol"
)

// implementation goes from any member of a comment to where its lines are
// in the working tree (see features.SourceOfComment): the review
// says what to change, the source is where it is implemented.
func implementation(ctx context.Context, v *requestView, p *protocol.ImplementationParams) ([]protocol.Location, error) {
	conv, an, off, err := v.fileAt(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	t := v.treeFor(p.TextDocument.URI)
	if t == nil {
		return nil, nil
	}
	loc, ok := features.SourceOfComment(an, t, off)
	if !ok {
		return nil, nil
	}
	return []protocol.Location{sourceLocation(loc, conv.Enc)}, nil
}
