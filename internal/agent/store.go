package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Two things the tools share between calls, both keyed by the file's
// resolved path: a queue per file, so that the writes of parallel calls
// land one after the other, each reading what the previous one wrote
// (an agent host issues tool calls in parallel as a matter of course);
// and the reviews read, parsed and checked, so that a read of a file
// nobody changed costs a comparison, not a parse and a check.

// queues serializes the writes to each file, in order of arrival.
type queues struct {
	mu    sync.Mutex
	tails map[string]chan struct{} // closed when the last one queued is done
}

// acquire waits until the calls queued before it on path are done, and
// returns the function that lets the next one go. A call whose context
// ends while it waits leaves the queue in order: the one after it still
// waits for the one before.
func (q *queues) acquire(ctx context.Context, path string) (func(), error) {
	mine := make(chan struct{})
	q.mu.Lock()
	if q.tails == nil {
		q.tails = map[string]chan struct{}{}
	}
	prev := q.tails[path]
	q.tails[path] = mine
	q.mu.Unlock()
	release := func() {
		close(mine)
		q.mu.Lock()
		if q.tails[path] == mine {
			delete(q.tails, path)
		}
		q.mu.Unlock()
	}
	if prev == nil {
		return release, nil
	}
	select {
	case <-prev:
		return release, nil
	case <-ctx.Done():
		go func() { <-prev; release() }()
		return nil, ctx.Err()
	}
}

// fileID is what identifies one version of a file besides its content.
type fileID struct {
	dev, ino uint64
	size     int64
	mtimeNs  int64
}

// reviews holds the reviews read, by path, at most maxCached of them.
type reviews struct {
	mu sync.Mutex
	m  map[string]*parsed
}

// maxCached bounds the reviews kept: an agent works on a few at a time.
const maxCached = 8

// parsed is one version of a review file: its bytes, and what the tools
// compute from them, each made once on first use. Nothing in it changes
// once made, so calls share it.
type parsed struct {
	id   fileID
	data []byte
	// prev and change, when set, are the version this one was written
	// from by one edit and where: it is parsed and checked as an edit of
	// prev (incrementally, as the language server does a keystroke).
	prev    *parsed
	change  exchange.Change
	sumOnce sync.Once
	sum     uint32

	docOnce sync.Once
	doc     *exchange.Document
	repOnce sync.Once
	rep     *anchor.Report
	outOnce sync.Once
	diags   []Diagnostic
	counts  Counts
	comOnce sync.Once
	coms    []Comment
	problem []bool
}

// document is the file parsed.
func (p *parsed) document() *exchange.Document {
	p.docOnce.Do(func() {
		if p.prev != nil {
			p.doc = exchange.ParseEdited(exchange.NewText(p.data), p.prev.document(), p.change)
		} else {
			p.doc = exchange.Parse(p.data)
		}
	})
	return p.doc
}

// report is the file checked and anchored.
func (p *parsed) report() *anchor.Report {
	p.repOnce.Do(func() {
		var prev *anchor.Report
		if p.prev != nil {
			prev = p.prev.report()
		}
		p.rep = anchor.CheckDocument(p.document(), prev)
		p.prev = nil // what was carried over is in rep: let the older version go
	})
	return p.rep
}

// checksum is the data's CRC-32, which page cursors carry.
func (p *parsed) checksum() uint32 {
	p.sumOnce.Do(func() { p.sum = crc32.ChecksumIEEE(p.data) })
	return p.sum
}

// lookup returns the version of path whose bytes are data, read when the
// file's identity was id: the one cached when both agree (a change by
// someone else changes the identity or the bytes), else a new one, which
// replaces it.
func (c *reviews) lookup(path string, id fileID, data []byte) *parsed {
	c.mu.Lock()
	p := c.m[path]
	c.mu.Unlock()
	if p != nil && p.id == id && bytes.Equal(p.data, data) {
		return p
	}
	return c.put(path, &parsed{id: id, data: data})
}

