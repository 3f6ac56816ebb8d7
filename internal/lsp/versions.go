package lsp

import (
	"bytes"
	"slices"
	"sync"
	"time"

	"github.com/leanreview/lreview-lsp/internal/transport"
	"go.lsp.dev/protocol"
)

// Edits applied in version order (issue 45). A ranged change is relative
// to the text of the version before it: applied out of order, every edit
// after it lands on the wrong bytes, and the server would go on with a
// text the editor does not have. So each open document, review or
// source, has its changes admitted in order:
//
//   - a change whose version is above the next one is held until the
//     versions before it arrive (Helix sends version 6 before 5 when one
//     types fast), at most versionWait and maxHeld changes. A gap that is
//     still open then is logged and the held changes applied in order:
//     LSP lets versions skip numbers, and Neovim's do (a change's version
//     is the buffer's changedtick, and changes are sent in batches). A
//     request releases them at once (releaseAllHeld): it follows every
//     change its client made before it;
//   - a change whose version is not above the last one applied (a
//     duplicate, a version that goes back, or one that comes after its
//     gap was given up on) is logged, and the document's ranged changes
//     are ignored until a change gives its full text or it is reopened:
//     the server never merges a change into a text it was not made for;
//   - a change to a document not open yet is held for its didOpen, at
//     most openWait, and admitted after the open (Helix sends the change
//     of an edit to a file it opens for that edit first). A request does
//     not release it: no request reads a document not open.

// versionWait bounds how long a change waits for the versions before it.
const versionWait = 50 * time.Millisecond

// maxHeld bounds the changes of one document held at once.
const maxHeld = 64

// versionGate orders each open document's changes. Its mutex is taken
// before Server.mu and sourceState.mu (changes are applied under it, so
// that a held change released by its timer and the next change never run
// at once), never after them.
type versionGate struct {
	mu   sync.Mutex
	docs map[protocol.DocumentURI]*docVersions
}

// docVersions is one open document's order: the last version applied,
// the changes held for a gap, and whether its text is no longer known.
type docVersions struct {
	last  int32
	held  []*transport.ChangeParams
	timer *time.Timer
	lost  bool
	// unopened: the changes held came before the document's didOpen
	// (Helix sends the didChange of an edit to a file it opens for that
	// edit before the file's didOpen); the open applies them.
	unopened bool
}

// openWait bounds how long a change to a document not open waits for its
// didOpen: then it is applied, which says the document is not open.
const openWait = time.Second

// opened starts a document's order at its didOpen's version, and returns
// the changes that came before the didOpen, for the caller to admit once
// the document is open.
func (g *versionGate) opened(uri protocol.DocumentURI, version int32) []*transport.ChangeParams {
	g.mu.Lock()
	defer g.mu.Unlock()
	var early []*transport.ChangeParams
	if d := g.docs[uri]; d != nil {
		if d.timer != nil {
			d.timer.Stop()
		}
		if d.unopened {
			early = d.held
		}
	}
	g.docs[uri] = &docVersions{last: version}
	return early
}

// holdUnopened holds a change to a document not open, for its didOpen,
// openWait at most. g.mu must be held.
func (s *Server) holdUnopened(p *transport.ChangeParams, apply func(*transport.ChangeParams) error) error {
	g := &s.versions
	uri := p.TextDocument.URI
	d := g.docs[uri]
	if d == nil {
		d = &docVersions{unopened: true}
		g.docs[uri] = d
	}
	if len(d.held) >= maxHeld {
		return apply(p) // not open: apply says so
	}
	d.held = append(d.held, ownChange(p))
	if d.timer == nil {
		d.timer = time.AfterFunc(openWait, func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.docs[uri] != d {
				return // opened meanwhile
			}
			delete(g.docs, uri)
			for _, h := range d.held {
				if err := apply(h); err != nil {
					s.logf(protocol.MessageTypeError, "%v", err)
				}
			}
		})
	}
	return nil
}

// closed forgets a document's order.
func (g *versionGate) closed(uri protocol.DocumentURI) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if d := g.docs[uri]; d != nil && d.timer != nil {
		d.timer.Stop()
	}
	delete(g.docs, uri)
}

