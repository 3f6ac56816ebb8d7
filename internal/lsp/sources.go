package lsp

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/transport"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Source documents: the files of the reviewed code a person opens in the
// editor with the server attached (issue 31). They are never read as
// reviews: the server keeps their text, to place the comments of the
// reviews in scope where the buffer has their lines now, and nothing
// else. A file no review in scope names costs a copy of its text.

// sourceState is the session's source documents and the reviews in scope
// besides the open ones, with the comments published on the sources.
// Its mutex is a leaf: nothing else is locked while it is held.
type sourceState struct {
	mu   sync.Mutex
	bufs map[protocol.DocumentURI]*sourceBuf
	// disk are the reviews found under the roots (scope.go), by path.
	disk map[string]*reviewfile.Version
	// scanned: the roots were walked once; rescan asks for another walk.
	scanned, rescan bool
	// opened: a document was opened: until then there is nothing to
	// place comments in, and the first open starts the first walk.
	opened bool
	// dirtyAll and dirty are what the next refresh recomputes: every
	// source, or those documents; running is set while the worker runs.
	dirtyAll bool
	dirty    map[protocol.DocumentURI]bool
	running  bool
	// sent is, by source URI, the diagnostics last published, encoded.
	sent map[protocol.DocumentURI][]byte
	// documentChanges: the client takes versioned WorkspaceEdits.
	documentChanges bool
	// watchKey is the file watchers last registered for the scope.
	watchKey string
}

// sourceBuf is an open source document: its text as the editor has it.
type sourceBuf struct {
	version int32
	text    exchange.Text
	// file is the text as a working-tree file of the tree rooted at
	// root, made once per version (a version is replaced, never changed),
	// under mu.
	mu   sync.Mutex
	root string
	file *worktree.File
	// mapper converts the text's positions, made once per version, for
	// the next change's ranges and for the file (under mu).
	mapper *exchange.Mapper
	// base is the last version of the buffer made a file (fileIn), and
	// edits the editor's changes since: the next file carries
	// where base had the reviews' lines through them
	// (worktree.Tree.EditedBuffer). Both are nil after a full-text
	// change, or past maxCarried edits: the lines are then found by a
	// line diff against the review.
	base  *worktree.File
	edits []anchor.TextEdit
}

// maxCarried bounds the edits a buffer keeps for the next file: past it
// (no review in scope asked for the file for that long), they are
// dropped with the base.
const maxCarried = 4096

// mapperOf returns the buffer's mapper, made on first use.
func (b *sourceBuf) mapperOf() *exchange.Mapper {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mapper == nil {
		b.mapper = exchange.NewTextMapper(b.text)
	}
	return b.mapper
}

func newSourceState() *sourceState {
	return &sourceState{bufs: map[protocol.DocumentURI]*sourceBuf{}, disk: map[string]*reviewfile.Version{}, dirty: map[protocol.DocumentURI]bool{}, sent: map[protocol.DocumentURI][]byte{}}
}

// reviewMagic is the first key of every review exchange document.
const reviewMagic = `"leanreview_review"`

