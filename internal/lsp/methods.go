package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/transport"
)

// methods returns the dispatch tables, built for each server from this
// one list of every method it handles: what the server answers is read
// here, and initialize advertises the capabilities of the same methods
// (TestCapabilitiesHaveHandlers holds the two together).
func methods() (map[string]requestFunc, map[string]notificationFunc) {
	requests := map[string]requestFunc{
		"initialize":                             request(initialize),
		"shutdown":                               shutdown,
		"textDocument/codeAction":                request(codeAction),
		"textDocument/codeLens":                  request(codeLenses),
		"textDocument/completion":                request(completion),
		"textDocument/definition":                request(definition),
		"textDocument/documentSymbol":            request(documentSymbols),
		"textDocument/foldingRange":              request(foldingRanges),
		"textDocument/formatting":                request(formatting),
		"textDocument/hover":                     request(hover),
		"textDocument/implementation":            request(implementation),
		"textDocument/documentLink":              request(documentLinks),
		"textDocument/inlayHint":                 request(inlayHints),
		"textDocument/references":                request(references),
		"textDocument/semanticTokens/full":       request(semanticTokensFull),
		"textDocument/semanticTokens/full/delta": request(semanticTokensDelta),
		"textDocument/semanticTokens/range":      request(semanticTokensRange),
		"workspace/executeCommand":               request(executeCommand),
	}
	notifications := map[string]notificationFunc{
		"initialized":                      notification(func(context.Context, *Server, *struct{}) error { return nil }),
		"$/cancelRequest":                  notification(cancelRequest),
		"textDocument/didOpen":             textNotification(transport.DecodeOpenParams, didOpen),
		"textDocument/didChange":           textNotification(transport.DecodeChangeParams, didChange),
		"textDocument/didClose":            notification(didClose),
		"textDocument/didSave":             notification(didSave),
		"workspace/didChangeConfiguration": notification(didChangeConfiguration),
		"workspace/didChangeWatchedFiles":  notification(didChangeWatchedFiles),
	}
	return requests, notifications
}