// put records p as what path holds.
func (c *reviews) put(path string, p *parsed) *parsed {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*parsed{}
	}
	if _, ok := c.m[path]; !ok && len(c.m) >= maxCached {
		for k := range c.m { // any one: the map is small and the cost is one parse
			delete(c.m, k)
			break
		}
	}
	c.m[path] = p
	return p
}

// identity stats rel through the root; the zero fileID when it cannot
// (then nothing cached matches, since the content check still runs).
func (s *server) identity(rel string) fileID {
	fi, err := s.files.Stat(rel)
	if err != nil {
		return fileID{}
	}
	return idOf(fi)
}

func idOf(fi fs.FileInfo) fileID {
	id := fileID{size: fi.Size(), mtimeNs: fi.ModTime().UnixNano()}
	id.dev, id.ino = sysID(fi)
	return id
}

// queued waits for the file member names to be this call's to write (the
// calls before it on that file are done) and returns the function that
// ends its turn. Every tool that writes a file holds its turn from before
// it reads the file to after it wrote it.
func (s *server) queued(ctx context.Context, member, name string) (func(), error) {
	rel, err := s.resolve(member, name)
	if err != nil {
		return nil, err
	}
	return s.queue.acquire(ctx, rel)
}

// wrote records data, just written over the review r read, with identity
// id: as an edit of the version read when r says where its one edit was.
func (c *reviews) wrote(r *review, id fileID, data []byte) *parsed {
	p := &parsed{id: id, data: data}
	if r.change != nil && r.p != nil {
		p.prev, p.change = r.p, *r.change
	}
	return c.put(r.path, p)
}

// readCached reads the review file member names for a tool that only
// reads it: when the file's identity is the one cached, its bytes are
// read into a buffer of that size and compared, and the version cached
// serves (a read of 8 MB and a comparison, where a parse and a check cost
// fifty times more); else it is read as the writing tools read it.
func (s *server) readCached(member, name string, strict bool) (*review, error) {
	rel, err := s.resolve(member, name)
	if err != nil {
		return nil, err
	}
	s.cache.mu.Lock()
	p := s.cache.m[rel]
	s.cache.mu.Unlock()
	if p != nil && p.id == s.identity(rel) && s.sameContent(rel, p.data) && !(strict && refusedStrict(p.document())) {
		r := &review{name: s.display(rel), doc: p.document(), path: rel, p: p}
		if err := notReview(r); err != nil {
			return nil, err
		}
		return r, nil
	}
	return s.readReview(member, name, strict)
}

// refusedStrict reports whether readReview, strict, refuses doc: that
// path says why.
func refusedStrict(doc *exchange.Document) bool {
	return len(doc.Syntax) > 0 || doc.Review.Node == nil
}

// sameContent reports whether the file at rel holds data: read through
// the root, in chunks compared as they come, so that the check allocates
// no copy of the file.
func (s *server) sameContent(rel string, data []byte) bool {
	f, _, err := filewrite.OpenIn(s.files, rel)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return len(data) == 0
		case err != nil:
			return false
		}
	}
}

// trees keeps the working trees opened, by directory relative to the
// root: a handful in practice (the root, or a repository inside it).
type trees struct {
	mu sync.Mutex
	m  map[string]*worktree.Tree
}

// maxTrees bounds the trees kept; past it, the next one opened replaces
// them all. Those are dropped, not closed: a call may still be reading
// through one, and os.Root closes its descriptor once nothing holds it.
const maxTrees = 16

// open returns the tree at dir, relative to s's root, opened through the
// root the first time.
func (c *trees) open(s *server, dir string) (*worktree.Tree, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.m[dir]; ok {
		return t, nil
	}
	files, err := s.files.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", filepath.ToSlash(dir), unwrapPath(err))
	}
	if c.m == nil || len(c.m) >= maxTrees {
		c.m = map[string]*worktree.Tree{}
	}
	t := worktree.OpenIn(filepath.Join(s.root, dir), files)
	c.m[dir] = t
	return t, nil
}