// fullText reports whether a change gives the document's whole text.
func fullText(p *transport.ChangeParams) bool {
	return len(p.ContentChanges) > 0 && p.ContentChanges[0].Range == nil
}

// changeInOrder admits a didChange (see above) and applies, through
// apply, what can be applied now, in version order.
func (s *Server) changeInOrder(p *transport.ChangeParams, apply func(*transport.ChangeParams) error) error {
	g := &s.versions
	g.mu.Lock()
	defer g.mu.Unlock()
	uri, v := p.TextDocument.URI, p.TextDocument.Version
	d := g.docs[uri]
	switch {
	case d == nil || d.unopened:
		return s.holdUnopened(p, apply)
	case fullText(p):
		// The whole text: whatever came before, it is the text now.
		d.lost, d.held = false, nil
		d.last = v
		return apply(p)
	case d.lost:
		return nil // logged when it was lost
	case v <= d.last || slices.ContainsFunc(d.held, func(h *transport.ChangeParams) bool { return h.TextDocument.Version == v }):
		s.lose(d, "didChange for %s: version %d after version %d: the changes are no longer in order; the document is read again from its next full-text change, or when it is reopened", uri, v, d.last)
		return nil
	case v != d.last+1:
		d.held = append(d.held, ownChange(p))
		slices.SortFunc(d.held, func(a, b *transport.ChangeParams) int { return int(a.TextDocument.Version - b.TextDocument.Version) })
		if len(d.held) > maxHeld {
			return s.releaseHeld(d, uri, apply)
		}
		if d.timer == nil {
			d.timer = time.AfterFunc(versionWait, func() {
				g.mu.Lock()
				defer g.mu.Unlock()
				if g.docs[uri] == d {
					d.timer = nil
					if err := s.releaseHeld(d, uri, apply); err != nil {
						s.logf(protocol.MessageTypeError, "%v", err)
					}
				}
			})
		}
		return nil
	}
	d.last = v
	err := apply(p)
	for err == nil && len(d.held) > 0 && d.held[0].TextDocument.Version == d.last+1 {
		next := d.held[0]
		d.held = d.held[1:]
		d.last = next.TextDocument.Version
		err = apply(next)
	}
	if len(d.held) == 0 && d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	return err
}

// releaseHeld applies the held changes in version order once their gap
// was waited for: the versions skipped are logged. g.mu must be held.
func (s *Server) releaseHeld(d *docVersions, uri protocol.DocumentURI, apply func(*transport.ChangeParams) error) error {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	held := d.held
	d.held = nil
	var err error
	for _, h := range held {
		if h.TextDocument.Version != d.last+1 {
			s.logf(protocol.MessageTypeLog, "didChange for %s: version %d follows version %d; the versions between never came", uri, h.TextDocument.Version, d.last)
		}
		d.last = h.TextDocument.Version
		if e := apply(h); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// releaseAllHeld applies every document's held changes at once: a request
// comes after every change its client made before it, so the versions
// still missing then are ones the client skipped (Neovim's changedtick),
// not changes on their way, and the request must see the text the client
// sees. A version that comes later than that is out of order, and loses
// the document (changeInOrder).
func (s *Server) releaseAllHeld() {
	g := &s.versions
	g.mu.Lock()
	defer g.mu.Unlock()
	for uri, d := range g.docs {
		if len(d.held) == 0 || d.unopened {
			continue // a document not open yet: no request reads it
		}
		if err := s.releaseHeld(d, uri, s.applyChange); err != nil {
			s.logf(protocol.MessageTypeError, "%v", err)
		}
	}
}

// lose marks a document's text as no longer known and logs why.
func (s *Server) lose(d *docVersions, format string, args ...any) {
	d.lost, d.held = true, nil
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	s.logf(protocol.MessageTypeError, format, args...)
}

// ownChange copies a change's texts, which are views of the message's
// buffer, so that it may be held past its handler.
func ownChange(p *transport.ChangeParams) *transport.ChangeParams {
	q := &transport.ChangeParams{TextDocument: p.TextDocument, ContentChanges: make([]transport.ContentChange, len(p.ContentChanges))}
	for i, ch := range p.ContentChanges {
		q.ContentChanges[i] = transport.ContentChange{Range: ch.Range, Text: bytes.Clone(ch.Text)}
	}
	return q
}
