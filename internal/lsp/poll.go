package lsp

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Noticing a file saved outside the editor when the client does not
// watch files. The server asks a client that registers file watchers
// dynamically to watch the reviewed files (watchFiles) and the reviews
// in scope (watchScope); Neovim on Linux, 0.12 too, registers none, so
// source-changed would wait for the next edit of the review, and a
// review changed on disk would never be read again. For such a client
// the server looks itself: it reads the size and modification time of
// the files the open reviews' patches name (at most maxPolled of them)
// and of the reviews in scope on disk with their directories
// (scope_watch.go), and publishes again what changed.
//
// What that costs idle is bounded by design, not by luck: the patch's
// files are looked at in pollSlices parts, one part a round, so each is
// seen once per pollCycle whatever their number; and directory by
// directory, each opened once from its parent through the tree's root
// (never a path resolved again by name), one system call a file, rather
// than every file's path walked from the root, about eight calls a file.
// For 2,000 files that is under 1 % of a core where it was 8 % on the
// same loaded machine (4.7–5 % on the issue's; BenchmarkPollCycle).

// DefaultPoll is how often the server looks at a part of the reviewed
// files of a client that does not watch them.
const DefaultPoll = 250 * time.Millisecond

// pollSlices is how many rounds it takes to look at every reviewed file
// once: at DefaultPoll each is seen within pollCycle, well within the
// two seconds a person waits after saving a source file.
const pollSlices = 6

// pollCycle is the longest a change of a reviewed file waits to be seen.
const pollCycle = pollSlices * DefaultPoll

// maxPolled bounds the files looked at per cycle: a review naming more
// is polled for its first maxPolled files.
const maxPolled = 2000

// fileStamp is what says a file changed.
type fileStamp struct {
	size int64
	mod  time.Time
	ok   bool
}

// stampOf is fi's stamp; a nil fi (unreadable) has none.
func stampOf(fi os.FileInfo) fileStamp {
	if fi == nil {
		return fileStamp{}
	}
	return fileStamp{size: fi.Size(), mod: fi.ModTime(), ok: true}
}

// pollKey names a polled file: the tree's root and its path there.
type pollKey struct{ root, name string }

// patchPoll is the poller's memory of the patches' files: the stamps
// seen, and which part of the files the next round looks at.
type patchPoll struct {
	seen map[pollKey]fileStamp
	part int
	// files are the polled files of this cycle, listed at its start in
	// path order, so that a part holds whole directories.
	files []polledFile
	// lookups counts the files and directories looked at (tests).
	lookups int
}

// polledFile is a file a round looks at: the tree it is in and its
// path there.
type polledFile struct {
	tree *worktree.Tree
	name string
}

// pollRound stats the next part of the polled files and returns those
// that changed since they were last seen (a file seen for the first time
// is not a change), by absolute path, as a watcher names them.
func (s *Server) pollRound(p *patchPoll) []string {
	part := p.part % pollSlices
	p.part = part + 1
	if part == 0 {
		p.files = s.polledFiles()
		live := make(map[pollKey]bool, len(p.files))
		for _, f := range p.files {
			live[pollKey{f.tree.Root(), f.name}] = true
		}
		for k := range p.seen {
			if !live[k] {
				delete(p.seen, k)
			}
		}
	}
	size := (len(p.files) + pollSlices - 1) / pollSlices
	all := p.files[min(len(p.files), part*size):min(len(p.files), (part+1)*size)]
	hit := map[string]bool{}
	for len(all) > 0 {
		t := all[0].tree
		n := 1
		for n < len(all) && all[n].tree.Root() == t.Root() {
			n++
		}
		names := make([]string, n)
		for i := range n {
			names[i] = all[i].name
		}
		p.lookups += statByDir(t.Files(), names, func(i int, fi os.FileInfo) {
			key := pollKey{t.Root(), names[i]}
			now := stampOf(fi)
			before, had := p.seen[key]
			p.seen[key] = now
			if had && before != now {
				hit[filepath.Join(t.Root(), filepath.FromSlash(names[i]))] = true
			}
		})
		all = all[n:]
	}
	var changed []string
	for name := range hit {
		changed = append(changed, name)
	}
	return changed
}

// polledFiles lists the files the open reviews' patches name, at most
// maxPolled, in path order.
func (s *Server) polledFiles() []polledFile {
	w := s.wt
	w.mu.Lock()
	polled := make(map[protocol.DocumentURI][]string, len(w.polled))
	for u, names := range w.polled {
		polled[u] = names
	}
	w.mu.Unlock()
	var all []polledFile
	for u, names := range polled {
		t := s.treeFor(u)
		if t == nil {
			continue
		}
		for _, name := range names[:min(len(names), maxPolled-len(all))] {
			all = append(all, polledFile{t, name})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if a, b := all[i].tree.Root(), all[j].tree.Root(); a != b {
			return a < b
		}
		return all[i].name < all[j].name
	})
	return all
}

// statByDir stats the files names (slash paths under root) directory by
// directory: each directory is opened once, from its parent (itself
// opened once), through root, and its files are looked at from it; fi
// is nil for a file that cannot be read. It returns how many directories
// it opened and files it looked at.
func statByDir(root *os.Root, names []string, each func(i int, fi os.FileInfo)) (lookups int) {
	byDir := map[string][]int{}
	var dirs []string
	for i, name := range names {
		dir := path.Dir(name)
		if byDir[dir] == nil {
			dirs = append(dirs, dir)
		}
		byDir[dir] = append(byDir[dir], i)
	}
	opened := map[string]*os.Root{".": root}
	defer func() {
		for dir, d := range opened {
			if d != nil && dir != "." {
				d.Close()
			}
		}
	}()
	var open func(dir string) *os.Root
	open = func(dir string) *os.Root {
		if d, ok := opened[dir]; ok {
			return d
		}
		var d *os.Root
		if parent := open(path.Dir(dir)); parent != nil {
			lookups++
			if r, err := parent.OpenRoot(path.Base(dir)); err == nil {
				d = r
			}
		}
		opened[dir] = d
		return d
	}
	for _, dir := range dirs {
		d := open(dir)
		for _, i := range byDir[dir] {
			name := names[i]
			var fi os.FileInfo
			var err error
			if d == nil {
				err = os.ErrNotExist
			} else {
				lookups++
				fi, err = d.Stat(path.Base(name))
			}
			if err != nil {
				// A link to elsewhere in the tree leaves the directory:
				// looked at from the tree's root, as it is read.
				if fi, err = root.Stat(name); err != nil {
					fi = nil
				}
			}
			each(i, fi)
		}
	}
	return lookups
}
