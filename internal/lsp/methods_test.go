package lsp

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"
)

// capabilityMethods maps each server capability to the methods a client
// sends because the server advertised it.
var capabilityMethods = map[string][]string{
	"textDocumentSync":           {"textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave"},
	"hoverProvider":              {"textDocument/hover"},
	"definitionProvider":         {"textDocument/definition"},
	"implementationProvider":     {"textDocument/implementation"},
	"documentLinkProvider":       {"textDocument/documentLink"},
	"referencesProvider":         {"textDocument/references"},
	"completionProvider":         {"textDocument/completion"},
	"codeActionProvider":         {"textDocument/codeAction"},
	"documentSymbolProvider":     {"textDocument/documentSymbol"},
	"foldingRangeProvider":       {"textDocument/foldingRange"},
	"codeLensProvider":           {"textDocument/codeLens"},
	"documentFormattingProvider": {"textDocument/formatting"},
	"semanticTokensProvider":     {"textDocument/semanticTokens/full", "textDocument/semanticTokens/full/delta", "textDocument/semanticTokens/range"},
	"inlayHintProvider":          {"textDocument/inlayHint"},
	"executeCommandProvider":     {"workspace/executeCommand"},
	"positionEncoding":           nil,
}

// lifecycleMethods are handled whatever the capabilities.
var lifecycleMethods = []string{"initialize", "initialized", "shutdown", "$/cancelRequest", "workspace/didChangeConfiguration",
	// registered dynamically, when the client can (worktree.go)
	"workspace/didChangeWatchedFiles"}

// TestCapabilitiesHaveHandlers: every capability initialize advertises
// has its methods in the server's table, and every method in the table is
// either advertised or part of the lifecycle; test-only methods are not
// in a production server's table.
func TestCapabilitiesHaveHandlers(t *testing.T) {
	c := newTestClient(t, Options{})
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	c.mustCall("initialize", map[string]any{"capabilities": map[string]any{}}, &res)
	srv := NewServer(Options{})
	handled := map[string]bool{}
	for m := range srv.requests {
		handled[m] = true
	}
	for m := range srv.notifications {
		handled[m] = true
	}
	want := map[string]bool{}
	for capability, raw := range res.Capabilities {
		methods, known := capabilityMethods[capability]
		if !known {
			t.Errorf("initialize advertises %s, which this test does not know: add its methods to capabilityMethods", capability)
		}
		if string(raw) == "false" || string(raw) == "null" {
			continue
		}
		for _, m := range methods {
			want[m] = true
			if !handled[m] {
				t.Errorf("initialize advertises %s, but %s has no handler", capability, m)
			}
		}
	}
	var extra []string
	for m := range handled {
		if !want[m] && !slices.Contains(lifecycleMethods, m) {
			extra = append(extra, m)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("got handlers for %v, which initialize does not advertise", extra)
	}
}
