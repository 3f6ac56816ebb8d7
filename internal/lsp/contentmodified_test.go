package lsp

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestBurstRequestsGetResults: hovers, completions, the outline, folds and
// tokens asked while a person types fast are answered, from the version
// they were asked on or a later one, never with ContentModified: a result
// computed on an older state is still useful to the client, the protocol
// says.
func TestBurstRequestsGetResults(t *testing.T) {
	for _, debounce := range []struct {
		name string
		opts Options
	}{{"debounced", Options{}}, {"analyzed at once", Options{Debounce: -1}}} {
		t.Run(debounce.name, func(t *testing.T) {
			c := newTestClient(t, debounce.opts)
			c.initialize()
			uri := protocol.DocumentURI("file:///work/burst.review.json")
			c.open(uri, exampleReview)
			c.waitDiagnostics(uri, 1)
			errs := sweepBurst(t, c, uri, exampleReview, exchange.UTF16)
			if n := errs[int64(protocol.CodeContentModified)]; n > 0 {
				t.Errorf("got %d ContentModified replies of %d requests during the burst, want none", n, 5*len(burstText))
			}
			for code, n := range errs {
				if code != int64(protocol.CodeContentModified) {
					t.Errorf("got %d errors %d during the burst, want none", n, code)
				}
			}
		})
	}
}
