package worktree

import (
	"errors"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Location is where lines of the patch are in the working tree.
type Location struct {
	// Path is the file's path in the patch (a renamed file's new name);
	// File the file read, nil when it could not be.
	Path string
	File *File
	// Start and End are the lines found, from 1; 0 when not found.
	Start, End int
	// Expected is the RIGHT line number the first of them has in the
	// review, and Lines how many RIGHT lines were looked for.
	Expected, Lines int
	// Exact is set when the lines are the same text, not only the same
	// white space aside.
	Exact bool
	// PartialStart and PartialEnd are the nearest place holding a part
	// of the lines, when they were not found whole (0 if none).
	PartialStart, PartialEnd int
	// Err says why the lines were not found.
	Err error
}

// Found reports whether the lines were found.
func (l Location) Found() bool { return l.Start > 0 }

// Moved is how many lines below where the review has them the lines are
// (negative: above).
func (l Location) Moved() int { return l.Start - l.Expected }

// Reasons a location is not found, besides the file's own read errors.
var (
	ErrChanged    = errors.New("the file no longer holds these lines")
	ErrUnresolved = errors.New("its anchor does not resolve in the patch")
	ErrDeleted    = errors.New("the review deletes this file")
	ErrNoLine     = errors.New("nothing of the new file to look for")
)

// LocateComment returns where the lines resolution r anchors are in the
// tree: a RIGHT comment's lines as a block; a LEFT comment's first line,
// a removed line standing for where it was removed (the first RIGHT line
// after it). p is the patch of the version r belongs to, which the lines'
// texts are read from (anchor.FileDiff.Content).
func (t *Tree) LocateComment(p *exchange.Patch, r *anchor.Resolution) Location {
	if r == nil || !r.Resolved || r.File == nil {
		return Location{Err: ErrUnresolved}
	}
	if r.Side == anchor.Left {
		return t.LocateDiffLine(p, r.File, r.Hunk, r.First)
	}
	ls := r.Lines()
	return t.locate(p, r.File, ls)
}

// LocateDiffLine returns where line i of hunk h of f is in the tree: a
// RIGHT line itself; a removed line where it was removed: the first RIGHT
// line after it. p is the patch of a version whose index holds f.
func (t *Tree) LocateDiffLine(p *exchange.Patch, f *anchor.FileDiff, h, i int) Location {
	if h < 0 || h >= len(f.Hunks) || i < 0 {
		return Location{Path: f.NewName, Err: ErrNoLine}
	}
	hk := &f.Hunks[h]
	for i < len(hk.Lines) && !hk.Lines[i].In(anchor.Right) {
		i++
	}
	if i == len(hk.Lines) {
		return Location{Path: f.NewName, Err: ErrNoLine}
	}
	return t.locate(p, f, []anchor.ImageLine{{DiffLine: hk.Lines[i], Patch: hk.PatchLine(i)}})
}

func blank(s string) bool {
	for i := range len(s) {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// LocateHunk returns where the first RIGHT line of hunk h of f is.
func (t *Tree) LocateHunk(p *exchange.Patch, f *anchor.FileDiff, h int) Location {
	return t.LocateDiffLine(p, f, h, 0)
}

// locate finds the RIGHT lines ls of f in the tree: where the file's
// track of f's lines (File.track: the file's edits since the review, or a
// line diff against it) has them, each its own text there. Lines whose
// place the track does not tell, or whose text changed, are not found
// (ErrChanged), never looked for elsewhere: a `}` searched for near its
// old place finds another `}`.
func (t *Tree) locate(p *exchange.Patch, f *anchor.FileDiff, ls []anchor.ImageLine) Location {
	loc := Location{Path: f.NewName, Lines: len(ls)}
	if f.NewName == "" || f.Status == anchor.DeletedFile {
		loc.Path, loc.Err = f.OldName, ErrDeleted
		return loc
	}
	if len(ls) == 0 {
		loc.Err = ErrNoLine
		return loc
	}
	loc.Expected = ls[0].Number(anchor.Right)
	file, err := t.Read(f.NewName)
	if err != nil {
		loc.Err = err
		return loc
	}
	loc.File = file
	pl := file.track(p, f).Place(p, f, ls, file.lines, file.starts)
	if !pl.OK {
		loc.Err = ErrChanged
		switch {
		case pl.PartStart > 0:
			loc.PartialStart, loc.PartialEnd = pl.PartStart, pl.PartEnd
		case pl.Near > 0 && pl.Near <= file.Lines():
			loc.PartialStart, loc.PartialEnd = pl.Near, pl.Near
		}
		return loc
	}
	loc.Start, loc.End, loc.Exact = pl.Start, pl.End, pl.Exact
	return loc
}

// Holding counts the patch's files that have RIGHT lines (total) and those
// of them the tree holds (holding): a file holds its RIGHT lines when it
// has at least half of them, anywhere the search reaches. Fewer than half
// of the files holding theirs says the tree is not the reviewed revision.
func (t *Tree) Holding(ix *anchor.Index) (holding, total int) {
	var names []string
	for _, f := range ix.Files {
		names = append(names, f.NewName)
	}
	t.prefetch(names)
	for _, f := range ix.Files {
		if f.NewName == "" || f.Status == anchor.DeletedFile || f.Binary || !hasRight(f) {
			continue
		}
		total++
		if t.holds(ix.Patch, f) {
			holding++
		}
	}
	return holding, total
}

// prefetchWorkers read files at once: reading is mostly waiting for
// system calls, which another file's read can fill.
const prefetchWorkers = 4

// prefetch reads the files of a pinned tree (Tree.Pinned) on a few
// goroutines, so that what follows finds them read; a tree that is not a
// pinned keeps nothing, and reads nothing ahead.
func (t *Tree) prefetch(paths []string) {
	if t.reads == nil || len(paths) < 2 {
		return
	}
	next := make(chan string)
	var wg sync.WaitGroup
	for range min(prefetchWorkers, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				_, _ = t.Read(p) // the error is kept with the file, for its reader
			}
		}()
	}
	for _, p := range paths {
		if p != "" {
			next <- p
		}
	}
	close(next)
	wg.Wait()
}

func hasRight(f *anchor.FileDiff) bool {
	for h := range f.Hunks {
		if f.Hunks[h].NewCount > 0 {
			return true
		}
	}
	return false
}

// holds reports whether the tree holds at least half of f's RIGHT lines
// that are not blank: each hunk's as a block, else line by line.
func (t *Tree) holds(p *exchange.Patch, f *anchor.FileDiff) bool {
	file, err := t.Read(f.NewName)
	if err != nil {
		return false
	}
	if h, ok := file.holding.load(f); ok {
		return h
	}
	h := t.holdsLines(p, f, file)
	file.holding.store(f, h)
	return h
}

// holdSample is how many RIGHT lines of a file holds looks for: enough
// to tell the reviewed revision from another, few enough that the lookups
// grow with the number of files, not with the length of the patch.
const holdSample = 16

// holdsLines is holds for f's file as read: at least half of a sample of
// its RIGHT lines that are not blank, spread over the file diff, are
// found (anywhere the search reaches).
func (t *Tree) holdsLines(p *exchange.Patch, f *anchor.FileDiff, file *File) bool {
	var ls []anchor.ImageLine
	for h := range f.Hunks {
		for j, l := range f.Hunks[h].Lines {
			if l.In(anchor.Right) {
				ls = append(ls, anchor.ImageLine{DiffLine: l, Patch: f.Hunks[h].PatchLine(j)})
			}
		}
	}
	step := max(1, len(ls)/holdSample)
	found, all := 0, 0
	for k := 0; k < len(ls); k += step {
		s := f.Content(p, ls[k].Patch)
		if blank(s) {
			continue
		}
		all++
		if m, ok := file.Search().Find([]string{s}, int(ls[k].New)); ok && !m.Partial {
			found++
		}
	}
	return found*2 >= all
}
