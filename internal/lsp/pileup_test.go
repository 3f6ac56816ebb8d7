package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
)

// gatedAnalysis is an analysis that starts, says so, and waits for the
// test's go-ahead (or its cancellation) before doing the real work: the
// window in which newer versions pile up.
type gatedAnalysis struct {
	started   chan int // the version (read from the text) that started
	release   chan struct{}
	mu        sync.Mutex
	completed []int
	// prevOf maps a completed version to the version its analysis
	// started from (0: none).
	prevOf  map[int]int
	running atomic.Int32
	// wrongChanges are changes the history told an analysis that said
	// more than the texts allow.
	wrongChanges []string
}

func newGatedAnalysis(t *testing.T) *gatedAnalysis {
	g := &gatedAnalysis{started: make(chan int, 100), release: make(chan struct{}), prevOf: map[int]int{}}
	t.Cleanup(func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		for _, w := range g.wrongChanges {
			t.Errorf("an analysis was %s", w)
		}
	})
	return g
}

// versioned is exampleReview with its version written in a comment body,
// so that the analysis can tell the versions apart.
func versioned(v int) string {
	return strings.Replace(exampleReview, `"body": "`, `"body": "v`+strconv.Itoa(v)+` `, 1)
}

func versionIn(text []byte) int {
	i := bytes.Index(text, []byte(`"body": "v`))
	if i < 0 {
		return 0
	}
	rest := text[i+len(`"body": "v`):]
	n, _ := strconv.Atoi(string(rest[:bytes.IndexByte(rest, ' ')]))
	return n
}

func (g *gatedAnalysis) analyze(ctx context.Context, text exchange.Text, m *exchange.Mapper, prev *anchor.Analysis, ch *exchange.Change) (*anchor.Analysis, error) {
	if prev != nil && ch != nil {
		// The change the history composed over the skipped versions may
		// say less than comparing the texts, never more.
		if real := exchange.ChangeBetween(prev.Doc.Text, text); ch.Prefix > real.Prefix || ch.Suffix > real.Suffix {
			g.mu.Lock()
			g.wrongChanges = append(g.wrongChanges, fmt.Sprintf("told %+v, texts differ by %+v", *ch, real))
			g.mu.Unlock()
		}
	}
	g.running.Add(1)
	defer g.running.Add(-1)
	v := versionIn(text.Bytes())
	g.started <- v
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-g.release:
	}
	an, err := reviewfile.Analyze(ctx, text, m, prev, ch)
	if err == nil {
		g.mu.Lock()
		g.completed = append(g.completed, v)
		if prev != nil {
			g.prevOf[v] = versionIn(prev.Doc.Text.Bytes())
		}
		g.mu.Unlock()
	}
	return an, err
}

