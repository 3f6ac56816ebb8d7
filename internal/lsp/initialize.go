package lsp

import (
	"context"
	"encoding/json"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// initializeParams reads only what the server uses. The protocol library's
// InitializeParams predates LSP 3.17 (no positionEncodings) and rejects
// some real clients' capability shapes, so the server decodes its own.
type initializeParams struct {
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	ClientInfo            clientInfo      `json:"clientInfo"`
	workspaceParams
	Capabilities struct {
		Workspace workspaceCapabilities `json:"workspace"`
		General   struct {
			PositionEncodings []string `json:"positionEncodings"`
		} `json:"general"`
		Window struct {
			ShowDocument struct {
				Support bool `json:"support"`
			} `json:"showDocument"`
		} `json:"window"`
		TextDocument struct {
			Completion struct {
				CompletionItem struct {
					SnippetSupport        bool     `json:"snippetSupport"`
					DocumentationFormat   []string `json:"documentationFormat"`
					PreselectSupport      bool     `json:"preselectSupport"`
					InsertTextModeSupport struct {
						ValueSet []protocol.InsertTextMode `json:"valueSet"`
					} `json:"insertTextModeSupport"`
				} `json:"completionItem"`
				CompletionItemKind struct {
					ValueSet []protocol.CompletionItemKind `json:"valueSet"`
				} `json:"completionItemKind"`
			} `json:"completion"`
			Hover struct {
				ContentFormat []string `json:"contentFormat"`
			} `json:"hover"`
			CodeAction struct {
				CodeActionLiteralSupport json.RawMessage `json:"codeActionLiteralSupport"`
				IsPreferredSupport       bool            `json:"isPreferredSupport"`
			} `json:"codeAction"`
			PublishDiagnostics struct {
				RelatedInformation bool `json:"relatedInformation"`
				TagSupport         struct {
					ValueSet []protocol.DiagnosticTag `json:"valueSet"`
				} `json:"tagSupport"`
			} `json:"publishDiagnostics"`
			DocumentSymbol struct {
				Hierarchical bool `json:"hierarchicalDocumentSymbolSupport"`
				TagSupport   struct {
					ValueSet []protocol.SymbolTag `json:"valueSet"`
				} `json:"tagSupport"`
				SymbolKind struct {
					ValueSet []protocol.SymbolKind `json:"valueSet"`
				} `json:"symbolKind"`
			} `json:"documentSymbol"`
		} `json:"textDocument"`
	} `json:"capabilities"`
}

// Capabilities is ServerCapabilities with the LSP 3.17 members the
// protocol library lacks.
type Capabilities struct {
	protocol.ServerCapabilities
	PositionEncoding  string `json:"positionEncoding,omitempty"`
	InlayHintProvider bool   `json:"inlayHintProvider,omitempty"`
}

type initializeResult struct {
	Capabilities Capabilities         `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// TokenTypes is the semantic-token legend of diagnostics.md; editors map
// the same names to colours, so the order is public.
var TokenTypes = []string{"diffHeader", "diffHunk", "diffAdded", "diffRemoved", "diffContext", "diffNoNewline"}

// CodeActionKindFixAll is source.fixAll scoped to this server.
const CodeActionKindFixAll protocol.CodeActionKind = "source.fixAll.lreview"

// ServerCapabilities is what the server offers a client that negotiated
// enc, and that can (canShow) or cannot show a document for lreview.show.
func ServerCapabilities(enc exchange.Encoding, canShow bool) Capabilities {
	commands := []string{CommandApplyEdit, CommandApplySuggestion, CommandNextComment, CommandPreviousComment, CommandEditBody, CommandSetBody, CommandOpenBody, CommandMarkCohort, CommandNextCohort, CommandThreads, CommandReply}
	if canShow {
		commands = append([]string{CommandShow, CommandShowBody}, commands...)
	}
	return Capabilities{
		ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				// didSave: a file saved tells a client that watches no
				// files for the server (modify.go) at once.
				Save: &protocol.SaveOptions{},
			},
			HoverProvider:          true,
			DefinitionProvider:     true,
			ImplementationProvider: true,
			DocumentLinkProvider:   &protocol.DocumentLinkOptions{},
			ReferencesProvider:     true,
			CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{"\"", ":", " "}},
			CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{
				protocol.QuickFix, protocol.RefactorRewrite, "source.fixAll", CodeActionKindFixAll, protocol.Source,
			}},
			DocumentSymbolProvider:     true,
			FoldingRangeProvider:       true,
			CodeLensProvider:           &protocol.CodeLensOptions{},
			ExecuteCommandProvider:     &protocol.ExecuteCommandOptions{Commands: commands},
			DocumentFormattingProvider: true,
			SemanticTokensProvider: map[string]any{
				"legend": protocol.SemanticTokensLegend{
					TokenTypes:     semanticTokenTypes(),
					TokenModifiers: []protocol.SemanticTokenModifiers{},
				},
				"full":  map[string]any{"delta": true},
				"range": true,
			},
		},
		PositionEncoding:  enc.String(),
		InlayHintProvider: true,
	}
}

func semanticTokenTypes() []protocol.SemanticTokenTypes {
	out := make([]protocol.SemanticTokenTypes, len(TokenTypes))
	for i, t := range TokenTypes {
		out[i] = protocol.SemanticTokenTypes(t)
	}
	return out
}

// negotiateEncoding picks the position encoding from the client's offer
// (LSP 3.17, general.positionEncodings, in the client's order of
// preference). UTF-8 wins wherever it is listed: the mapper then needs no
// conversion at all, the cheapest for both sides. Otherwise the first of
// utf-16 and utf-32 the client lists; UTF-16, which every client must
// support, when it lists neither.
func negotiateEncoding(offered []string) exchange.Encoding {
	if slices.Contains(offered, "utf-8") {
		return exchange.UTF8
	}
	for _, o := range offered {
		switch o {
		case "utf-16":
			return exchange.UTF16
		case "utf-32":
			return exchange.UTF32
		}
	}
	return exchange.UTF16
}

func initialize(ctx context.Context, v *requestView, p *initializeParams) (*initializeResult, error) {
	enc := negotiateEncoding(p.Capabilities.General.PositionEncodings)
	v.mu.Lock()
	v.enc = enc
	v.bodies.offer.Store(p.ClientInfo.Name == "helix") // no way of its own to open a body
	v.client = p.clientCaps()
	v.settings = parseSettings(p.InitializationOptions, v.settings)
	v.state = stateInitialized
	v.mu.Unlock()
	v.initWorktree(p.workspaceParams, p.Capabilities.Workspace)
	v.applyScopeSettings()
	v.spawn(clearStaleBodyDirs) // what a killed server left
	return &initializeResult{
		Capabilities: ServerCapabilities(enc, p.showsDocuments()),
		ServerInfo:   &protocol.ServerInfo{Name: "lreview-lsp", Version: v.opts.Version},
	}, nil
}
