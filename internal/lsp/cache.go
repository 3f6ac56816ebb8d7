package lsp

import (
	"cmp"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// versionCache holds what requests reuse of one version of a document:
// its semantic tokens, its outline's part for the patch. Each is made from the version's analysis
// and never changes once made; the cache only swaps which one it holds.
// Its lock is held only to read or swap them, never while one is made:
// the next version's cache reads them (next) under Server.mu.
//
// A version starts with the newest results made for the versions before
// it (prior), and what it needs of them: the tokens and the outline's part
// with the place of the patch they were made for, moved through the edits
// since, so that a result whose patch an edit left alone is taken over.
type versionCache struct {
	mu      sync.Mutex
	tokens  *tokenResult
	outline *outlinePart
	prior   priorResults
}

// priorResults are the newest results of the versions before one.
type priorResults struct {
	tokens  *tokenResult
	outline *outlinePart
}

// next returns the cache of the version after c's, whose text differs
// from c's as ch says, c's text being oldLen bytes long and the next's
// newLen. It holds no result of its own yet.
func (c *versionCache) next(ch exchange.Change, oldLen, newLen int) *versionCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := &versionCache{}
	if t := cmp.Or(c.tokens, c.prior.tokens); t != nil {
		if k := t.patch.through(ch, oldLen, newLen); !k.stale {
			n.prior.tokens = &tokenResult{id: t.id, patch: k}
		}
	}
	if o := cmp.Or(c.outline, c.prior.outline); o != nil {
		if k := o.patch.through(ch, oldLen, newLen); !k.stale {
			moved := *o
			moved.patch = k
			n.prior.outline = &moved
		}
	}
	return n
}

// patchKey is what a result that depends on the patch alone (tokens, the
// outline's files and hunks) depends on: the patch's bytes, where they
// begin, and the encoding of positions. Every position in such a result
// follows from where the patch begins and its own bytes, so the result
// holds for any version whose patch has the same bytes and begins at the
// same position, whatever its offset.
type patchKey struct {
	// span is where the patch's bytes are in the text (empty when the
	// document has none), at is the position of its start.
	span exchange.Range
	at   protocol.Position
	enc  exchange.Encoding
	// stale is set once an edit touched those bytes: the key then
	// matches no version.
	stale bool
}

func patchKeyOf(conv Converter, doc *exchange.Document) patchKey {
	k := patchKey{enc: conv.Enc}
	if n := doc.Review.Patch.Node; n != nil {
		k.span, k.at = exchange.Range{Start: n.Start, End: n.End}, conv.Position(n.Start)
	}
	return k
}

// through returns k for a text that differs from k's as ch says, the
// earlier text being oldLen bytes long and the later newLen: the same
// bytes, moved with the text after the edit, or stale when the edit
// touched them.
func (k patchKey) through(ch exchange.Change, oldLen, newLen int) patchKey {
	switch {
	case k.span.End <= ch.Prefix:
	case k.span.Start >= oldLen-ch.Suffix:
		delta := newLen - oldLen
		k.span = exchange.Range{Start: k.span.Start + delta, End: k.span.End + delta}
	default:
		k.stale = true
	}
	return k
}
