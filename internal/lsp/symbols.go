package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
)

// symbolKind maps an outline entry to the protocol's kind.
func symbolKind(k features.SymbolKind) protocol.SymbolKind {
	switch k {
	case features.SymbolFile:
		return protocol.SymbolKindFile
	case features.SymbolComments:
		return protocol.SymbolKindArray
	case features.SymbolComment:
		return protocol.SymbolKindEvent
	}
	return protocol.SymbolKindNamespace // directories and hunks
}

// documentSymbols converts features.Analysed.Symbols.
func documentSymbols(ctx context.Context, s *Server, p *protocol.DocumentSymbolParams) ([]protocol.DocumentSymbol, error) {
	conv, an, err := fileAnalysis(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return convertSymbols(conv, an.Symbols()), nil
}

func convertSymbols(conv Converter, syms []features.Symbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(syms))
	for _, sym := range syms {
		ds := protocol.DocumentSymbol{
			Name:           sym.Name,
			Detail:         sym.Detail,
			Kind:           symbolKind(sym.Kind),
			Deprecated:     sym.Dismissed,
			Range:          conv.Range(sym.Range),
			SelectionRange: conv.Range(sym.Selection),
		}
		if len(sym.Children) > 0 {
			ds.Children = convertSymbols(conv, sym.Children)
		}
		out = append(out, ds)
	}
	return out
}
