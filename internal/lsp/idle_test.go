package lsp

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

func TestEnoughGarbage(t *testing.T) {
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
		if got := enoughGarbage(heapSizes{live: tc.live, objects: tc.objects}, minIdleGarbage); got != tc.want {
			t.Errorf("enoughGarbage(live %d MB, objects %d MB) = %v, want %v", tc.live/mb, tc.objects/mb, got, tc.want)
		}
	}
}

func TestDueDuring(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		objects, allocs uint64
		want            bool
	}{
		// Live 32 MB, goal 64: the runtime may start at 54.5 MB.
		{objects: 32 * mb, allocs: 16 * mb, want: false}, // right after a collection
		{objects: 45 * mb, allocs: 16 * mb, want: true},  // a keystroke's garbage later
		{objects: 38 * mb, allocs: 16 * mb, want: false},
		{objects: 60 * mb, allocs: 0, want: true}, // past the trigger already
	} {
		h := heapSizes{live: 32 * mb, objects: tc.objects, goal: 64 * mb}
		if got := dueDuring(h, tc.allocs); got != tc.want {
			t.Errorf("dueDuring(live 32 MB, goal 64, objects %d, allocs %d) = %v, want %v", tc.objects/mb, tc.allocs/mb, got, tc.want)
		}
	}
	if !dueDuring(heapSizes{live: 10 * mb, objects: 10 * mb, goal: 10 * mb}, 0) {
		t.Error("dueDuring with the goal at the live heap = false, want true")
	}
}

// TestCollectInAPause: once a publish is followed by no edit, the server
// collects (the threshold is lifted for the small example), and an edit
// after the publish calls the pause off.
func TestCollectInAPause(t *testing.T) {
	collected := make(chan struct{}, 10)
	c := newTestClient(t, Options{
		gcWorth:   func(why gcCause, _ heapSizes) bool { return why == inAPause },
		collected: func(gcCause) { collected <- struct{}{} },
	})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/idle.review.json")
	c.open(uri, exampleReview)
	c.waitDiagnostics(uri, 1)
	awaitEvent(t, collected, "a collection in the pause after the publish")
	c.srv.mu.Lock()
	gen := c.srv.activity
	c.srv.mu.Unlock()
	c.change(uri, 2, &protocol.Range{}, " ")
	c.waitDiagnostics(uri, 2)
	if c.srv.collectIfIdle(gen) {
		t.Error("collected for a pause that an edit ended")
	}
}

// copyCollections records, for TestCollectBeforeCopy, each time the
// server asks whether a collection before a copy is worth it, and the
// version of the document uri each such collection saw.
type copyCollections struct {
	srv *Server
	uri protocol.DocumentURI

	mu       sync.Mutex
	worth    bool
	asked    int
	versions []int32
}

