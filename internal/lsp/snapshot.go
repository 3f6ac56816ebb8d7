package lsp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
)

// snapshot is one version of a document. Its analysis is computed at most
// once, on demand: by the debounce timer, or by a request that needs it.
// A newer version cancels it. Snapshots are immutable once made, so
// requests read them without locks.
type snapshot struct {
	uri     protocol.DocumentURI
	version int32
	text    exchange.Text
	enc     exchange.Encoding
	// mapper maps text's positions: the next version's changes are
	// converted with it and it is made from the last one's, edited, so
	// that a change costs what it changed, not a scan of the document.
	mapper *exchange.Mapper

	// seq orders the snapshots of one document; hist is what they share.
	seq  uint64
	hist *history
	// cache holds what publishes and requests reuse of this version.
	cache *versionCache
	// ctx is cancelled, with errSuperseded, when a newer version comes
	// and no request waits for the analysis (supersede), or the document
	// is closed, and when the server exits.
	ctx    context.Context
	cancel context.CancelCauseFunc

	// analyze is reviewfile.Analyze; tests replace it (Options.analyze).
	analyze analyzeFunc
	// spawn runs the analysis on a goroutine the server counts.
	spawn   func(func()) bool
	started atomic.Bool
	// pins counts the requests that arrived while this was the latest
	// version and are not answered yet: a newer version does not stop
	// the analysis they may need, so that each is answered for the
	// version it was sent for (requestView).
	pins atomic.Int32
	done chan struct{}
	// an and err are the outcome, set before done is closed: the
	// analysis, or why there is none (then stack is where it failed).
	an    *anchor.Analysis
	err   error
	stack []byte
}

type analyzeFunc func(ctx context.Context, text exchange.Text, m *exchange.Mapper, prev *anchor.Analysis, ch *exchange.Change) (*anchor.Analysis, error)

// history is what the snapshots of one open document share: the newest
// analysis that completed. The next analysis starts from it, whatever
// versions between the two the debounce skipped or a newer edit
// cancelled, so that an edit in a comment never re-indexes the patch.
//
// It also keeps how each later version's text differs from the one before
// (the editor's own ranges), so that the analysis is told where the text
// changed since its starting point instead of comparing megabytes.
type history struct {
	mu  sync.Mutex
	seq uint64
	an  *anchor.Analysis
	// changes[i] is version first+i's change from the version before it.
	first   uint64
	changes []exchange.Change
}

// maxChanges bounds the changes kept while no analysis completes (each
// fails, say): past it the oldest go, and an analysis that would need
// them compares the texts instead.
const maxChanges = 4096

// add records version seq's change from version seq-1; versions come in
// order, each once.
func (h *history) add(seq uint64, ch exchange.Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.changes) == 0 {
		h.first = seq
	}
	if len(h.changes) == maxChanges {
		h.changes, h.first = h.changes[1:], h.first+1
	}
	h.changes = append(h.changes, ch)
}

// since returns the newest analysis completed before version seq's, and,
// when it has them all, how seq's text differs from that analysis's.
func (h *history) since(seq uint64) (*anchor.Analysis, *exchange.Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.an == nil || h.seq >= seq || h.seq+1 < h.first || seq >= h.first+uint64(len(h.changes)) {
		return h.an, nil
	}
	ch := h.changes[h.seq+1-h.first]
	for _, next := range h.changes[h.seq+2-h.first : seq+1-h.first] {
		ch = ch.Then(next)
	}
	return h.an, &ch
}

// newest is the newest analysis completed, nil before the first.
func (h *history) newest() *anchor.Analysis {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.an
}

func (h *history) record(seq uint64, an *anchor.Analysis) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if seq > h.seq {
		h.seq, h.an = seq, an
		// Later analyses start from seq: older changes are done with.
		if seq >= h.first {
			drop := min(seq+1-h.first, uint64(len(h.changes)))
			h.changes, h.first = h.changes[drop:], h.first+drop
		}
	}
}

var (
	// errSuperseded is why a snapshot's analysis was cancelled by the
	// document's next version (when no request waited for it) or its
	// close.
	errSuperseded = errors.New("a newer version superseded this one")
	// errExiting answers what needed an analysis once the server exits.
	errExiting = jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is exiting")
)

