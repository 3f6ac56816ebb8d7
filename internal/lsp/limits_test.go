package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestInlayHintsOnlyInTheRange asks for the hints of 50 lines of the 8 MB
// generated review: the answer holds those lines' hints, not the 100,000
// of the whole patch.
func TestInlayHintsOnlyInTheRange(t *testing.T) {
	if testing.Short() {
		t.Skip("generates an 8 MB review")
	}
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/big.review.json")
	c.open(uri, string(generatedReview()))
	rng := protocol.Range{Start: protocol.Position{Line: 1000}, End: protocol.Position{Line: 1050}}
	var hints []inlayHint
	c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rng}, &hints)
	if len(hints) == 0 || len(hints) > 51 {
		t.Fatalf("got %d hints for 50 lines, want one per patch line in the range", len(hints))
	}
	for _, h := range hints {
		if h.Position.Line < rng.Start.Line || h.Position.Line > rng.End.Line {
			t.Errorf("got a hint at line %d, outside the range %d-%d", h.Position.Line, rng.Start.Line, rng.End.Line)
		}
	}
}
