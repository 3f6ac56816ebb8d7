package lsp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/transport"
)

// file is an open document: its latest text and the pending analysis.
type file struct {
	uri    protocol.DocumentURI
	latest *snapshot
	timer  *time.Timer
	// gen numbers the publishes of the file's diagnostics in the order
	// they were decided, under Server.mu; sent is the last one sent,
	// under pubMu. A publish older than sent is dropped: it was computed
	// for an older version or with older settings.
	gen, sent uint64
	// edited is when the last version came; waiting is set when its
	// analysis waits for the edits to pause (debounce).
	edited  time.Time
	waiting bool
	// scheduled numbers the calls of schedule, under Server.mu: a timer
	// that waited for an earlier analysis runs only if no later call
	// replaced it meanwhile.
	scheduled uint64
}

// requestView is the server as one request sees it: the documents as
// they were when the request arrived, and the ones its handler has read.
// Handlers get it as a parameter and look their documents up in it; it
// belongs to the request's goroutine.
type requestView struct {
	*Server
	docs map[protocol.DocumentURI]*snapshot
	used []*snapshot
}

// view returns the documents as they are now, for a request, and pins
// them until release: a later version does not stop the analysis of one
// the request may need, which it then answers for (supersede).
func (s *Server) view() *requestView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &requestView{Server: s, docs: make(map[protocol.DocumentURI]*snapshot, len(s.files))}
	for uri, f := range s.files {
		v.docs[uri] = f.latest
		f.latest.pins.Add(1)
	}
	return v
}

// release unpins the request's documents once it is answered. An
// analysis that went on only for it still completes: the next version's
// starts from it.
func (v *requestView) release() {
	for _, sn := range v.docs {
		sn.pins.Add(-1)
	}
}

// snapshot returns the request's version of uri.
func (v *requestView) snapshot(uri protocol.DocumentURI) (*snapshot, error) {
	sn := v.docs[uri]
	if sn == nil {
		return nil, errNotOpen
	}
	v.used = append(v.used, sn)
	return sn, nil
}

// superseded returns a ContentModified error when a result computed on
// the documents the request read is of no use: one of them was closed
// since, or the result is edits (edits) and one of them has a newer
// version, whose text the edits would corrupt. Any other result was
// computed on the version the request was sent for, and is sent.
func (v *requestView) superseded(edits bool) error {
	for _, sn := range v.used {
		if latest := v.latestSnapshot(sn.uri); latest == nil || edits && latest != sn {
			return contentModified(sn)
		}
	}
	return nil
}

// latestSnapshot returns a document's newest snapshot, nil once it is
// closed.
func (s *Server) latestSnapshot(uri protocol.DocumentURI) *snapshot {
	sn, _ := s.latestAndNext(uri)
	return sn
}

// latestAndNext returns latestSnapshot(uri) and a channel closed once a
// newer snapshot of any document is made.
func (s *Server) latestAndNext(uri protocol.DocumentURI) (*snapshot, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.files[uri]; f != nil {
		return f.latest, s.versionMade
	}
	return nil, s.versionMade
}

// stale reports whether the request's own snapshot of uri has a newer
// version: a position that does not fit the newer one's text was meant
// for the older one, and the request cannot be answered.
func (v *requestView) stale(uri protocol.DocumentURI) error {
	if sn := v.docs[uri]; sn != nil && v.latestSnapshot(uri) != sn {
		return contentModified(sn)
	}
	return nil
}

// errNotOpen is the outcome of a request about a document that is not
// open: editors send them around a close, or after the server dropped
// a document over its limits. The answer is null, which every method
// allows, rather than an error the editor would show.
var errNotOpen = errors.New("the document is not open")

// fileAnalysis is what most handlers start with: the document's analysis
// as of the request, and the converter for its positions.
func (v *requestView) fileAnalysis(ctx context.Context, uri protocol.DocumentURI) (Converter, *anchor.Analysis, error) {
	sn, an, err := v.analysisOf(ctx, uri)
	if err != nil {
		return Converter{}, nil, err
	}
	return Converter{M: an.Doc.Mapper(), Enc: sn.enc}, an, nil
}

