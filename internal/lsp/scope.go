package lsp

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The reviews in scope: those open in the editor, with their unsaved
// text, and the review files under the source roots that match the
// setting reviews (globs; "**/*.review.json" by default), whether or not
// they are open. A review on disk is parsed once per size and
// modification time and kept as that one analysis: no snapshots, no
// history. An open review stands for its file on disk.

// The scan's bounds: a workspace is not searched without end.
const (
	// maxScopeReviews is how many review files the scan keeps (the first
	// in path order).
	maxScopeReviews = 64
	// maxScanEntries bounds the directory entries a scan visits.
	maxScanEntries = 200_000
)

// defaultReviewGlobs is the setting reviews' default.
func defaultReviewGlobs() []string { return []string{"**/*.review.json"} }

// diskReview is a review file found by the scan, as it was last read.
type diskReview struct {
	path string
	size int64
	mod  time.Time
	an   *anchor.Analysis
}

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
	w := s.wt
	w.mu.Lock()
	folders := slices.Clone(w.folders)
	w.mu.Unlock()
	if root := settings.SourceRoot; root != "" {
		if !filepath.IsAbs(root) && len(folders) > 0 {
			root = filepath.Join(folders[0], root)
		}
		return []string{root}
	}
	if len(folders) > 0 {
		return folders
	}
	var roots []string
	s.mu.Lock()
	var names []string
	for u := range s.files {
		names = append(names, fileOf(string(u)))
	}
	s.mu.Unlock()
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

// scanReviews finds the review files in scope on disk and reads those
// that are new or changed since the last scan, except those open in the
// editor (their buffer stands for them).
func (s *Server) scanReviews(ctx context.Context) {
	globs := s.currentSettings().Reviews
	if len(globs) == 0 {
		globs = defaultReviewGlobs()
	}
	open := map[string]bool{}
	s.mu.Lock()
	for u := range s.files {
		open[fileOf(string(u))] = true
	}
	s.mu.Unlock()
	st := s.src
	st.mu.Lock()
	prev := st.disk
	st.mu.Unlock()
	next := map[string]*diskReview{}
	found := 0
	for _, root := range s.scopeRoots() {
		found += scanRoot(ctx, root, globs, maxScopeReviews-found, open, prev, next)
	}
	if ctx.Err() != nil {
		return // cancelled: what it read may be part of the scope only
	}
	// A review opened while the scan read it: its buffer stands for it.
	s.mu.Lock()
	for u := range s.files {
		delete(next, fileOf(string(u)))
	}
	s.mu.Unlock()
	st.mu.Lock()
	st.disk = next
	st.mu.Unlock()
	s.watchScope(globs, next)
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
	next := make(map[string]*diskReview, len(st.disk)-1)
	for n, r := range st.disk {
		if n != name {
			next[n] = r
		}
	}
	st.disk = next
}

// scanRoot finds at most max review files under root and reads into next
// those not open in the editor, all through one os.Root of root: nothing
// found is looked up again by name. It returns how many it found.
func scanRoot(ctx context.Context, root string, globs []string, max int, open map[string]bool, prev, next map[string]*diskReview) int {
	r, err := os.OpenRoot(root)
	if err != nil {
		return 0
	}
	defer r.Close()
	found := findReviews(r, globs, max)
	for _, rel := range found {
		name := filepath.Join(root, rel)
		if ctx.Err() != nil || open[name] {
			continue
		}
		if d := readReview(ctx, r, rel, name, prev[name]); d != nil {
			next[name] = d
		}
	}
	return len(found)
}

