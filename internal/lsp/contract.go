package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// The contract axis (features/contract.go) in the session: its
// diagnostics join each publish, its lens the summary lenses, its
// decisions the code actions. A review that changes no OpenAPI
// description pays a look at its file names; one that does rebuilds the
// descriptions from the working tree as it is now (its files cached by
// size and modification time) and compares each pair of texts once
// (Server.contracts, by their content).

// contractResult is the axis of an analysis of the review at docURI, or
// nil when the review changes no description.
func (s *Server) contractResult(docURI protocol.DocumentURI, an *Analysis) *contract.Result {
	if !contract.HasSpec(an.Index) {
		return nil
	}
	return an.Contract(s.treeFor(docURI), &s.contracts)
}

// contractDiagnostics are the axis's diagnostics of the review at docURI.
func (s *Server) contractDiagnostics(docURI protocol.DocumentURI, an *Analysis) []exchange.Diagnostic {
	res := s.contractResult(docURI, an)
	if res == nil {
		return nil
	}
	return an.ContractDiagnostics(res)
}

// contractLens is the axis and verdict's lens, and the diagnostics the
// problems lens counts with the document's own.
func (s *Server) contractLens(docURI protocol.DocumentURI, an *Analysis) (features.Lens, []exchange.Diagnostic, bool) {
	res := s.contractResult(docURI, an)
	if res == nil {
		return features.Lens{}, nil, false
	}
	l, ok := an.ContractLens(res)
	return l, an.ContractDiagnostics(res), ok
}

// contractActions are the decisions on the breaking changes in span, as
// quick fixes of their diagnostics.
func (s *Server) contractActions(docURI protocol.DocumentURI, an *Analysis, req actionRequest) []protocol.CodeAction {
	if !req.wants(protocol.QuickFix) && !req.wants(protocol.RefactorRewrite) {
		return nil
	}
	res := s.contractResult(docURI, an)
	if res == nil {
		return nil
	}
	var out []protocol.CodeAction
	for _, a := range an.ContractActions(res, req.span.Start, req.span.End, req.opts) {
		ca := protocol.CodeAction{Title: a.Title, Kind: protocol.RefactorRewrite, Edit: req.edit(a.Edits)}
		if req.wants(protocol.QuickFix) {
			ca.Kind = protocol.QuickFix
			ca.Diagnostics = req.conv.Diagnostics(req.uri, []exchange.Diagnostic{*a.Resolves})
		}
		out = append(out, ca)
	}
	return out
}
