package lsp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The reviews in scope: those open in the editor, with their unsaved
// text, and the review files under the source roots that match the
// setting reviews (globs; "**/*.review.json" by default), whether or not
// they are open. A review on disk is kept as one reviewfile.Version,
// analysed, read again only when the file's identity changed
// (Version.Current): no snapshots, no history. An open review stands for
// its file on disk.

// The scan's bounds: a workspace is not searched without end. A scan
// that stops at one says so to the person, once per root and bound.
const (
	// maxScopeReviews is how many review files the scan keeps (the
	// shallowest first, then in path order).
	maxScopeReviews = 64
	// maxScanEntries bounds the directory entries a scan visits.
	maxScanEntries = 200_000
	// maxScanDepth bounds how deep under a root the scan goes.
	maxScanDepth = 64
	// maxScanWork bounds the glob segments a scan matches (path.Match
	// calls): with the default glob, one an entry.
	maxScanWork = 4 * maxScanEntries
	// maxScanWait bounds how long a request waits for the first scan,
	// which the answer needs: a hover in a source file while the scan
	// runs would otherwise be empty.
	maxScanWait = 3 * time.Second
)

// scanLimits are a walk's bounds (tests walk with small ones).
type scanLimits struct{ entries, depth, work int }

// defaultScanLimits are the walk's bounds.
func defaultScanLimits() scanLimits {
	return scanLimits{entries: maxScanEntries, depth: maxScanDepth, work: maxScanWork}
}

// scanState orders the walks and the re-reads of review files.
type scanState struct {
	// mu is held by a walk (scanReviews) or a re-read (rereadReviews):
	// one never stores a read older than the other's.
	mu sync.Mutex
	// first is closed once the first walk is done.
	first     chan struct{}
	firstOnce sync.Once
	// walks counts the walks done; beforeWalk, when set, runs as one
	// starts (tests).
	walks      int
	beforeWalk func()
	// said are the bounds already reported, by root and bound.
	said map[string]bool
	// walked is when the last walk ended, and took how long it took
	// (the poller walks again after a multiple of it).
	walked time.Time
	took   time.Duration
}

func newScanState() *scanState {
	return &scanState{first: make(chan struct{}), said: map[string]bool{}}
}

// defaultReviewGlobs is the setting reviews' default.
func defaultReviewGlobs() []string { return []string{"**/*.review.json"} }

// scopedReview is one review in scope, as a request or a publish sees it.
type scopedReview struct {
	uri protocol.DocumentURI
	// name is the file's base name, which messages give when more than
	// one review is in scope.
	name string
	// open: the editor has the review open; version is then its version.
	open    bool
	version int32
	an      *anchor.Analysis
	// tree is the review's working tree, reading the open source
	// documents from their buffers.
	tree *worktree.Tree
}

