package lsp

import (
	"fmt"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/transport"
)

func TestNegotiateEncoding(t *testing.T) {
	tests := []struct {
		offered []string
		want    exchange.Encoding
	}{
		{nil, exchange.UTF16},
		{[]string{"utf-16"}, exchange.UTF16},
		{[]string{"utf-8"}, exchange.UTF8},
		{[]string{"utf-16", "utf-8"}, exchange.UTF8},
		{[]string{"utf-32"}, exchange.UTF32},
		{[]string{"utf-32", "utf-16"}, exchange.UTF32},
		{[]string{"utf-16", "utf-32"}, exchange.UTF16},
		{[]string{"utf-32", "utf-8"}, exchange.UTF8},
		{[]string{"latin-1", "utf-32"}, exchange.UTF32},
		{[]string{"latin-1"}, exchange.UTF16},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.offered), func(t *testing.T) {
			if got := negotiateEncoding(tt.offered); got != tt.want {
				t.Errorf("negotiateEncoding(%q) = %s, want %s", tt.offered, got, tt.want)
			}
		})
	}
}

// TestDebounceZeroIsZero: Options{} means no wait, not a hidden default;
// the command asks for DefaultDebounce itself.
func TestDebounceZeroIsZero(t *testing.T) {
	if got := NewServer(Options{}).opts.Debounce; got != 0 {
		t.Errorf("NewServer(Options{}) debounce: got %s, want 0", got)
	}
	if got := NewServer(Options{Debounce: DefaultDebounce}).opts.Debounce; got != DefaultDebounce {
		t.Errorf("NewServer(Options{Debounce: DefaultDebounce}) debounce: got %s, want %s", got, DefaultDebounce)
	}
}

// TestTooLargeCanBeSilenced: too-large is in the silenceable codes of the
// editors' settings, so diagnostics.disabled hides it like any other code.
// (TestOversizedDidOpenIsDiagnosed drives the limit itself over the wire.)
func TestTooLargeCanBeSilenced(t *testing.T) {
	for _, tt := range []struct {
		name     string
		disabled []string
		want     int
	}{{"shown", nil, 1}, {"silenced", []string{features.CodeTooLarge}, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, Options{})
			c.initialize()
			c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{"diagnostics": map[string]any{"disabled": tt.disabled}}}})
			uri := protocol.DocumentURI("file:///tmp/big.review.json")
			// A round trip: the server has handled the settings before it answers.
			c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
			c.srv.dropped(transport.Dropped{Method: "textDocument/didOpen", URI: string(uri), Reason: "over the limit"})
			if got := c.waitDiagnostics(uri, 0); len(got) != tt.want {
				t.Errorf("got %d diagnostics %v, want %d", len(got), got, tt.want)
			}
		})
	}
}