// isReviewDocument reports whether an opened document is a review: its
// language is lreview (every editor integration names it so), its name
// ends in .review.json, or its text's first key is "leanreview_review"
// (as Neovim's and Vim's detection by content has it). Anything else is
// a source document and is never parsed as JSON.
func isReviewDocument(d *transport.OpenedDocument) bool {
	if d.LanguageID == "lreview" || strings.HasSuffix(string(d.URI), ".review.json") {
		return true
	}
	head := bytes.TrimPrefix(d.Text[:min(len(d.Text), 4096)], []byte("\uFEFF"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	return bytes.HasPrefix(bytes.TrimLeft(head[1:], " \t\r\n"), []byte(reviewMagic))
}

// openSource records a source document; it is dirty (its comments are
// placed in its text).
func (s *Server) openSource(d *transport.OpenedDocument) bool {
	st := s.src
	st.mu.Lock()
	st.bufs[d.URI] = &sourceBuf{version: d.Version, text: exchange.NewText(d.Text)}
	st.dirty[d.URI] = true
	st.mu.Unlock()
	return true
}

// changeSource applies a didChange to a source document: true when the
// document is dirty since.
func (s *Server) changeSource(p *transport.ChangeParams) (bool, error) {
	st := s.src
	st.mu.Lock()
	b := st.bufs[p.TextDocument.URI]
	st.mu.Unlock()
	if b == nil {
		return false, fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	base, edits := b.carried()
	enc := s.encoding()
	ed, err := applyContentChanges(b.text, b.mapperOf(), enc, p.ContentChanges)
	if err != nil {
		return false, fmt.Errorf("didChange for %s: %w", p.TextDocument.URI, err)
	}
	if ed.full {
		base, edits = nil, nil
	}
	if base != nil {
		edits = append(edits, ed.edits...)
	}
	if len(edits) > maxCarried {
		base, edits = nil, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.bufs[p.TextDocument.URI] != b {
		return false, nil
	}
	st.bufs[p.TextDocument.URI] = &sourceBuf{version: p.TextDocument.Version, text: ed.text, mapper: ed.mapper, base: base, edits: edits}
	st.dirty[p.TextDocument.URI] = true
	return true, nil
}

// carried returns what the next version's file is carried from: this
// version's file if it was made, else what this version had; edits is
// the caller's to append to.
func (b *sourceBuf) carried() (*worktree.File, []anchor.TextEdit) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.file != nil {
		return b.file, nil
	}
	return b.base, slices.Clip(b.edits)
}

// closeSource forgets a source document, and marks it dirty: its
// comments stay published, placed in the file on disk again. False when
// it is not one.
func (s *Server) closeSource(uri protocol.DocumentURI) bool {
	st := s.src
	st.mu.Lock()
	_, ok := st.bufs[uri]
	delete(st.bufs, uri)
	if ok {
		st.dirty[uri] = true
	}
	st.mu.Unlock()
	return ok
}

// isSource reports whether uri is an open source document.
func (s *Server) isSource(uri protocol.DocumentURI) bool {
	st := s.src
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.bufs[uri] != nil
}

// sourcesChanged asks for every source's comments again: a review in
// scope changed (published, closed, on disk) or the settings did. Before
// the first document is opened there is nothing to ask again: the first
// scan waits for it, as an editor opens the review it started for right
// after sending its settings, and a scan before that would parse the
// review's file too, beside the buffer that stands for it.
func (s *Server) sourcesChanged(rescan bool) {
	st := s.src
	st.mu.Lock()
	if !st.opened && !st.scanned && !st.running {
		st.mu.Unlock()
		return
	}
	st.dirtyAll = true
	st.rescan = st.rescan || rescan
	st.mu.Unlock()
	s.refreshSources()
}

// refreshSources runs the worker that recomputes and publishes what is
// dirty, unless it runs already: it then goes round again. One worker
// publishes, so the publishes of one source come in order.
func (s *Server) refreshSources() {
	st := s.src
	st.mu.Lock()
	if st.running {
		st.mu.Unlock()
		return
	}
	st.running = true
	st.mu.Unlock()
	ok := s.spawn(func() {
		for {
			st.mu.Lock()
			all, dirty, rescan := st.dirtyAll, st.dirty, st.rescan || !st.scanned
			if !all && len(dirty) == 0 && !rescan {
				st.running = false
				st.mu.Unlock()
				return
			}
			st.dirtyAll, st.dirty, st.rescan, st.scanned = false, map[protocol.DocumentURI]bool{}, false, true
			st.mu.Unlock()
			s.safely("lreview source comments", func() {
				if rescan {
					s.scanReviews(s.bg)
					all = true
				}
				s.publishSources(s.bg, all, dirty)
			})
		}
	})
	if !ok {
		st.mu.Lock()
		st.running = false
		st.mu.Unlock()
	}
}

// buffers returns the open source documents.
func (s *Server) buffers() map[protocol.DocumentURI]*sourceBuf {
	st := s.src
	st.mu.Lock()
	defer st.mu.Unlock()
	return maps.Clone(st.bufs)
}

// withBuffers returns t (a snapshot) reading the open source documents
// under its root from their buffers. nil stays nil.
func (s *Server) withBuffers(t *worktree.Tree) *worktree.Tree {
	if t == nil {
		return nil
	}
	var files []*worktree.File
	for u, b := range s.buffers() {
		if f := b.fileIn(t, u); f != nil {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return t
	}
	return t.Overlay(files...)
}

// fileIn is the buffer as a file of t, or nil when t does not read it
// (outside the root, or through a link that leads out of it).
func (b *sourceBuf) fileIn(t *worktree.Tree, u protocol.DocumentURI) *worktree.File {
	m := b.mapperOf()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.file != nil && b.root == t.Root() {
		return b.file
	}
	abs := fileOf(string(u))
	if abs == "" {
		return nil
	}
	f, err := t.EditedBuffer(abs, b.text.String(0, b.text.Len()), m, b.base, b.edits)
	if err != nil {
		return nil
	}
	b.root, b.file = t.Root(), f
	b.base, b.edits = nil, nil
	return f
}

// known lists the published sources and the open ones: the
// documents a refresh of everything visits.
func (st *sourceState) known() map[protocol.DocumentURI]bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := map[protocol.DocumentURI]bool{}
	for u := range st.sent {
		out[u] = true
	}
	for u := range st.bufs {
		out[u] = true
	}
	return out
}