// scopeRoots are the directories whose reviews are in scope: the setting
// sourceRoot, else the workspace folders, else the repositories (the
// nearest ancestors holding .git) of the open documents.
func (s *Server) scopeRoots() []string {
	settings := s.currentSettings()
	if settings.WorkingTree != nil && !*settings.WorkingTree {
		return nil
	}
	if root := s.scopeSetting().root; root != "" {
		return []string{root}
	}
	w := s.wt
	w.mu.Lock()
	folders := slices.Clone(w.folders)
	w.mu.Unlock()
	if len(folders) > 0 {
		return folders
	}
	var roots []string
	names := slices.Collect(maps.Keys(s.openReviewPaths()))
	for u := range s.buffers() {
		names = append(names, fileOf(string(u)))
	}
	for _, n := range names {
		if r := worktree.FindRoot(n); n != "" && r != "" && !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	return roots
}

// scanReviews walks the roots for the review files in scope and reads
// those new or changed since the last walk (readDisk), keeping only what
// it found. It reports whether the reviews on disk changed.
func (s *Server) scanReviews(ctx context.Context) bool {
	sc := s.wt.scan
	if sc.beforeWalk != nil {
		sc.beforeWalk()
	}
	sc.mu.Lock()
	sc.walks++
	began := time.Now()
	globs := s.scopeSetting().globs
	found := 0
	next, changed, done := s.readDisk(ctx, true, func(root string, r *os.Root, _ map[string]*reviewfile.Version) []string {
		rels, bound := findReviews(ctx, r, globs, maxScopeReviews-found, defaultScanLimits())
		found += len(rels)
		if bound != "" && ctx.Err() == nil && !sc.said[root+"\x00"+bound] {
			sc.said[root+"\x00"+bound] = true
			s.showf(protocol.MessageTypeWarning, "stopped looking for reviews under %s %s, %d found; narrow the setting lreview.reviews or lreview.sourceRoot", root, bound, len(rels))
		}
		names := make([]string, len(rels))
		for i, rel := range rels {
			names[i] = filepath.Join(root, rel)
		}
		return names
	})
	if !done {
		sc.mu.Unlock()
		return false
	}
	sc.walked, sc.took = time.Now(), time.Since(began)
	sc.firstOnce.Do(func() { close(sc.first) })
	sc.mu.Unlock()
	s.watchScope(globs, next)
	return changed
}

// readDisk is the one way review files on disk come into the scope, for
// the walk and the re-reads alike, sc.mu held: under each root, through
// one os.Root of it, pick names the files to read, given known, the
// reviews on disk so far. A file is parsed again only when its identity
// changed (reviewfile.ReadIn), dropped when gone or unreadable, added while
// fewer than maxScopeReviews are kept. A walk (fresh) keeps only what it
// picked, a re-read the others too. Reviews open in the editor are not
// kept: their buffers stand for them. It stores the result and reports
// whether it changed; done is false, nothing stored, once ctx is done.
func (s *Server) readDisk(ctx context.Context, fresh bool, pick func(root string, r *os.Root, known map[string]*reviewfile.Version) []string) (next map[string]*reviewfile.Version, changed, done bool) {
	open := s.openReviewPaths()
	known := s.diskReviews()
	next = map[string]*reviewfile.Version{}
	if !fresh {
		next = maps.Clone(known)
		known = next
	}
	for _, root := range s.scopeRoots() {
		r, err := os.OpenRoot(root)
		if err != nil {
			continue
		}
		for _, name := range pick(root, r, known) {
			rel, err := filepath.Rel(root, name)
			if err != nil || open[name] || ctx.Err() != nil {
				continue
			}
			// Not a regular file, larger than filewrite.MaxSize,
			// unreadable, or ctx done: not in scope (no one to tell).
			v, err := reviewfile.ReadIn(r, rel, known[name])
			if err == nil {
				_, err = v.Analysis(ctx)
			}
			switch {
			case err != nil:
				delete(next, name)
			case next[name] != nil || len(next) < maxScopeReviews:
				next[name] = v
			}
		}
		r.Close()
	}
	if ctx.Err() != nil {
		return nil, false, false // cancelled: what it read may be part of the scope only
	}
	// A review opened while this read it: its buffer stands for it.
	for name := range s.openReviewPaths() {
		delete(next, name)
	}
	st := s.src
	st.mu.Lock()
	changed = !maps.Equal(st.disk, next)
	st.disk = next
	st.mu.Unlock()
	return next, changed, true
}

// openReviewPaths are the paths of the reviews open in the editor.
func (s *Server) openReviewPaths() map[string]bool {
	open := map[string]bool{}
	s.mu.Lock()
	defer s.mu.Unlock()
	for u := range s.files {
		open[fileOf(string(u))] = true
	}
	return open
}

// diskReviews are the reviews in scope on disk, by path: the map is
// replaced whole, never changed, and may be read without the lock.
func (s *Server) diskReviews() map[string]*reviewfile.Version {
	st := s.src
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.disk
}

// dropDiskReview forgets the parse of uri's file on disk once the editor
// has the review open: its buffer stands for the file, and a second parse
// of a big review is not kept beside it (closing it scans again). The map
// is replaced, not changed, as a scan may be reading the one it replaces.
func (s *Server) dropDiskReview(uri protocol.DocumentURI) {
	name := fileOf(string(uri))
	st := s.src
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.disk[name] == nil {
		return
	}
	next := maps.Clone(st.disk)
	delete(next, name)
	st.disk = next
}

// scanDir is a directory the walk has yet to read: its slash path under
// the root, its depth, and each glob's state there.
type scanDir struct {
	rel    string
	depth  int
	states []globState
}

// findReviews walks root breadth first — the reviews near the top of a
// large tree are found before the bounds are met deep in it — for the
// files whose path under it matches one of globs, skipping .git,
// node_modules and any directory no glob can match under (nothing outside
// root is visited, symbolic links included). It stops at max files, at
// the limits (entries visited, levels, glob segments matched), and when
// ctx is done; the files found are returned in path order,
// relative to root, with the bound that stopped it ("" when none did).
func findReviews(ctx context.Context, root *os.Root, globs []reviewGlob, max int, lim scanLimits) (found []string, bound string) {
	if max <= 0 || len(globs) == 0 {
		return nil, ""
	}
	start := make([]globState, len(globs))
	for i, g := range globs {
		start[i] = g.start()
	}
	queue := []scanDir{{rel: ".", states: start}}
	visited, work, deep := 0, 0, ""
	for len(queue) > 0 && len(found) < max && bound == "" && ctx.Err() == nil {
		d := queue[0]
		queue = queue[1:]
		entries, full := readDirBounded(root, d.rel, lim.entries-visited)
		visited += len(entries)
		if full {
			bound = fmt.Sprintf("after %d directory entries", lim.entries)
		}
		for _, e := range entries {
			if len(found) >= max || work > lim.work {
				break
			}
			name := e.Name()
			rel := name
			if d.rel != "." {
				rel = d.rel + "/" + name
			}
			switch {
			case e.IsDir():
				if name == ".git" || name == "node_modules" {
					continue
				}
				next, alive := make([]globState, len(globs)), false
				for i, g := range globs {
					if d.states[i] != 0 {
						next[i] = g.step(d.states[i], name, &work)
						alive = alive || g.alive(next[i])
					}
				}
				switch {
				case !alive:
				case d.depth+1 >= lim.depth:
					deep = fmt.Sprintf("at %d directories deep", lim.depth) // the walk goes on

				default:
					queue = append(queue, scanDir{rel: rel, depth: d.depth + 1, states: next})
				}
			case e.Type().IsRegular():
				for i, g := range globs {
					if d.states[i] != 0 && g.matched(g.step(d.states[i], name, &work)) {
						found = append(found, filepath.FromSlash(rel))
						break
					}
				}
			}
		}
		if work > lim.work {
			bound = fmt.Sprintf("after %d glob matches", lim.work)
		}
	}
	sort.Strings(found)
	return found, cmp.Or(bound, deep)
}

// readDirBounded reads the directory rel under root, at most most
// entries, sorted by name (the walk's order does not depend on the file
// system's); full reports that it stopped at most. An unreadable
// directory has none.
func readDirBounded(root *os.Root, rel string, most int) (entries []fs.DirEntry, full bool) {
	f, err := root.Open(rel)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	for len(entries) < most {
		batch, err := f.ReadDir(min(1024, most-len(entries)))
		entries = append(entries, batch...)
		if err != nil || len(batch) == 0 {
			break
		}
	}
	full = len(entries) >= most
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, full
}

// matchAny reports whether the slash path p matches one of globs.
func matchAny(globs []reviewGlob, p string) bool {
	work := 0
	for _, g := range globs {
		if g.matchPath(p, &work) {
			return true
		}
	}
	return false
}

// reviewsInScope returns the reviews in scope as of the request's view:
// the open ones at their versions (waiting for their analyses), and those
// on disk that are not open.
func (v *requestView) reviewsInScope(ctx context.Context) []scopedReview {
	return v.scoped(ctx, false)
}

// publishedReviewsInScope is reviewsInScope with each open review as its
// newest analysis completed: a publish of the source files follows the
// reviews' own publishes and never makes a version be analysed that the
// debounce or a newer version would skip.
func (v *requestView) publishedReviewsInScope(ctx context.Context) []scopedReview {
	return v.scoped(ctx, true)
}

func (v *requestView) scoped(ctx context.Context, analysed bool) []scopedReview {
	if !analysed {
		v.waitFirstScan(ctx)
	}
	var out []scopedReview
	open := map[string]bool{}
	for u, sn := range v.docs {
		if analysed {
			if an := sn.hist.newest(); an != nil {
				open[fileOf(string(u))] = true
				out = append(out, scopedReview{uri: u, open: true, version: sn.version, an: an})
			}
			continue
		}
		sn, an, err := v.analysisOf(ctx, u)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil
			}
			continue
		}
		open[fileOf(string(u))] = true
		out = append(out, scopedReview{uri: u, open: true, version: sn.version, an: an})
	}
	for name, r := range v.diskReviews() {
		if !open[name] {
			out = append(out, scopedReview{uri: protocol.DocumentURI(fileuri.FromPath(name)), an: r.Analysed()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].uri < out[j].uri })
	kept := out[:0]
	for _, r := range out {
		if r.tree = v.withBuffers(v.treeFor(r.uri)); r.tree != nil {
			r.name = path.Base(string(r.uri))
			kept = append(kept, r)
		}
	}
	return kept
}

