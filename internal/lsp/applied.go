package lsp

import (
	"fmt"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// appliedActions adds to out the actions on the comments the request
// touches whose suggestion the working tree holds
// (features.Analysis.AppliedActions): quick fixes of their
// suggestion-applied diagnostic. The plain "Dismiss c2" of the same edit
// gives way to the fix, so that one change is listed once.
func (s *Server) appliedActions(out []protocol.CodeAction, req actionRequest, an *Analysis) []protocol.CodeAction {
	if !req.wants(protocol.QuickFix) || slices.Contains(req.disabled, exchange.CodeSuggestionApplied) {
		return out
	}
	t := s.treeFor(req.uri)
	if t == nil {
		return out
	}
	for _, a := range an.AppliedActions(t, req.span.Start, req.span.End, req.opts) {
		edit := req.edit(a.Edits)
		out = slices.DeleteFunc(out, func(o protocol.CodeAction) bool {
			return o.Kind == protocol.RefactorRewrite && fmt.Sprint(o.Edit) == fmt.Sprint(edit)
		})
		out = append(out, protocol.CodeAction{
			Title:       a.Title,
			Kind:        protocol.QuickFix,
			Diagnostics: req.conv.Diagnostics(req.uri, []exchange.Diagnostic{*a.Resolves}),
			IsPreferred: a.Preferred,
			Edit:        edit,
		})
	}
	return out
}
