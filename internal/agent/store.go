package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Two things the tools share between calls, both keyed by the file's
// resolved path: a queue per file, so that the writes of parallel calls
// land one after the other, each reading what the previous one wrote
// (an agent host issues tool calls in parallel as a matter of course);
// and the reviews read, parsed and checked (a reviewfile.Cache), so that
// a read of a file nobody changed costs a stat, not a parse and a check.

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

// maxCached bounds the reviews the cache keeps (reviewfile.Cache, least
// recently used out first): an agent works on a few at a time.
const maxCached = 8

// outputs are what the read-only tools list from one version of a
// review, made once: its checksum (page cursors carry it), its
// diagnostics and its comments in the tools' shape (paging through 2,000
// comments converts them once, not once a page). They are not a second
// cache: one a path, for the version the cache holds, dropped when the
// cache lets that version go.
type outputs struct {
	v        *reviewfile.Version
	sumOnce  sync.Once
	sum      uint32
	diagOnce sync.Once
	diags    []Diagnostic
	counts   Counts
	comOnce  sync.Once
	coms     []Comment
	problem  []bool
}

// outputMemo holds the outputs, by path under the root.
type outputMemo struct {
	mu     sync.Mutex
	byPath map[string]*outputs
}

// outputsOf are the outputs of v, the version of path just read.
func (s *server) outputsOf(path string, v *reviewfile.Version) *outputs {
	m := s.outputs
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byPath == nil {
		m.byPath = map[string]*outputs{}
	}
	o := m.byPath[path]
	if o == nil || o.v != v {
		o = &outputs{v: v}
		m.byPath[path] = o
	}
	for p, x := range m.byPath {
		if !s.cache.Holds(p, x.v) {
			delete(m.byPath, p)
		}
	}
	return o
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

// readCached reads the review file member names for a tool that only
// reads it: the version cached serves while the file's identity is the
// one it was read at (reviewfile.Version.Current: a stat, where a parse
// and a check cost a thousand times more); else the file is read again.
// The tools that write read with readReview, which compares the bytes
// too, and filewrite refuses a write over a file changed since.
func (s *server) readCached(member, name string, strict bool) (*review, error) {
	rel, err := s.resolve(member, name)
	if err != nil {
		return nil, err
	}
	v, err := s.cache.ReadIn(s.files, rel, rel)
	if err != nil {
		return nil, s.fileError(member, name, err)
	}
	r := &review{name: s.display(rel), doc: v.Document(), path: rel, v: v, out: s.outputsOf(rel, v)}
	if err := r.refuse(member, strict); err != nil {
		return nil, err
	}
	return r, nil
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
