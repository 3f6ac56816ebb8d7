package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// definition goes from a comment's anchor (path, side, start_line,
// end_line) to the patch lines it lands on, one location per line; from
// an anchor that does not resolve, to the places its snippet is found (see
// features.Definition).
func definition(ctx context.Context, v *requestView, p *protocol.DefinitionParams) ([]protocol.Location, error) {
	conv, an, off, err := v.fileAt(ctx, p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	if t := v.treeFor(p.TextDocument.URI); t != nil {
		if loc, ok := features.SourceLine(an, t, off); ok {
			return []protocol.Location{sourceLocation(loc, conv.Enc)}, nil
		}
	}
	return locations(p.TextDocument.URI, conv, features.Definition(an, off)), nil
}

// locations converts ranges of the document uri; none is null, which
// every client reads as "nothing found".
func locations(uri protocol.DocumentURI, conv Converter, rs []exchange.Range) []protocol.Location {
	if len(rs) == 0 {
		return nil
	}
	out := make([]protocol.Location, len(rs))
	for i, r := range rs {
		out[i] = protocol.Location{URI: uri, Range: conv.Range(r)}
	}
	return out
}
