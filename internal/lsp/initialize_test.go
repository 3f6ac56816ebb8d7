package lsp

import (
	"fmt"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
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
