package lsp

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// file is an open document: its latest text and the pending analysis.
type file struct {
	uri    protocol.DocumentURI
	latest *snapshot
	timer  *time.Timer
	// diags is the encoding of the last diagnostics published (diagnostics.go).
	diags diagCache
	// tokens is the last semantic tokens result sent (semantictokens.go).
	tokens tokenCache
}

// snapshot is one version of a document. Its analysis is computed at most
// once, on demand: by the debounce timer, or by a request that needs it.
// Snapshots are immutable once made, so requests read them without locks.
type snapshot struct {
	uri     protocol.DocumentURI
	version int32
	text    []byte
	enc     exchange.Encoding

	// analyze is Analyze; tests replace it to make it fail.
	analyze func(text []byte, prev *Analysis) *Analysis
	once    sync.Once
	done    chan struct{}
	// an and err are the outcome, set before done is closed: the
	// analysis, or why there is none (then stack is where it failed).
	an    *Analysis
	err   error
	stack []byte
	// prev is the snapshot this one was edited from, kept until the
	// analysis ran so that an unchanged patch can reuse its index.
	prev *snapshot
}

func newSnapshot(uri protocol.DocumentURI, version int32, text []byte, enc exchange.Encoding, prev *snapshot) *snapshot {
	return &snapshot{uri: uri, version: version, text: text, enc: enc, analyze: Analyze, done: make(chan struct{}), prev: prev}
}