func (g *gatedAnalysis) waitStart(t *testing.T, want int) {
	t.Helper()
	select {
	case v := <-g.started:
		if v != want {
			t.Fatalf("the analysis of version %d started, want %d", v, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the analysis of version %d never started", want)
	}
}

// TestPileUpOnlyTheLatestCompletes edits a document five times while its
// analysis is running: each edit cancels the analysis of the version
// before it, so that only the last one completes and its diagnostics are
// published.
func TestPileUpOnlyTheLatestCompletes(t *testing.T) {
	g := newGatedAnalysis(t)
	c := newTestClient(t, Options{analyze: g.analyze})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/pileup.review.json")
	c.open(uri, versioned(1))
	g.waitStart(t, 1)
	for v := 2; v <= 5; v++ {
		c.change(uri, int32(v), nil, versioned(v))
		g.waitStart(t, v)
	}
	close(g.release)
	c.waitDiagnostics(uri, 5)
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.completed) != 1 || g.completed[0] != 5 {
		t.Errorf("got analyses of versions %v completed, want only version 5's", g.completed)
	}
}

// TestIncrementalThroughTheDebounce sends two edits within one debounce
// after version 1 was analyzed: version 3's analysis must start from
// version 1's, the last one analyzed, not from nothing because version 2,
// the one it was edited from, never was.
func TestIncrementalThroughTheDebounce(t *testing.T) {
	g := newGatedAnalysis(t)
	close(g.release)
	c := newTestClient(t, Options{analyze: g.analyze, Debounce: time.Hour})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/debounce.review.json")
	c.open(uri, versioned(1)) // didOpen is analyzed at once
	c.waitDiagnostics(uri, 1)
	c.change(uri, 2, nil, versioned(2))
	c.change(uri, 3, nil, versioned(3))
	// A request needs version 3 now: the debounce skipped version 2.
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	g.mu.Lock()
	defer g.mu.Unlock()
	if got := g.completed; len(got) != 2 || got[1] != 3 {
		t.Fatalf("got analyses of versions %v, want 1 and 3", got)
	}
	if got := g.prevOf[3]; got != 1 {
		t.Errorf("version 3 was analyzed from version %d, want from version 1", got)
	}
}

// TestRequestIsAnsweredForItsVersion asks about a version whose analysis
// is running when a newer version arrives: the request holds its version,
// so the analysis is finished and the answer is that version's (the
// protocol forbids answering from a state the request was not sent for),
// and the newer version's analysis starts from it rather than beside it.
// Code actions computed for the older version are edits the newer text
// would be corrupted by: ContentModified. Asked again and the document
// closed meanwhile, the request gets ContentModified, as no answer exists.
func TestRequestIsAnsweredForItsVersion(t *testing.T) {
	g := newGatedAnalysis(t)
	c := newTestClient(t, Options{analyze: g.analyze})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/modified.review.json")
	c.open(uri, versioned(1))
	g.waitStart(t, 1)
	type answer struct {
		syms json.RawMessage
		err  error
	}
	waitInflight := func() {
		for inflight := 0; inflight == 0; time.Sleep(time.Millisecond) {
			c.srv.mu.Lock()
			inflight = len(c.srv.inflight)
			c.srv.mu.Unlock()
		}
	}
	// waitVersion waits until the server has taken version in: a change
	// is a notification, which the server may read after a request's
	// analysis is released.
	waitVersion := func(version int32) {
		for latest := int32(0); latest != version; time.Sleep(time.Millisecond) {
			if sn := c.srv.latestSnapshot(uri); sn != nil {
				latest = sn.version
			}
		}
	}
	ask := func() chan answer {
		out := make(chan answer, 1)
		go func() {
			var a answer
			a.err = c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &a.syms)
			out <- a
		}()
		waitInflight() // the request holds version 1: the test goes on
		return out
	}
	first := ask()
	c.change(uri, 2, nil, versioned(2))
	close(g.release)
	if a := <-first; a.err != nil || !strings.Contains(string(a.syms), "v1 ") {
		t.Fatalf("got %s, %v, want version 1's outline", a.syms, a.err)
	}
	g.waitStart(t, 2)
	c.waitDiagnostics(uri, 2)
	g.mu.Lock()
	if got := g.prevOf[2]; got != 1 {
		t.Errorf("version 2 was analyzed from version %d, want from version 1, the one the request finished", got)
	}
	g.mu.Unlock()

	g = newGatedAnalysis(t)
	c = newTestClient(t, Options{analyze: g.analyze})
	c.initialize()
	c.open(uri, versioned(1))
	g.waitStart(t, 1)
	at := navPosition(versioned(1), strings.Index(versioned(1), `"id": "c1"`), exchange.UTF16)
	actions := make(chan error, 1)
	go func() {
		actions <- c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": protocol.Range{Start: at, End: at}, "context": map[string]any{"diagnostics": []any{}}}, nil)
	}()
	waitInflight()
	c.change(uri, 2, nil, versioned(2))
	waitVersion(2) // the actions are computed on version 1 after version 2 came
	close(g.release)
	var e *jsonrpc2.Error
	if err := <-actions; !errors.As(err, &e) || e.Code != -32801 {
		t.Fatalf("code actions of version 1 after version 2 came: got %v, want ContentModified (-32801)", err)
	}
	c.waitDiagnostics(uri, 2)

	closing := newTestClient(t, Options{analyze: newGatedAnalysis(t).analyze})
	closing.initialize()
	closing.open(uri, versioned(1))
	c = closing
	closed := ask()
	c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if a := <-closed; !errors.As(a.err, &e) || e.Code != -32801 {
		t.Fatalf("closed: got %s, %v, want a ContentModified (-32801) error", a.syms, a.err)
	}
}