// newSnapshot makes the next version of a document after prev (nil for
// a document just opened), whose text differs from prev's as ch says;
// s.mu must be held.
func (s *Server) newSnapshot(uri protocol.DocumentURI, version int32, text exchange.Text, m *exchange.Mapper, prev *snapshot, ch exchange.Change) *snapshot {
	sn := newSnapshot(s.bg, uri, version, text, s.enc, prev)
	sn.mapper = m
	if prev != nil {
		sn.hist.add(sn.seq, ch)
		sn.cache = prev.cache.next(ch, prev.text.Len(), text.Len())
	}
	sn.spawn = s.spawn
	if s.opts.analyze != nil {
		sn.analyze = s.opts.analyze
	}
	close(s.versionMade)
	s.versionMade = make(chan struct{})
	return sn
}

func newSnapshot(parent context.Context, uri protocol.DocumentURI, version int32, text exchange.Text, enc exchange.Encoding, prev *snapshot) *snapshot {
	sn := &snapshot{uri: uri, version: version, text: text, enc: enc, cache: &versionCache{}, analyze: reviewfile.Analyze, done: make(chan struct{}),
		spawn: func(fn func()) bool { go fn(); return true }}
	sn.ctx, sn.cancel = context.WithCancelCause(parent)
	if prev != nil {
		sn.seq, sn.hist = prev.seq+1, prev.hist
	} else {
		sn.seq, sn.hist = 1, &history{}
	}
	return sn
}

// spawn runs fn on a goroutine Serve waits for, unless Serve is ending.
// A panic of fn is logged (safely), never the end of the session: what
// runs here (publishes, the watchers, body files) reads untrusted files.
func (s *Server) spawn(fn func()) bool {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		s.safely("a background task", fn)
	}()
	return true
}

// analysis returns the snapshot's analysis, computing it now if nobody
// has. The computation runs on its own goroutine so that a cancelled
// request stops waiting for it; it still completes, for the next caller,
// unless a newer version superseded it while no request held it: then
// the answer is ContentModified.
func (sn *snapshot) analysis(ctx context.Context) (*anchor.Analysis, error) {
	sn.start()
	select {
	case <-sn.done:
		return sn.an, sn.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (sn *snapshot) start() {
	if sn.started.Swap(true) {
		return
	}
	if !sn.spawn(sn.run) {
		sn.err = errExiting
		close(sn.done)
	}
}

// supersede is told that a newer version came; s.mu must be held. The
// analysis stops at its next checkpoint, unless a request holds the
// version: then it is finished for the request, and the newer version's
// analysis starts from it (the debounce timer waits for it).
func (sn *snapshot) supersede() {
	if sn.pins.Load() == 0 {
		sn.cancel(errSuperseded)
	}
}

// running reports whether the analysis started and has not ended.
func (sn *snapshot) running() bool {
	select {
	case <-sn.done:
		return false
	default:
		return sn.started.Load()
	}
}

// analyzed returns the analysis if it is already done, or nil.
func (sn *snapshot) analyzed() *anchor.Analysis {
	select {
	case <-sn.done:
		return sn.an
	default:
		return nil
	}
}

// run computes the analysis. It runs outside any request, so it recovers
// a panic itself: a bug in the analysis becomes an error every request on
// this version gets, instead of the end of the process, and done is
// closed whatever happens so that no caller waits forever.
func (sn *snapshot) run() {
	defer close(sn.done)
	defer func() {
		if r := recover(); r != nil {
			sn.an, sn.err, sn.stack = nil, fmt.Errorf("panic in the analysis of %s version %d: %v", sn.uri, sn.version, r), debug.Stack()
		}
	}()
	prev, ch := sn.hist.since(sn.seq)
	an, err := sn.analyze(sn.ctx, sn.text, sn.mapper, prev, ch)
	switch {
	case err == nil:
		sn.an = an
		sn.hist.record(sn.seq, an)
	case errors.Is(context.Cause(sn.ctx), errSuperseded):
		sn.err = contentModified(sn)
	case sn.ctx.Err() != nil:
		sn.err = errExiting
	default:
		sn.err = err
	}
}

// contentModified is the answer to a request that needed sn once a newer
// version superseded it: the editor asks again if it still wants to know.
func contentModified(sn *snapshot) error {
	return jsonrpc2.NewError(protocol.CodeContentModified, fmt.Sprintf("%s changed: version %d is no longer the latest", sn.uri, sn.version))
}
