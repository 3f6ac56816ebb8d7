package lsp

import (
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

func TestWorthCollecting(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, objects uint64
		want          bool
	}{
		{live: 40 * mb, objects: 64 * mb, want: true},    // 24 MB of garbage, over a quarter
		{live: 20 * mb, objects: 27 * mb, want: false},   // 7 MB: under the minimum
		{live: 200 * mb, objects: 230 * mb, want: false}, // 30 MB, but under a quarter
		{live: 2 * mb, objects: 3 * mb, want: false},     // a small review
		{live: 10 * mb, objects: 9 * mb, want: false},    // objects read after a collection
	} {
		if got := worthCollecting(heapSizes{live: tc.live, objects: tc.objects}, minIdleGarbage); got != tc.want {
			t.Errorf("worthCollecting(live %d MB, objects %d MB) = %v, want %v", tc.live/mb, tc.objects/mb, got, tc.want)
		}
	}
}

// TestCollectInAPause: once a publish is followed by no edit, the server
// collects (the threshold is lifted for the small example), and an edit
// after the publish calls the pause off.
func TestCollectInAPause(t *testing.T) {
	collected := make(chan struct{}, 10)
	c := newTestClient(t, Options{idleWorth: func(heapSizes) bool { return true }, collected: func() { collected <- struct{}{} }})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/idle.review.json")
	c.open(uri, exampleReview)
	c.waitDiagnostics(uri, 1)
	select {
	case <-collected:
	case <-time.After(60 * time.Second):
		t.Fatal("no collection in the pause after the publish")
	}
	c.srv.mu.Lock()
	gen := c.srv.activity
	c.srv.mu.Unlock()
	c.change(uri, 2, &protocol.Range{}, " ")
	c.waitDiagnostics(uri, 2)
	if c.srv.collectIfIdle(gen) {
		t.Error("collected for a pause that an edit ended")
	}
}