// TestServeWaitsForAnalyses exits while an analysis runs: Serve returns
// only once the analysis has stopped.
func TestServeWaitsForAnalyses(t *testing.T) {
	g := newGatedAnalysis(t)
	c := newTestClient(t, Options{analyze: g.analyze})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/outlive.review.json")
	c.open(uri, versioned(1))
	g.waitStart(t, 1)
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if n := g.running.Load(); n != 0 {
		t.Errorf("got %d analyses running after Serve returned, want 0", n)
	}
}

// TestNotOpenIsNull asks about a document that is not open: the answer
// is a null result, not an error an editor would show.
func TestNotOpenIsNull(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	for _, m := range []string{"textDocument/documentSymbol", "textDocument/hover", "textDocument/inlayHint", "textDocument/codeLens", "textDocument/foldingRange"} {
		var got json.RawMessage
		params := map[string]any{"textDocument": map[string]any{"uri": "file:///tmp/closed.review.json"}, "position": protocol.Position{}, "range": protocol.Range{}}
		if err := c.call(m, params, &got); err != nil {
			t.Errorf("%s: got error %v, want a null result", m, err)
		} else if len(got) != 0 && string(got) != "null" { // jsonrpc2 reads null as empty
			t.Errorf("%s: got %s, want null", m, got)
		}
	}
}

