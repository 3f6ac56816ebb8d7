package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// implementation goes from any member of a comment to where its lines are
// in the working tree (see features.Analysis.SourceOfComment): the review
// says what to change, the source is where it is implemented.
func implementation(ctx context.Context, s *requestView, p *protocol.ImplementationParams) ([]protocol.Location, error) {
	conv, an, off, err := s.fileAt(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	t := s.treeFor(p.TextDocument.URI)
	if t == nil {
		return nil, nil
	}
	loc, ok := an.SourceOfComment(t, off)
	if !ok {
		return nil, nil
	}
	return []protocol.Location{sourceLocation(loc, conv.Enc)}, nil
}