// findReviews walks root for the files whose path under it matches one
// of globs, skipping .git and node_modules (nothing outside root is
// visited, symbolic links included), visiting at most maxScanEntries
// entries; the first max in path order are returned, relative to root.
func findReviews(root *os.Root, globs []string, max int) []string {
	if max <= 0 {
		return nil
	}
	var out []string
	visited := 0
	_ = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		visited++
		switch {
		case visited > maxScanEntries || len(out) >= max:
			return fs.SkipAll
		case err != nil:
			return nil // an unreadable directory is skipped
		case d.IsDir():
			if n := d.Name(); p != "." && (n == ".git" || n == "node_modules") {
				return fs.SkipDir
			}
			return nil
		case d.Type().IsRegular() && matchAny(globs, p):
			out = append(out, filepath.FromSlash(p))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// readReview reads the review file at rel under root, named name, or
// keeps prev when the file's size and modification time are those prev
// was read at. nil: not a regular file, larger than filewrite.MaxSize,
// or unreadable.
func readReview(ctx context.Context, root *os.Root, rel, name string, prev *diskReview) *diskReview {
	f, fi, err := filewrite.OpenIn(root, rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi.Size() > filewrite.MaxSize {
		return nil
	}
	if prev != nil && prev.size == fi.Size() && prev.mod.Equal(fi.ModTime()) {
		return prev
	}
	data, err := io.ReadAll(io.LimitReader(f, filewrite.MaxSize+1))
	if err != nil || len(data) > filewrite.MaxSize {
		return nil
	}
	an, err := Analyze(ctx, exchange.NewText(data), nil, nil, nil)
	if err != nil {
		return nil
	}
	return &diskReview{path: name, size: fi.Size(), mod: fi.ModTime(), an: an}
}

// matchAny reports whether the slash path p matches one of globs.
func matchAny(globs []string, p string) bool {
	for _, g := range globs {
		if matchGlob(strings.Split(g, "/"), strings.Split(p, "/")) {
			return true
		}
	}
	return false
}

// matchGlob matches path segments against pattern segments: "**" is any
// number of segments, any other segment is a path.Match pattern.
func matchGlob(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchGlob(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
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
	st := v.src
	st.mu.Lock()
	for name, r := range st.disk {
		if !open[name] {
			out = append(out, scopedReview{uri: protocol.DocumentURI(fileuri.FromPath(name)), an: r.an})
		}
	}
	st.mu.Unlock()
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

// watchScope registers file watchers for the review files (the globs
// under each root) and the files the reviews on disk name, when the
// client registers them dynamically and they changed since the last
// registration.
func (s *Server) watchScope(globs []string, disk map[string]*diskReview) {
	var patterns []string
	for _, root := range s.scopeRoots() {
		for _, g := range globs {
			patterns = append(patterns, filepath.ToSlash(root)+"/"+g)
		}
	}
	for name, r := range disk {
		t := s.treeFor(protocol.DocumentURI(fileuri.FromPath(name)))
		if t == nil || r.an.Index == nil {
			continue
		}
		for _, f := range r.an.Index.Files {
			if abs, err := t.Resolve(f.NewName); err == nil {
				patterns = append(patterns, filepath.ToSlash(abs))
			}
		}
	}
	sort.Strings(patterns)
	patterns = slices.Compact(patterns)
	key := strings.Join(patterns, "\n")
	w := s.wt
	w.mu.Lock()
	watch := w.watch
	w.mu.Unlock()
	st := s.src
	st.mu.Lock()
	had := st.watchKey != ""
	if !watch || len(patterns) == 0 || key == st.watchKey {
		st.mu.Unlock()
		return
	}
	st.watchKey = key
	st.mu.Unlock()
	var watchers []protocol.FileSystemWatcher
	for _, p := range patterns {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: p, Kind: protocol.WatchKindChange + protocol.WatchKindCreate + protocol.WatchKindDelete})
	}
	const id = "lreview-scope"
	if had {
		_, _ = s.conn.Call(s.bg, "client/unregisterCapability", &protocol.UnregistrationParams{Unregisterations: []protocol.Unregistration{{ID: id, Method: "workspace/didChangeWatchedFiles"}}}, nil)
	}
	if _, err := s.conn.Call(s.bg, "client/registerCapability", &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: id, Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}, nil); err != nil {
		s.logf(protocol.MessageTypeWarning, "registering the reviews' files: %v", err)
	}
}

// sourcesOnDisk hears of files changed on disk: a review file in scope
// (by the globs) has the roots scanned again; any other file has the
// comments placed again, the source files being read anew when their
// size or modification time changed.
func (s *Server) sourcesOnDisk(changed []string) {
	globs := s.currentSettings().Reviews
	if len(globs) == 0 {
		globs = defaultReviewGlobs()
	}
	rescan := false
	roots := s.scopeRoots()
	for _, name := range changed {
		for _, root := range roots {
			if rel, err := filepath.Rel(root, name); err == nil && worktree.Within(root, name) && matchAny(globs, filepath.ToSlash(rel)) {
				rescan = true
			}
		}
	}
	s.sourcesChanged(rescan)
}
