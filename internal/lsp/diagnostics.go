package lsp

import (
	"context"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// publish sends the snapshot's diagnostics, less the codes the user
// silenced, tagged with the document version they belong to.
func (s *Server) publish(sn *snapshot, an *Analysis) {
	s.mu.Lock()
	disabled := s.settings.Diagnostics.Disabled
	s.mu.Unlock()
	ds := visibleDiagnostics(an.Diagnostics, disabled)
	conv := Converter{M: an.Mapper, Enc: sn.enc}
	_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI:         sn.uri,
		Version:     uint32(sn.version),
		Diagnostics: conv.Diagnostics(sn.uri, ds),
	})
}

func visibleDiagnostics(ds []exchange.Diagnostic, disabled []string) []exchange.Diagnostic {
	if len(disabled) == 0 {
		return ds
	}
	out := make([]exchange.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !slices.Contains(disabled, d.Code) {
			out = append(out, d)
		}
	}
	return out
}
