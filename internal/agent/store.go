package agent

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
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
	p.docOnce.Do(func() { p.doc = exchange.Parse(p.data) })
	return p.doc
}

// report is the file checked and anchored.
func (p *parsed) report() *anchor.Report {
	p.repOnce.Do(func() { p.rep = anchor.CheckDocument(p.document(), nil) })
	return p.rep
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
	return c.put(path, id, data)
}

// put records data as what path holds, with identity id.
func (c *reviews) put(path string, id fileID, data []byte) *parsed {
	p := &parsed{id: id, data: data}
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

// identity stats path; the zero fileID when it cannot (then nothing
// cached matches, since the content check still runs).
func identity(path string) fileID {
	fi, err := os.Stat(path)
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
	path, err := s.resolve(member, name)
	if err != nil {
		return nil, err
	}
	return s.queue.acquire(ctx, path)
}