// analysis returns the snapshot's analysis, computing it now if nobody
// has. The computation runs on its own goroutine so that a cancelled
// request stops waiting for it; it still completes, for the next caller.
func (sn *snapshot) analysis(ctx context.Context) (*Analysis, error) {
	select {
	case <-sn.done:
	default:
		go sn.once.Do(sn.run)
		select {
		case <-sn.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return sn.an, sn.err
}

// analyzed returns the analysis if it is already done, or nil.
func (sn *snapshot) analyzed() *Analysis {
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
	var prev *Analysis
	if p := sn.prev; p != nil {
		prev = p.analyzed()
	}
	sn.prev = nil
	sn.an = sn.analyze(sn.text, prev)
}

// view is the set of documents as they were when a request arrived.
type view map[protocol.DocumentURI]*snapshot

type viewKey struct{}

func withView(ctx context.Context, v view) context.Context {
	return context.WithValue(ctx, viewKey{}, v)
}

func (s *Server) view() view {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := make(view, len(s.files))
	for uri, f := range s.files {
		v[uri] = f.latest
	}
	return v
}

// snapshotOf returns the request's snapshot of uri.
func snapshotOf(ctx context.Context, uri protocol.DocumentURI) (*snapshot, error) {
	v, _ := ctx.Value(viewKey{}).(view)
	if sn := v[uri]; sn != nil {
		return sn, nil
	}
	return nil, fmt.Errorf("%s is not open", uri)
}

// fileAnalysis is what most handlers start with: the document's analysis
// as of the request, and the converter for its positions.
func fileAnalysis(ctx context.Context, uri protocol.DocumentURI) (Converter, *Analysis, error) {
	sn, err := snapshotOf(ctx, uri)
	if err != nil {
		return Converter{}, nil, err
	}
	an, err := sn.analysis(ctx)
	if err != nil {
		return Converter{}, nil, err
	}
	return Converter{M: an.Mapper, Enc: sn.enc}, an, nil
}

// fileIn is fileAnalysis for a request about a range: it also returns
// that range in byte offsets.
func fileIn(ctx context.Context, uri protocol.DocumentURI, rng protocol.Range) (Converter, *Analysis, exchange.Range, error) {
	conv, an, err := fileAnalysis(ctx, uri)
	if err != nil {
		return conv, nil, exchange.Range{}, err
	}
	span, err := conv.Span(rng)
	return conv, an, span, err
}

// fileAt is fileAnalysis for a request about one position: it also
// returns that position as a byte offset.
func fileAt(ctx context.Context, uri protocol.DocumentURI, pos protocol.Position) (Converter, *Analysis, int, error) {
	conv, an, err := fileAnalysis(ctx, uri)
	if err != nil {
		return conv, nil, 0, err
	}
	off, err := conv.Offset(pos)
	return conv, an, off, err
}

func init() {
	notifications["textDocument/didOpen"] = textNotification(decodeOpenParams, didOpen)
	notifications["textDocument/didChange"] = textNotification(decodeChangeParams, didChange)
	notifications["textDocument/didClose"] = notification(didClose)
}

func didOpen(ctx context.Context, s *Server, p *openParams) error {
	s.mu.Lock()
	sn := newSnapshot(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text, s.enc, nil)
	f := &file{uri: p.TextDocument.URI, latest: sn}
	if old := s.files[f.uri]; old != nil && old.timer != nil {
		old.timer.Stop()
	}
	s.files[f.uri] = f
	s.mu.Unlock()
	s.schedule(f, 0)
	return nil
}

func didChange(ctx context.Context, s *Server, p *changeParams) error {
	s.mu.Lock()
	f := s.files[p.TextDocument.URI]
	if f == nil {
		s.mu.Unlock()
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	text := f.latest.text
	var m *exchange.Mapper
	if an := f.latest.analyzed(); an != nil {
		m = an.Mapper // analysed already: its mapper fits the text
	}
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			text = ch.Text
			continue
		}
		if m == nil || i > 0 {
			m = exchange.NewMapper(text)
		}
		start, err1 := m.Offset(exchange.Position{Line: int(ch.Range.Start.Line), Character: int(ch.Range.Start.Character)}, s.enc)
		end, err2 := m.Offset(exchange.Position{Line: int(ch.Range.End.Line), Character: int(ch.Range.End.Character)}, s.enc)
		if err1 != nil || err2 != nil || end < start {
			s.mu.Unlock()
			return fmt.Errorf("didChange for %s: range %v does not fit the document", p.TextDocument.URI, ch.Range)
		}
		next := make([]byte, 0, len(text)-(end-start)+len(ch.Text))
		next = append(next, text[:start]...)
		next = append(next, ch.Text...)
		next = append(next, text[end:]...)
		text = next
	}
	f.latest = newSnapshot(f.uri, p.TextDocument.Version, text, s.enc, f.latest)
	s.mu.Unlock()
	s.schedule(f, s.opts.Debounce)
	return nil
}

func didClose(ctx context.Context, s *Server, p *protocol.DidCloseTextDocumentParams) error {
	// Under pubMu, so that a publisher that found the file open has sent
	// before this clears it, and one that comes later finds it closed.
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	if f := s.files[p.TextDocument.URI]; f != nil && f.timer != nil {
		f.timer.Stop()
	}
	delete(s.files, p.TextDocument.URI)
	s.mu.Unlock()
	// Clear the diagnostics: the editor no longer shows the file.
	return s.conn.Notify(ctx, "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
}

// schedule analyses f's latest snapshot after delay and publishes its
// diagnostics, unless a newer version arrived meanwhile.
func (s *Server) schedule(f *file, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.timer != nil {
		f.timer.Stop()
	}
	if s.closed {
		return
	}
	f.timer = time.AfterFunc(delay, func() {
		s.mu.Lock()
		sn := f.latest
		if s.closed || !s.isLatest(f, sn) {
			s.mu.Unlock()
			return
		}
		s.wg.Add(1)
		s.mu.Unlock()
		defer s.wg.Done()
		an, err := sn.analysis(s.bg)
		switch {
		case an != nil:
			s.publish(f, sn, an)
		case s.bg.Err() == nil:
			s.logf(protocol.MessageTypeError, "%v\n%s", err, sn.stack)
		}
	})
}

// isLatest reports whether sn is the latest version of an open document;
// s.mu must be held.
func (s *Server) isLatest(f *file, sn *snapshot) bool {
	return s.files[f.uri] == f && f.latest == sn
}
