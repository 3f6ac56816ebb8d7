package lsp

import (
	"context"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// publish sends the snapshot's diagnostics, less the codes the user
// silenced, tagged with the document version they belong to. It sends
// nothing if sn is no longer f's latest version or f was closed by the
// time they are ready, or if a publish decided later (gen) was sent
// first: converting them takes a while on a large review, and a late
// publish would replace newer diagnostics, or bring back those of a
// closed file, in the editor.
func (s *Server) publish(f *file, sn *snapshot, an *Analysis, gen uint64) {
	ds := visibleDiagnostics(append(dismissedHints(an.Doc), an.Diagnostics...), s.currentSettings().Diagnostics.Disabled)
	params := &protocol.PublishDiagnosticsParams{
		URI:         sn.uri,
		Version:     uint32(sn.version),
		Diagnostics: Converter{M: an.Mapper, Enc: sn.enc}.Diagnostics(sn.uri, ds),
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	latest := !s.closed && s.isLatest(f, sn) && f.claim(gen)
	s.mu.Unlock()
	if latest {
		_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", params)
	}
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

// dismissedHints greys out dismissed comments. Editors fade a range only
// through a diagnostic tagged Unnecessary, so each dismissed comment gets
// a hint with the editor-only code "dismissed"; `check` does not print it,
// since nothing is wrong.
func dismissedHints(doc *exchange.Document) []exchange.Diagnostic {
	var out []exchange.Diagnostic
	for _, c := range doc.Review.Comments {
		if c.StateNorm() == exchange.StateDismissed {
			out = append(out, exchange.Diagnostic{
				Range:       exchange.NodeRange(c.Node),
				Severity:    exchange.SeverityHint,
				Code:        "dismissed",
				Message:     "dismissed: a person rejected this comment; it stays as information and must not be acted on",
				Unnecessary: true,
			})
		}
	}
	return out
}