// TestResultOfAnEditedVersionIsSentUnlessEdits: a request whose answer
// was computed for a version the user has edited since is answered with
// it (the version it was sent for), unless the answer is
// edits of that version's text: those would corrupt the newer text, and
// the answer is ContentModified.
func TestResultOfAnEditedVersionIsSentUnlessEdits(t *testing.T) {
	for _, tc := range []struct {
		method string
		params map[string]any
		edits  bool
	}{
		{"textDocument/documentSymbol", map[string]any{}, false},
		{"textDocument/formatting", map[string]any{"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, true},
	} {
		t.Run(tc.method, func(t *testing.T) {
			computed, release := make(chan struct{}), make(chan struct{})
			requests, _ := methods()
			real := requests[tc.method]
			slow := func(ctx context.Context, v *requestView, raw json.RawMessage) (any, error) {
				res, err := real(ctx, v, raw)
				close(computed)
				<-release
				return res, err
			}
			c := newTestClient(t, Options{testRequests: map[string]requestFunc{tc.method: slow}})
			c.initialize()
			uri := protocol.DocumentURI("file:///tmp/edited.review.json")
			c.open(uri, versioned(1))
			errc := make(chan error, 1)
			go func() {
				params := map[string]any{"textDocument": map[string]any{"uri": uri}}
				for k, v := range tc.params {
					params[k] = v
				}
				errc <- c.call(tc.method, params, nil)
			}()
			<-computed
			c.change(uri, 2, nil, versioned(2))
			c.waitDiagnostics(uri, 2)
			close(release)
			var e *jsonrpc2.Error
			err := <-errc
			switch {
			case tc.edits && (!errors.As(err, &e) || e.Code != -32801):
				t.Fatalf("got %v, want a ContentModified (-32801) error", err)
			case !tc.edits && err != nil:
				t.Fatalf("got %v, want the result", err)
			}
		})
	}
}

// TestPublishesKeepTheirOrder: of two publishes of one file, the one
// decided later wins even when it reaches the wire first (a settings
// change republishes while the previous publish is still converting).
func TestPublishesKeepTheirOrder(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/order.review.json")
	c.open(uri, driftReview("71"))
	c.waitDiagnostics(uri, 1)
	c.srv.mu.Lock()
	f := c.srv.files[uri]
	sn := f.latest
	f.gen += 2
	later, earlier := f.gen, f.gen-1
	c.srv.mu.Unlock()
	an := sn.analyzed()
	c.mu.Lock()
	before := len(c.diagnostics[uri]) // 1: the client keeps the last 8
	c.mu.Unlock()
	c.srv.publish(f, sn, an, later)
	c.srv.publish(f, sn, an, earlier) // decided first, sent last: dropped
	// A publish goes out on whichever goroutine holds pubMu, perhaps not
	// this one: once this one holds it with none waiting, every publish
	// decided above has been written.
	for waiting := true; waiting; {
		c.srv.pubMu.Lock()
		c.srv.mu.Lock()
		waiting = c.srv.outbox[uri] != nil
		c.srv.mu.Unlock()
		c.srv.unlockPub() // sends what waits, here or on its holder
	}
	// A round trip: the client has read whatever the server sent before.
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	c.mu.Lock()
	got := len(c.diagnostics[uri]) - before
	c.mu.Unlock()
	if got != 1 {
		t.Errorf("got %d publishes, want 1: the earlier-decided one must be dropped", got)
	}
}

// TestHistoryComposesTheSkippedChanges: an analysis is told the change
// from the newest completed analysis to its version, over every version
// in between, and nothing once a change is missing.
func TestHistoryComposesTheSkippedChanges(t *testing.T) {
	h := &history{}
	an1, an3 := &anchor.Analysis{}, &anchor.Analysis{}
	h.record(1, an1)
	h.add(2, exchange.Change{Prefix: 50, Suffix: 40})
	h.add(3, exchange.Change{Prefix: 30, Suffix: 60})
	h.add(4, exchange.Change{Prefix: 70, Suffix: 10})
	for _, tc := range []struct {
		seq      uint64
		want     *exchange.Change
		wantPrev *anchor.Analysis
	}{
		{2, &exchange.Change{Prefix: 50, Suffix: 40}, an1},
		{3, &exchange.Change{Prefix: 30, Suffix: 40}, an1},
		{4, &exchange.Change{Prefix: 30, Suffix: 10}, an1},
		{5, nil, an1}, // not added yet
		{1, nil, an1}, // the analysis's own version
	} {
		prev, ch := h.since(tc.seq)
		if prev != tc.wantPrev || (ch == nil) != (tc.want == nil) || ch != nil && *ch != *tc.want {
			t.Errorf("since(%d) = %p, %+v; want %p, %+v", tc.seq, prev, ch, tc.wantPrev, tc.want)
		}
	}
	h.record(3, an3)
	if prev, ch := h.since(4); prev != an3 || ch == nil || *ch != (exchange.Change{Prefix: 70, Suffix: 10}) {
		t.Errorf("after recording 3, since(4) = %p, %+v; want an3 and version 4's own change", prev, ch)
	}
	h.record(2, &anchor.Analysis{}) // older than what is kept: ignored
	if prev, _ := h.since(4); prev != an3 {
		t.Errorf("an older analysis replaced a newer one")
	}
	if len(h.changes) != 1 || h.first != 4 {
		t.Errorf("kept changes from %d, %d of them; want only version 4's", h.first, len(h.changes))
	}
	for seq := uint64(5); seq < 5+maxChanges; seq++ {
		h.add(seq, exchange.Change{Prefix: 1, Suffix: 1})
	}
	if _, ch := h.since(4 + maxChanges); ch != nil || len(h.changes) != maxChanges {
		t.Errorf("with %d changes kept and the first needed gone, since told %+v; want nothing (compare the texts)", len(h.changes), ch)
	}
}
