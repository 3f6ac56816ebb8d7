package lsp

import (
	"context"
	"maps"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Keeping the reviews on disk current. A review file that changes, is
// created or is deleted is read again alone — never the whole tree walked
// again for it (a second at 193,000 entries): the client's file watchers
// say which (sourcesOnDisk), or, for a client that registers none, the
// poller looks at the reviews' files and their directories once a
// pollCycle (pollScope). A review created in a directory that held none
// is found by a walk, which the poller runs again after minRewalk, or
// rewalkFactor times the last walk's duration if longer: a walk then
// costs at most 1/rewalkFactor of a core.

const (
	minRewalk    = 30 * time.Second
	rewalkFactor = 100
)

// holdsDiskReview reports whether name is a review on disk in scope, or
// a directory holding one.
func (s *Server) holdsDiskReview(name string) bool {
	st := s.src
	st.mu.Lock()
	defer st.mu.Unlock()
	for n := range st.disk {
		if worktree.Within(name, n) {
			return true
		}
	}
	return false
}

// rereadReviews reads again the review files names (and those under
// names that are directories) as they are on disk now: changed ones are
// parsed again, deleted ones dropped, new ones in scope added (up to
// maxScopeReviews); then the source files' comments are placed again.
// Before the first walk it asks for that walk instead.
func (s *Server) rereadReviews(ctx context.Context, names []string) {
	sc := s.wt.scan
	select {
	case <-sc.first:
	default:
		s.sourcesChanged(true)
		return
	}
	sc.mu.Lock()
	globs := s.scopeSetting().globs
	open := s.openReviewPaths()
	st := s.src
	st.mu.Lock()
	next := maps.Clone(st.disk)
	st.mu.Unlock()
	for _, root := range s.scopeRoots() {
		var todo []string
		for _, name := range names {
			if !worktree.Within(root, name) {
				continue
			}
			for n := range next {
				if n != name && worktree.Within(name, n) {
					todo = append(todo, n) // in a directory that changed
				}
			}
			if rel, err := filepath.Rel(root, name); err == nil && matchAny(globs, filepath.ToSlash(rel)) {
				todo = append(todo, name)
			}
		}
		if len(todo) > 0 {
			rereadIn(ctx, root, todo, open, next)
		}
	}
	if ctx.Err() != nil {
		sc.mu.Unlock()
		return
	}
	st.mu.Lock()
	changed := !maps.Equal(st.disk, next)
	st.disk = next
	st.mu.Unlock()
	sc.mu.Unlock()
	if changed {
		s.watchScope(globs, next)
		s.sourcesChanged(false)
	}
}

// rereadIn reads the review files names under root into next, through
// one os.Root of root; a file gone or unreadable is dropped.
func rereadIn(ctx context.Context, root string, names []string, open map[string]bool, next map[string]*reviewfile.Version) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return
	}
	defer r.Close()
	for _, name := range names {
		rel, err := filepath.Rel(root, name)
		if err != nil || open[name] || ctx.Err() != nil {
			continue
		}
		d := readScoped(ctx, r, rel, next[name])
		switch {
		case d == nil:
			delete(next, name)
		case next[name] != nil || len(next) < maxScopeReviews:
			next[name] = d
		}
	}
}

// scopePoll is the poller's memory of the reviews on disk: the stamps of
// their files and directories, by path.
type scopePoll struct {
	seen map[string]fileStamp
}

func newScopePoll() *scopePoll { return &scopePoll{seen: map[string]fileStamp{}} }

// pollScope looks at the reviews on disk and the directories holding
// them (and the roots): a review changed or gone, or a directory whose
// entries changed, enters the session as files changed on disk
// (modifyFiles), which reads those reviews again; once the time since
// the last walk is long enough, the roots are walked again.
func (s *Server) pollScope(p *scopePoll) {
	sc := s.wt.scan
	select {
	case <-sc.first:
	default:
		return // the first walk has not run: nothing to compare with
	}
	sc.mu.Lock()
	walked, took := sc.walked, sc.took
	sc.mu.Unlock()
	if time.Since(walked) >= max(minRewalk, rewalkFactor*took) {
		if s.scanReviews(s.bg) {
			s.sourcesChanged(false)
		}
		return
	}
	st := s.src
	st.mu.Lock()
	disk := st.disk
	st.mu.Unlock()
	var reread []string
	live := map[string]bool{}
	for _, root := range s.scopeRoots() {
		r, err := os.OpenRoot(root)
		if err != nil {
			continue
		}
		dirs := map[string]bool{".": true}
		var names []string
		for n := range disk {
			if rel, err := filepath.Rel(root, n); err == nil && worktree.Within(root, n) {
				rel = filepath.ToSlash(rel)
				names = append(names, rel)
				dirs[path.Dir(rel)] = true
			}
		}
		for d := range dirs {
			names = append(names, d+"/.") // the directory itself, as statByDir opens it
		}
		statByDir(r, names, func(i int, fi os.FileInfo) {
			name := filepath.Join(root, filepath.FromSlash(names[i]))
			now := stampOf(fi)
			// A review is compared with the identity it was read at; a
			// directory with the last round's, or, new to the poller,
			// with the walk's start.
			if d := disk[name]; d != nil {
				if fi == nil || reviewfile.IDOf(fi) != d.ID() {
					reread = append(reread, name)
				}
				return
			}
			live[name] = true
			before, had := p.seen[name]
			p.seen[name] = now
			if had && before != now || !had && now.mod.After(walked.Add(-took)) {
				reread = append(reread, name)
			}
		})
		r.Close()
	}
	maps.DeleteFunc(p.seen, func(n string, _ fileStamp) bool { return !live[n] })
	if len(reread) > 0 {
		_ = s.modifyFiles(modification{action: fileOnDisk, paths: s.withNewReviews(reread)})
	}
}

// withNewReviews adds to names, for each directory among them, the files
// in it (one level) that the globs match: the reviews created there.
func (s *Server) withNewReviews(names []string) []string {
	globs := s.scopeSetting().globs
	out := names
	for _, root := range s.scopeRoots() {
		r, err := os.OpenRoot(root)
		if err != nil {
			continue
		}
		for _, name := range names {
			rel, err := filepath.Rel(root, name)
			if err != nil || !worktree.Within(root, name) {
				continue
			}
			entries, _ := readDirBounded(r, filepath.ToSlash(rel), maxScanEntries)
			for _, e := range entries {
				p := path.Join(filepath.ToSlash(rel), e.Name())
				if e.Type().IsRegular() && matchAny(globs, p) {
					out = append(out, filepath.Join(root, filepath.FromSlash(p)))
				}
			}
		}
		r.Close()
	}
	return out
}