func (r *copyCollections) gcWorth(why gcCause, _ heapSizes) bool {
	if why != beforeCopy {
		return false // no collection in a pause: it would be counted too
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked++
	return r.worth
}

// collected reads uri's version (0 when it is not open) under s.mu,
// which the server must not hold while it collects: after a second it
// gives up and records -1.
func (r *copyCollections) collected(why gcCause) {
	if why != beforeCopy {
		return
	}
	version := int32(-1)
	for range 1000 {
		if r.srv.mu.TryLock() {
			version = 0
			if f := r.srv.files[r.uri]; f != nil {
				version = f.latest.version
			}
			r.srv.mu.Unlock()
			break
		}
		time.Sleep(time.Millisecond)
	}
	r.mu.Lock()
	r.versions = append(r.versions, version)
	r.mu.Unlock()
}

// reset sets whether collections are worth it, and returns how many
// times the server asked and the versions collections saw since the
// last reset.
func (r *copyCollections) reset(worth bool) (asked int, versions []int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	asked, versions = r.asked, r.versions
	r.worth, r.asked, r.versions = worth, 0, nil
	return asked, versions
}

// TestCollectBeforeCopy: an edit of a small document, one that sends the
// whole text, or one when the garbage is not worth it does not collect;
// then an edit by range of a large document, worth it, collects before
// its new text is made and outside the lock.
func TestCollectBeforeCopy(t *testing.T) {
	// The example, made large with the spaces JSON allows after it.
	large := exampleReview + strings.Repeat(" ", minCopyText)
	for _, tc := range []struct {
		name      string
		text      string // of the document edited first
		worth     bool
		whole     bool // the first edit sends the whole text, not a range
		wantAsked bool
	}{
		{name: "not worth it", text: large, worth: false, wantAsked: true},
		{name: "small", text: exampleReview, worth: true},
		{name: "whole text", text: large, worth: true, whole: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := protocol.DocumentURI("file:///tmp/first.review.json")
			rec := &copyCollections{uri: "file:///tmp/copy.review.json"}
			c := newTestClient(t, Options{gcWorth: rec.gcWorth, collected: rec.collected})
			rec.srv = c.srv
			c.initialize()
			c.open(first, tc.text)
			c.waitDiagnostics(first, 1)
			rec.reset(tc.worth)
			if tc.whole {
				c.change(first, 2, nil, tc.text)
			} else {
				c.change(first, 2, &protocol.Range{}, " ")
			}
			c.waitDiagnostics(first, 2)
			asked, versions := rec.reset(true)
			if asked > 0 != tc.wantAsked || len(versions) > 0 {
				t.Errorf("first edit: asked %d times, collected %d times, want asked: %v, collected: never", asked, len(versions), tc.wantAsked)
			}

			c.open(rec.uri, large)
			c.waitDiagnostics(rec.uri, 1)
			c.change(rec.uri, 2, &protocol.Range{}, " ")
			c.waitDiagnostics(rec.uri, 2)
			if _, versions := rec.reset(true); !slices.Equal(versions, []int32{1}) {
				t.Errorf("an edit of a large document: collections saw versions %v, want [1] (-1: under the lock)", versions)
			}
		})
	}
}

// TestEditWaitsForACollectionInAPause: an edit of a large document that
// comes while a collection in a pause runs reads the heap, to decide
// whether to collect before its copy, only once that collection ended.
func TestEditWaitsForACollectionInAPause(t *testing.T) {
	var (
		mu                  sync.Mutex
		pausing, askedAfter bool
		askedDuring         int
		first               atomic.Bool
	)
	started, release := make(chan struct{}), make(chan struct{})
	free := sync.OnceFunc(func() { close(release) })
	c := newTestClient(t, Options{
		gcWorth: func(why gcCause, _ heapSizes) bool {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case why == inAPause:
				return true
			case pausing:
				askedDuring++
			default:
				askedAfter = true
			}
			return false
		},
		// The first collection in a pause lasts until the test frees it.
		collected: func(why gcCause) {
			if why != inAPause || !first.CompareAndSwap(false, true) {
				return
			}
			mu.Lock()
			pausing = true
			mu.Unlock()
			close(started)
			<-release
			mu.Lock()
			pausing = false
			mu.Unlock()
		},
	})
	t.Cleanup(free) // before the client's: the server waits for the hook
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/waits.review.json")
	openLarge(c, uri)
	awaitEvent(t, started, "a collection in the pause after the publish")
	c.change(uri, 2, &protocol.Range{}, " ")
	time.Sleep(50 * time.Millisecond) // time for the edit to ask, were it not waiting
	free()
	c.waitDiagnostics(uri, 2)
	mu.Lock()
	defer mu.Unlock()
	if askedDuring > 0 || !askedAfter {
		t.Errorf("the edit asked whether to collect %d times during the collection in a pause, and after it: %v; want 0 and true", askedDuring, askedAfter)
	}
}