// analysisOf returns the request's version of uri and its analysis: the
// answer is for the version the request was sent for (a version merged
// into a later one before anyone asked is ContentModified).
func (v *requestView) analysisOf(ctx context.Context, uri protocol.DocumentURI) (*snapshot, *anchor.Analysis, error) {
	sn, err := v.snapshot(uri)
	if err != nil {
		return nil, nil, err
	}
	an, err := sn.analysis(ctx)
	if err != nil {
		return nil, nil, err
	}
	return sn, an, nil
}

// fileIn is fileAnalysis for a request about a range: it also returns
// that range in byte offsets.
func (v *requestView) fileIn(ctx context.Context, uri protocol.DocumentURI, rng protocol.Range) (Converter, *anchor.Analysis, exchange.Range, error) {
	conv, an, err := v.fileAnalysis(ctx, uri)
	if err != nil {
		return conv, nil, exchange.Range{}, err
	}
	span, err := conv.Span(rng)
	if err != nil {
		err = cmp.Or(v.stale(uri), err)
	}
	return conv, an, span, err
}

// fileAt is fileAnalysis for a request about one position: it also
// returns that position as a byte offset.
func (v *requestView) fileAt(ctx context.Context, uri protocol.DocumentURI, pos protocol.Position) (Converter, *anchor.Analysis, int, error) {
	conv, an, err := v.fileAnalysis(ctx, uri)
	if err != nil {
		return conv, nil, 0, err
	}
	off, err := conv.Offset(pos)
	if err != nil {
		err = cmp.Or(v.stale(uri), err)
	}
	return conv, an, off, err
}

func didOpen(ctx context.Context, s *Server, p *transport.OpenParams) error {
	return s.modifyFiles(modification{action: fileOpened, uri: p.TextDocument.URI, doc: &p.TextDocument})
}

func didChange(ctx context.Context, s *Server, p *transport.ChangeParams) error {
	return s.modifyFiles(modification{action: fileChanged, uri: p.TextDocument.URI, change: p})
}

func didClose(ctx context.Context, s *Server, p *protocol.DidCloseTextDocumentParams) error {
	return s.modifyFiles(modification{action: fileClosed, uri: p.TextDocument.URI})
}

func didSave(ctx context.Context, s *Server, p *protocol.DidSaveTextDocumentParams) error {
	return s.modifyFiles(modification{action: fileSaved, uri: p.TextDocument.URI})
}

// openReview makes an opened review's first snapshot.
func (s *Server) openReview(d *transport.OpenedDocument) *file {
	text := exchange.NewText(d.Text)
	m := exchange.NewTextMapper(text)
	s.mu.Lock()
	sn := s.newSnapshot(d.URI, d.Version, text, m, nil, exchange.Change{})
	f := &file{uri: d.URI, latest: sn, edited: time.Now()}
	s.forget(s.files[f.uri])
	s.files[f.uri] = f
	s.mu.Unlock()
	s.dropDiskReview(f.uri)
	return f
}

// changeReview makes a review's next snapshot from a didChange, and
// returns when to analyze it: after delay, and after the analysis of
// after, the version before, when a request waits for it (the next
// analysis starts from it).
func (s *Server) changeReview(p *transport.ChangeParams) (f *file, delay time.Duration, after *snapshot, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f = s.files[p.TextDocument.URI]
	if f == nil {
		return nil, 0, nil, fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	text := f.latest.text
	if an := f.latest.analyzed(); an != nil {
		// Its document holds the same bytes, in one run where the
		// analysis had to read them so (a patch cut by edits): the next
		// text shares that.
		text = an.Doc.Text
	}
	ed, err := applyContentChanges(text, f.latest.mapper, s.enc, p.ContentChanges)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("didChange for %s: %w", p.TextDocument.URI, err)
	}
	old := f.latest
	f.latest = s.newSnapshot(f.uri, p.TextDocument.Version, ed.text, ed.mapper, old, ed.change)
	old.supersede()
	delay = f.debounce(s.opts.Debounce, old)
	if old.running() && old.ctx.Err() == nil {
		after = old // a request waits for it: the next analysis starts from it
	}
	return f, delay, after, nil
}

// maxDebounce bounds how long a pause in the edits the server waits for
// before analyzing a document whose analyses are slower than the edits.
const maxDebounce = time.Second

