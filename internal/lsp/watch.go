package lsp

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// One way of watching files. What the server watches is the union of
// the files the open reviews' patches name (watchFiles), the reviews in
// scope with their directories and the files they name (watchScope),
// and the bodies opened as files (bodyfile.go). A client that registers
// file watchers dynamically is asked to watch the first two
// (registerWatchers), and tells of their changes by
// workspace/didChangeWatchedFiles; for any other client (Neovim on
// Linux registers none) one poller looks at them itself. The body files,
// in a directory of the server's outside the workspace (where clients do
// not reliably watch), are always looked at by the poller. Either way a
// change enters the session through modifyFiles (modify.go), as a
// fileOnDisk modification, the scope's reviews too (pollScope), but for
// the body files, which the poller writes back into their reviews.

// watching reports whether the client watches files for the server.
func (s *Server) watching() bool {
	w := s.wt
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.watch
}

// registerWatchers asks the client to watch patterns under id, in place
// of what it registered under id before (had).
func (s *Server) registerWatchers(id string, had bool, patterns []string) error {
	watchers := make([]protocol.FileSystemWatcher, len(patterns))
	for i, p := range patterns {
		watchers[i] = protocol.FileSystemWatcher{GlobPattern: p, Kind: protocol.WatchKindChange + protocol.WatchKindCreate + protocol.WatchKindDelete}
	}
	if had {
		_ = s.withdrawWatchers(id)
	}
	_, err := s.conn.Call(s.bg, "client/registerCapability", &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: id, Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}, nil)
	return err
}

// withdrawWatchers asks the client to stop watching what it registered
// under id.
func (s *Server) withdrawWatchers(id string) error {
	_, err := s.conn.Call(s.bg, "client/unregisterCapability", &protocol.UnregistrationParams{Unregisterations: []protocol.Unregistration{{ID: id, Method: "workspace/didChangeWatchedFiles"}}}, nil)
	return err
}

// startPolling starts the poller, once: at initialize for a client that
// watches no files, or when the first body file is written.
func (s *Server) startPolling() {
	if s.polling.Swap(true) {
		return
	}
	if !s.spawn(s.poll) {
		s.polling.Store(false)
	}
}

// poll looks at what is watched every Options.Poll until Serve returns:
// the body files always, the patches' files and the reviews in scope
// when the client does not watch them (and Options.Poll is not
// negative). Then it removes the body files.
func (s *Server) poll() {
	every := s.opts.Poll
	if every <= 0 {
		every = DefaultPoll
	}
	files := s.opts.Poll >= 0 && !s.watching()
	patch := &patchPoll{seen: map[pollKey]fileStamp{}}
	scope := newScopePoll()
	tick := time.NewTicker(every)
	defer tick.Stop()
	defer s.bodies.removeDir()
	for {
		select {
		case <-s.bg.Done():
			return
		case <-tick.C:
		}
		if files {
			if changed := s.pollRound(patch); len(changed) > 0 {
				_ = s.modifyFiles(modification{action: fileOnDisk, paths: changed})
			}
			if patch.part%pollSlices == 0 { // a cycle ended
				s.pollScope(scope)
			}
		}
		for _, f := range s.savedBodies() {
			s.writeBack(f)
		}
	}
}

// The poller reads the size and modification time of the files the
// open reviews' patches name (at most maxPolled of them) and of the
// reviews in scope on disk with their directories (scope_watch.go):
// without it, for a client that registers no watchers (Neovim 0.12
// too), source-changed would wait for the next edit of the review, and
// a review changed on disk would never be read again.
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
		maps.DeleteFunc(p.seen, func(k pollKey, _ fileStamp) bool { return !live[k] })
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
	return slices.Collect(maps.Keys(hit))
}

// polledFiles lists the files the open reviews' patches name, at most
// maxPolled, in path order.
func (s *Server) polledFiles() []polledFile {
	w := s.wt
	w.mu.Lock()
	polled := maps.Clone(w.polled)
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
