package lsp

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/transport"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// One path for every change of a file: the handlers of didOpen,
// didChange, didClose and didSave, the transport's dropped documents and the
// files changed on disk (the client's watchers, the poller) each make a
// modification and hand it to modifyFiles, which updates the session —
// a review's snapshot or a source document's buffer, their text and
// mapper edited by applyContentChanges alike — and then asks for what
// must be published again: the review's analysis and diagnostics
// (schedule), the comments on the source files (refreshSources), the
// reviews whose working tree changed. What is sent goes through the one
// publisher (publish.go).

// fileAction is what happened to a file.
type fileAction uint8

const (
	fileOpened  fileAction = iota // didOpen
	fileChanged                   // didChange, admitted in version order
	fileClosed                    // didClose
	fileDropped                   // the transport refused its didOpen or didChange
	fileSaved                     // didSave: its file on disk holds its text
	fileOnDisk                    // files changed on disk: watched or polled
)

// modification is one file event as the funnel takes it.
type modification struct {
	action fileAction
	uri    protocol.DocumentURI
	// doc is the opened document (fileOpened); change the didChange
	// (fileChanged).
	doc    *transport.OpenedDocument
	change *transport.ChangeParams
	// diags are a dropped document's last diagnostics (fileDropped).
	diags []protocol.Diagnostic
	// paths are the files changed on disk (fileOnDisk).
	paths []string
}

// republish is what an update asks to be published again.
type republish struct {
	// review is a review document whose latest version is analyzed and
	// published after delay, once after's analysis (if any) is done.
	review *file
	delay  time.Duration
	after  *snapshot
	// sources: the comments on the source documents marked dirty;
	// rescan: those on every source, the scope walked again.
	sources, rescan bool
	// disk are files changed on disk.
	disk []string
}

// modifyFiles is the one way a file change enters the session. A
// didChange is first admitted in version order (versions.go), which
// applies it, and any held change it releases, through applyChange.
func (s *Server) modifyFiles(m modification) error {
	switch m.action {
	case fileChanged:
		return s.changeInOrder(m.change, s.applyChange)
	case fileOpened:
		early := s.versions.opened(m.uri, m.doc.Version)
		err := s.apply(m)
		for _, p := range early {
			if e := s.changeInOrder(p, s.applyChange); e != nil && err == nil {
				err = e
			}
		}
		return err
	case fileClosed, fileDropped:
		s.versions.closed(m.uri)
	}
	return s.apply(m)
}

// applyChange applies a didChange admitted in order.
func (s *Server) applyChange(p *transport.ChangeParams) error {
	return s.apply(modification{action: fileChanged, uri: p.TextDocument.URI, change: p})
}

// apply updates the session for m, then asks for the publishes.
func (s *Server) apply(m modification) error {
	var r republish
	var err error
	switch m.action {
	case fileOpened:
		s.src.mu.Lock()
		s.src.opened = true
		s.src.mu.Unlock()
		if isReviewDocument(m.doc) {
			r.review = s.openReview(m.doc)
		} else {
			r.sources = s.openSource(m.doc) // never read as a review
		}
	case fileChanged:
		if s.isSource(m.uri) {
			r.sources, err = s.changeSource(m.change)
		} else {
			r.review, r.delay, r.after, err = s.changeReview(m.change)
		}
	case fileClosed:
		if s.closeSource(m.uri) {
			r.sources = true // its comments placed in the file on disk again
		} else {
			// Clear the diagnostics: the editor no longer shows the file.
			s.removeReview(m.uri, nil)
			s.forgetReview(m.uri)
			r.rescan = true // its file on disk, if in scope, stands for it again
		}
	case fileDropped:
		s.removeReview(m.uri, m.diags)
		s.forgetReview(m.uri)
	case fileSaved:
		// A source file on disk holds its buffer's text now: the watchers
		// of a client that has them report it, as the poller does later
		// for one that has none; then it is said now. A review's buffer
		// stands for its file already.
		if path := fileOf(string(m.uri)); path != "" && s.isSource(m.uri) && !s.watching() {
			r.disk = []string{path}
		}
	case fileOnDisk:
		r.disk = m.paths
	}
	s.republish(r)
	return err
}

// republish schedules what r asks for.
func (s *Server) republish(r republish) {
	if r.review != nil {
		s.schedule(r.review, r.delay, r.after)
	}
	if r.rescan {
		s.sourcesChanged(true)
	} else if r.sources {
		s.refreshSources()
	}
	if len(r.disk) > 0 {
		s.onDisk(r.disk)
	}
}

// onDisk publishes again the diagnostics of the open reviews whose
// working tree holds a file that changed, reads again the reviews in
// scope that changed, and marks the code graphs holding them stale.
func (s *Server) onDisk(changed []string) {
	s.mu.Lock()
	files := slices.Collect(maps.Values(s.files))
	s.mu.Unlock()
	for _, f := range files {
		t := s.treeFor(f.uri)
		if t != nil && slices.ContainsFunc(changed, func(path string) bool { return worktree.Within(t.Root(), path) }) {
			s.schedule(f, 0, nil)
		}
	}
	s.sourcesOnDisk(changed)
	s.graphsChanged(changed) // shape.go
}

// editedText is a document's text after a didChange's changes.
type editedText struct {
	text   exchange.Text
	mapper *exchange.Mapper
	// change is what the changes left alone, from the text before.
	change exchange.Change
	// full: a change gave the whole text; edits are the ranged changes
	// after the last such one, in order.
	full  bool
	edits []anchor.TextEdit
}

// applyContentChanges applies a didChange's changes to a document's
// text, reviews and source documents alike: each ranged change is
// converted with the mapper of the text it was made on, which is then
// edited (Mapper.Edited) rather than made again, so that a change costs
// what it changed, not a scan of the document.
func applyContentChanges(text exchange.Text, m *exchange.Mapper, enc exchange.Encoding, changes []transport.ContentChange) (editedText, error) {
	// At first, everything is left alone.
	out := editedText{text: text, mapper: m, change: exchange.Change{Prefix: text.Len(), Suffix: text.Len()}}
	for _, ch := range changes {
		if ch.Range == nil {
			out.text, out.change, out.full, out.edits = exchange.NewText(ch.Text), exchange.Change{}, true, nil
			out.mapper = exchange.NewTextMapper(out.text)
			continue
		}
		start, err1 := out.mapper.Offset(exchange.Position{Line: int(ch.Range.Start.Line), Character: int(ch.Range.Start.Character)}, enc)
		end, err2 := out.mapper.Offset(exchange.Position{Line: int(ch.Range.End.Line), Character: int(ch.Range.End.Character)}, enc)
		if err1 != nil || err2 != nil || end < start {
			return editedText{}, fmt.Errorf("range %v does not fit the document", ch.Range)
		}
		one := exchange.Change{Prefix: start, Suffix: out.text.Len() - end}
		out.change = out.change.Then(one)
		out.edits = append(out.edits, anchor.TextEdit{Start: start, End: end, New: len(ch.Text)})
		out.text = out.text.Replace(start, end, ch.Text)
		out.mapper = out.mapper.Edited(out.text, one)
	}
	return out, nil
}
