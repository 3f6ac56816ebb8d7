package lsp

import (
	"slices"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// clientCaps are the client's capabilities that shape replies: what a
// client did not declare it is not sent.
type clientCaps struct {
	// actionLiterals: code actions as CodeAction literals; without it,
	// as Commands (CommandApplyEdit), when the client applies edits.
	actionLiterals, applyEdit bool
	// lensRefresh: the client takes workspace/codeLens/refresh, sent
	// when a working tree's code graph is ready (the cohort lenses).
	lensRefresh bool
	// hoverMarkdown, docMarkdown: hovers and completion documentation in
	// Markdown; without, plain text.
	hoverMarkdown, docMarkdown bool
	// hierarchical: the outline as DocumentSymbol[]; without it,
	// SymbolInformation[]. symbolTags: dismissed comments tagged
	// deprecated (tags replace the deprecated flag).
	hierarchical, symbolTags bool
	// unnecessary: diagnostics tagged Unnecessary, the greying out of
	// dismissed comments; related: their related information.
	unnecessary, related bool
	// preferred: code actions flagged isPreferred; preselect: completion
	// items flagged preselect; asIs: completion items inserted as is
	// (insertTextMode).
	preferred, preselect, asIs bool
	// snippets: completions in snippet syntax; without, plain text,
	// which every client inserts correctly. showDocument: the client
	// answers window/showDocument, which the lenses' command
	// (CommandShow) uses to move its cursor.
	snippets, showDocument bool
	// symbolKinds, completionKinds: the kinds the client takes past the
	// protocol's initial ones (File to Array, Text to Reference).
	symbolKinds     []protocol.SymbolKind
	completionKinds []protocol.CompletionItemKind
}

// published are the diagnostics to publish, the hints that grey out
// dismissed comments first: those only to a client that takes the
// Unnecessary tag (to any other they would be noise, a hint per dismissed
// comment), related information only to one that takes it. ds is not
// changed.
func (c clientCaps) published(hints, ds []exchange.Diagnostic) []exchange.Diagnostic {
	if !c.unnecessary {
		hints = nil
	}
	out := append(slices.Clip(hints), ds...)
	if !c.related {
		for i := range out {
			out[i].Related = nil
		}
	}
	return out
}

func (p *initializeParams) clientCaps() clientCaps {
	td := &p.Capabilities.TextDocument
	literals := td.CodeAction.CodeActionLiteralSupport
	return clientCaps{
		actionLiterals:  len(literals) > 0 && string(literals) != "null",
		applyEdit:       p.Capabilities.Workspace.ApplyEdit,
		lensRefresh:     p.Capabilities.Workspace.CodeLens.RefreshSupport,
		hoverMarkdown:   slices.Contains(td.Hover.ContentFormat, string(protocol.Markdown)),
		docMarkdown:     slices.Contains(td.Completion.CompletionItem.DocumentationFormat, string(protocol.Markdown)),
		hierarchical:    td.DocumentSymbol.Hierarchical,
		symbolTags:      slices.Contains(td.DocumentSymbol.TagSupport.ValueSet, protocol.SymbolTagDeprecated),
		unnecessary:     slices.Contains(td.PublishDiagnostics.TagSupport.ValueSet, protocol.DiagnosticTagUnnecessary),
		related:         td.PublishDiagnostics.RelatedInformation,
		preferred:       td.CodeAction.IsPreferredSupport,
		preselect:       td.Completion.CompletionItem.PreselectSupport,
		asIs:            slices.Contains(td.Completion.CompletionItem.InsertTextModeSupport.ValueSet, protocol.InsertTextModeAsIs),
		symbolKinds:     td.DocumentSymbol.SymbolKind.ValueSet,
		completionKinds: td.Completion.CompletionItemKind.ValueSet,
		snippets:        td.Completion.CompletionItem.SnippetSupport,
		showDocument:    p.showsDocuments(),
	}
}

// clientCaps returns the capabilities read at initialize.
func (s *Server) clientCaps() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// encoding is the position encoding initialize settled.
func (s *Server) encoding() exchange.Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

// symbolKind is k, or, for a client that does not take k (past the
// initial kinds and not in its valueSet), String: the kind a comment's
// text has among those every client takes.
func (c clientCaps) symbolKind(k protocol.SymbolKind) protocol.SymbolKind {
	if k <= protocol.SymbolKindArray || slices.Contains(c.symbolKinds, k) {
		return k
	}
	return protocol.SymbolKindString
}

// completionKind is k, or, for a client that does not take k, Value: an
// enumerated value is a value to every client.
func (c clientCaps) completionKind(k protocol.CompletionItemKind) protocol.CompletionItemKind {
	if k <= protocol.CompletionItemKindReference || slices.Contains(c.completionKinds, k) {
		return k
	}
	return protocol.CompletionItemKindValue
}