// waitFirstScan waits, at most maxScanWait, for the first walk of the
// roots: until it is done the reviews on disk are not known, and a
// request's answer would leave out their comments.
func (s *Server) waitFirstScan(ctx context.Context) {
	select {
	case <-s.wt.scan.first:
		return
	default:
	}
	st := s.src
	st.mu.Lock()
	coming := st.scanned || st.running || st.rescan
	st.mu.Unlock()
	if !coming {
		return // no walk started nor asked for: none to wait for
	}
	wait := time.NewTimer(maxScanWait)
	defer wait.Stop()
	select {
	case <-s.wt.scan.first:
	case <-ctx.Done():
	case <-wait.C:
	}
}

// watchScope registers file watchers for the review files (the globs
// under each root) and the files the reviews on disk name, when the
// client registers them dynamically and they changed since the last
// registration.
func (s *Server) watchScope(globs []reviewGlob, disk map[string]*reviewfile.Version) {
	var patterns []string
	for _, root := range s.scopeRoots() {
		for _, g := range globs {
			patterns = append(patterns, filepath.ToSlash(root)+"/"+g.text)
		}
	}
	for name, r := range disk {
		t := s.treeFor(protocol.DocumentURI(fileuri.FromPath(name)))
		an := r.Analysed()
		if t == nil || an.Index == nil {
			continue
		}
		for _, f := range an.Index.Files {
			if abs, err := t.Resolve(f.NewName); err == nil {
				patterns = append(patterns, filepath.ToSlash(abs))
			}
		}
	}
	sort.Strings(patterns)
	patterns = slices.Compact(patterns)
	key := strings.Join(patterns, "\n")
	watch := s.watching()
	st := s.src
	st.mu.Lock()
	had := st.watchKey != ""
	if !watch || len(patterns) == 0 || key == st.watchKey {
		st.mu.Unlock()
		return
	}
	st.watchKey = key
	st.mu.Unlock()
	if err := s.registerWatchers("lreview-scope", had, patterns); err != nil {
		s.logf(protocol.MessageTypeWarning, "registering the reviews' files: %v", err)
	}
}
