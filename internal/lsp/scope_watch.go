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

// sourcesOnDisk hears of files changed on disk: the review files in
// scope among them (reviewsAt) are read again, alone (rereadReviews); any
// other file has the comments placed again, the source files being read
// anew when their size or modification time changed.
func (s *Server) sourcesOnDisk(changed []string) {
	globs := s.scopeSetting().globs
	disk := s.diskReviews()
	var reviews []string
	roots := s.scopeRoots()
	for _, name := range changed {
		for _, root := range roots {
			if len(reviewsAt(root, globs, name, disk, nil)) > 0 {
				reviews = append(reviews, name)
				break
			}
		}
	}
	if len(reviews) > 0 && s.spawn(func() { s.rereadReviews(s.bg, reviews) }) {
		return // the re-read asks for the comments again
	}
	s.sourcesChanged(false)
}

// reviewsAt appends to out the review files under root that a change of
// name on disk asks to read again: name, if the globs match it or it is
// one of known (the reviews on disk), and those of known under it, when
// it is a directory.
func reviewsAt(root string, globs []reviewGlob, name string, known map[string]*reviewfile.Version, out []string) []string {
	rel, err := filepath.Rel(root, name)
	if err != nil || !worktree.Within(root, name) {
		return out
	}
	for n := range known {
		if n != name && worktree.Within(name, n) {
			out = append(out, n) // in a directory that changed
		}
	}
	if known[name] != nil || matchAny(globs, filepath.ToSlash(rel)) {
		out = append(out, name)
	}
	return out
}

// rereadReviews reads again the review files names (and those under
// names that are directories) as they are on disk now (readDisk):
// changed ones are parsed again, deleted ones dropped, new ones in scope
// added (up to maxScopeReviews); then the source files' comments are
// placed again. Before the first walk it asks for that walk instead.
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
	next, changed, _ := s.readDisk(ctx, false, func(root string, _ *os.Root, known map[string]*reviewfile.Version) []string {
		var todo []string
		for _, name := range names {
			todo = reviewsAt(root, globs, name, known, todo)
		}
		return todo
	})
	sc.mu.Unlock()
	if changed {
		s.watchScope(globs, next)
		s.sourcesChanged(false)
	}
}

// scopePoll is the poller's memory of the reviews on disk: the stamps of
// their files and directories, by path.
type scopePoll struct {
	seen map[string]fileStamp
}

// stampSlack is how far before the walk's start a directory's time may
// be and still be looked at: file systems stamp times with a coarse clock
// (a tick of a few ms on Linux, 2 s on FAT), so a directory changed just
// after the walk began can carry a time before it. Looking at one more
// directory costs a listing; missing one, a review found only at the
// next walk.
const stampSlack = 2 * time.Second

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
	disk := s.diskReviews()
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
			if had && before != now || !had && now.mod.After(walked.Add(-took-stampSlack)) {
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
