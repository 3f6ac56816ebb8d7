package lsp

import (
	"context"
	"encoding/json"

	"github.com/leanreview/lreview-lsp/internal/transport"
)

// The session's names for the params of didOpen and didChange, which the
// transport decodes with the text in place (transport.DecodeOpenParams).
// They are aliases only while the branches that name them merge; then
// the handlers name the transport's types and these go.
type (
	openParams     = transport.OpenParams
	openedDocument = transport.OpenedDocument
	changeParams   = transport.ChangeParams
)

// textNotification adapts a didOpen or didChange handler to the dispatch
// table with its dedicated params decoder.
func textNotification[P any](decode func([]byte) (*P, error), fn func(ctx context.Context, s *Server, p *P) error) notificationFunc {
	return func(ctx context.Context, s *Server, raw json.RawMessage) error {
		p, err := decode(raw)
		if err != nil {
			return err
		}
		return fn(ctx, s, p)
	}
}
