package reviewfile

import (
	"bytes"
	"context"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// ID is what identifies one version of a file besides its bytes: the
// device and inode (zero where the system gives none), the size and the
// modification time in nanoseconds, all as the descriptor read said.
type ID struct {
	Dev, Ino uint64
	Size     int64
	MtimeNs  int64
}

// IDOf is the identity fi, a descriptor's stat, gives.
func IDOf(fi fs.FileInfo) ID {
	id := ID{Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano()}
	id.Dev, id.Ino = sysID(fi)
	return id
}

// Version is one version of a review file: its identity, its bytes, and
// the document and analysis made from them once, on first use. Nothing
// in it changes once made, so every holder shares it.
type Version struct {
	id   ID
	data []byte

	// prev and change, when prev is set, are the version this one was
	// written from by one edit and where it was: it is parsed as an edit
	// of prev, and checked from prev's analysis when prev has one (as the
	// language server does a keystroke). Dropped once the analysis is
	// made, so that the older version can go.
	prev   *Version
	change exchange.Change

	docOnce sync.Once
	doc     *exchange.Document

	// turn, a one-slot semaphore, is held by the call making the
	// analysis: a call whose context ends while it waits leaves, and one
	// cancelled while it analyses leaves it to the next call. an is set
	// once, holding turn, and read without it.
	turn chan struct{}
	an   atomic.Pointer[anchor.Analysis]
}

// New is the version of a file whose bytes are data, read when the
// file's identity was id. data is the Version's from then on: the caller
// must not change it.
func New(id ID, data []byte) *Version {
	return &Version{id: id, data: data, turn: make(chan struct{}, 1)}
}

// Edited is the version with identity id and bytes data that v's bytes
// became by one edit, ch saying where: it is parsed and checked as an
// edit of v.
func (v *Version) Edited(id ID, data []byte, ch exchange.Change) *Version {
	n := New(id, data)
	n.prev, n.change = v, ch
	return n
}

// ID is the file's identity when its bytes were read or written.
func (v *Version) ID() ID { return v.id }

// Bytes are the file's bytes; the caller must not change them.
func (v *Version) Bytes() []byte { return v.data }

// Current is the staleness rule, the one every holder of versions
// applies: v is still what the file holds when the file's identity is
// v's and, when the caller holds the file's bytes (data not nil), they
// are v's too. The identity alone spares reading a file nobody changed
// (the scope of the language server looks at dozens of reviews); the
// bytes, when already read, cost a comparison and catch what the
// identity misses: a rewrite in place of the same size within the
// clock's resolution, or a modification time set back, where the system
// gives no inode or keeps it.
func (v *Version) Current(id ID, data []byte) bool {
	return v.id == id && (data == nil || bytes.Equal(v.data, data))
}

// Document is the file parsed (as an edit of the version it was written
// from, when there is one).
func (v *Version) Document() *exchange.Document {
	v.docOnce.Do(func() {
		var prev *exchange.Document
		var ch *exchange.Change
		if v.prev != nil {
			prev, ch = v.prev.Document(), &v.change
		}
		v.doc = parse(exchange.NewText(v.data), prev, ch)
	})
	return v.doc
}

// Analysis is the file checked and anchored, made by the first call that
// asks and shared by all; it stops with ctx's error at Analyze's
// checkpoints, and a later call then makes it.
func (v *Version) Analysis(ctx context.Context) (*anchor.Analysis, error) {
	if an := v.an.Load(); an != nil {
		return an, nil
	}
	select {
	case v.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-v.turn }()
	if an := v.an.Load(); an != nil {
		return an, nil // made while this call waited
	}
	doc := v.Document()
	var prev *anchor.Analysis
	if v.prev != nil {
		// The version written from carries its analysis forward only when
		// it has one: making it here would cost more than the check it
		// spares.
		prev = v.prev.Analysed()
	}
	an, err := check(ctx, doc, prev)
	if err != nil {
		return nil, err
	}
	v.prev = nil
	v.an.Store(an)
	return an, nil
}

// Analysed is v's analysis when it is made, else nil, without waiting.
func (v *Version) Analysed() *anchor.Analysis { return v.an.Load() }