// TestNoCollectionInAPauseOnceAnEditCame: a collection in a pause that
// was decided before an edit came does not run once the edit did (it
// would mark the text being replaced and its copy), and the edit counts
// as activity before it decides whether to collect before its copy.
func TestNoCollectionInAPauseOnceAnEditCame(t *testing.T) {
	var (
		mu        sync.Mutex
		gen       uint64
		srv       *Server
		movedOn   = true
		inPause   int
		collected = make(chan gcCause, 10)
	)
	c := newTestClient(t, Options{
		gcWorth: func(why gcCause, _ heapSizes) bool {
			mu.Lock()
			defer mu.Unlock()
			if why == beforeCopy {
				srv.mu.Lock()
				movedOn = movedOn && srv.activity != gen
				srv.mu.Unlock()
				return false
			}
			inPause++
			return true
		},
		collected: func(why gcCause) { collected <- why },
	})
	srv = c.srv
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/stale.review.json")
	openLarge(c, uri)
	awaitEvent(t, collected, "a collection in the pause after the publish")
	mu.Lock()
	srv.mu.Lock()
	gen = srv.activity
	srv.mu.Unlock()
	mu.Unlock()
	c.change(uri, 2, &protocol.Range{}, " ")
	c.waitDiagnostics(uri, 2)
	if srv.collectInPause(gen) {
		t.Error("a collection in a pause decided before the edit ran after it")
	}
	mu.Lock()
	defer mu.Unlock()
	if !movedOn {
		t.Error("the edit decided whether to collect before its copy while the activity was still that of the pause before it")
	}
}

// TestPauseCountsFromThePublishDecided: an edit that comes while a
// publish is being written (the client reads its head and types on)
// ends the pause, although the write ends after it: no collection in a
// pause runs while that edit's analysis waits out its debounce.
func TestPauseCountsFromThePublishDecided(t *testing.T) {
	uri := protocol.DocumentURI("file:///tmp/decided.review.json")
	var (
		mu      sync.Mutex
		srv     *Server
		pending []int32 // the versions unanalysed at a collection in a pause
	)
	c := newTestClient(t, Options{
		Debounce: 200 * time.Millisecond,
		gcWorth:  func(why gcCause, _ heapSizes) bool { return why == inAPause },
		// Under gcMu: no edit can make a new version while this reads.
		collected: func(gcCause) {
			srv.mu.Lock()
			latest := srv.files[uri].latest
			srv.mu.Unlock()
			if latest.analyzed() == nil {
				mu.Lock()
				pending = append(pending, latest.version)
				mu.Unlock()
			}
		},
	})
	srv = c.srv
	c.initialize()
	c.open(uri, exampleReview)
	c.waitDiagnostics(uri, 1)
	gate, stalledAt := make(chan struct{}), make(chan int32, 1)
	c.mu.Lock()
	c.stall, c.stalledAt = gate, stalledAt // the client stops reading after version 2's publish
	c.mu.Unlock()
	c.change(uri, 2, &protocol.Range{}, " ")
	if v := <-stalledAt; v != 2 {
		t.Fatalf("the client stalled at version %d's publish, want 2", v)
	}
	c.change(uri, 3, &protocol.Range{}, " ")
	// Version 3's publish is written to a client that does not read: the
	// writer holds pubMu until the client reads again.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if c.latestSnapshot(uri, 3).analyzed() != nil {
			if !srv.pubMu.TryLock() {
				break
			}
			srv.pubMu.Unlock()
		}
		if time.Now().After(deadline) {
			t.Fatal("version 3's publish was not written")
		}
		time.Sleep(time.Millisecond)
	}
	c.change(uri, 4, &protocol.Range{}, " ")
	c.latestSnapshot(uri, 4)
	close(gate)
	c.waitDiagnostics(uri, 4)
	mu.Lock()
	defer mu.Unlock()
	if len(pending) > 0 {
		t.Errorf("collections in a pause ran while versions %v waited for their analysis", pending)
	}
}

// openLarge opens the example made large enough to collect before its
// copies (with the spaces JSON allows after it), and waits for its
// diagnostics.
func openLarge(c *testClient, uri protocol.DocumentURI) {
	c.open(uri, exampleReview+strings.Repeat(" ", minCopyText))
	c.waitDiagnostics(uri, 1)
}

// awaitEvent waits for what to come on ch, and fails the test after a
// minute without it.
func awaitEvent[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(60 * time.Second):
		t.Fatalf("no %s", what)
	}
	var none T
	return none
}