// debounce returns how long to wait before analyzing the version after
// old. When old's analysis was running, or old was still waiting out such
// a wait, edits come faster than analyses end, and any analysis started
// before the edits pause is cancelled: the wait is then twice the time
// since the last edit (up to maxDebounce), so that a slow document being
// typed into is analyzed once the typing pauses instead of once per
// keystroke. s.mu must be held.
func (f *file) debounce(base time.Duration, old *snapshot) time.Duration {
	now := time.Now()
	delay := base
	if old.running() || f.waiting && !old.started.Load() {
		delay = max(base, min(2*now.Sub(f.edited), maxDebounce))
	}
	f.edited, f.waiting = now, delay > base
	return delay
}

// removeReview forgets an open review and queues diags, its last words
// (nil: the empty list), in the same hold of s.mu: a publish of the
// review decided before is replaced by them, one decided after finds it
// closed. They are sent before it returns, after what the writer is
// sending, so that the client has them before the answer to its next
// request.
func (s *Server) removeReview(uri protocol.DocumentURI, diags []protocol.Diagnostic) {
	last := s.lastWords(uri, diags)
	s.mu.Lock()
	s.forget(s.files[uri])
	delete(s.files, uri)
	s.queueLocked(uri, last)
	s.mu.Unlock()
	s.pubMu.Lock()
	s.unlockPub()
}

// schedule analyzes f's latest snapshot after delay and publishes its
// diagnostics, unless a newer version arrived meanwhile. When after, an
// earlier version's analysis, is running, it waits for it too: the
// changes since are merged into one analysis that starts from after's,
// rather than one running beside it from further back.
func (s *Server) schedule(f *file, delay time.Duration, after *snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.timer != nil {
		f.timer.Stop()
	}
	if s.closed {
		return
	}
	f.scheduled++
	mine := f.scheduled
	f.timer = time.AfterFunc(delay, func() {
		if after != nil {
			select {
			case <-after.done:
			case <-s.bg.Done():
				return
			}
		}
		s.mu.Lock()
		sn := f.latest
		if s.closed || !s.isLatest(f, sn) || f.scheduled != mine {
			s.mu.Unlock()
			return
		}
		s.wg.Add(1)
		f.gen++
		gen := f.gen
		s.mu.Unlock()
		defer s.wg.Done()
		an, err := sn.analysis(s.bg)
		switch {
		case an != nil:
			s.publish(f, sn, an, gen)
		case sn.ctx.Err() == nil:
			s.logf(protocol.MessageTypeError, "%v\n%s", err, sn.stack)
		}
	})
}

// forget stops f's pending and running work when it is closed or
// replaced; s.mu must be held.
func (s *Server) forget(f *file) {
	if f == nil {
		return
	}
	if f.timer != nil {
		f.timer.Stop()
	}
	f.latest.cancel(errSuperseded)
}

// claim reports whether the publish numbered gen is newer than any sent
// for f, and marks it sent; s.pubMu and s.mu must be held.
func (f *file) claim(gen uint64) bool {
	if gen <= f.sent {
		return false
	}
	f.sent = gen
	return true
}

// isLatest reports whether sn is the latest version of an open document;
// s.mu must be held.
func (s *Server) isLatest(f *file, sn *snapshot) bool {
	return s.files[f.uri] == f && f.latest == sn
}

// dropped hears of a notification the transport refused (over a limit).
// A refused didOpen or didChange would leave the editor showing the
// diagnostics of a version the server no longer has: the document is
// dropped, and its one diagnostic says why it is not checked.
func (s *Server) dropped(d transport.Dropped) {
	uri := protocol.DocumentURI(d.URI)
	if uri == "" || d.Method != "textDocument/didOpen" && d.Method != "textDocument/didChange" {
		s.logf(protocol.MessageTypeError, "%s was not read: %s", d.Method, d.Reason)
		return
	}
	msg := fmt.Sprintf("lreview does not check this file: %s (%s). Make it smaller, then close and reopen it.", d.Reason, d.Method)
	s.logf(protocol.MessageTypeError, "%s: %s", uri, msg)
	diags := []protocol.Diagnostic{{
		Severity: protocol.DiagnosticSeverityError,
		Code:     features.CodeTooLarge,
		Source:   "lreview",
		Message:  msg,
	}}
	if slices.Contains(s.currentSettings().Diagnostics.Disabled, features.CodeTooLarge) {
		diags = []protocol.Diagnostic{} // silenced like any other code; the log still says why
	}
	_ = s.modifyFiles(modification{action: fileDropped, uri: uri, diags: diags})
}
