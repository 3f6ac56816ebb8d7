package lsp

import (
	"context"
	"encoding/json"
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
