package features

import (
	"errors"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Go to the source from a patch line whose text changed in the working
// tree: the line is not there any more, but its place is. A person
// asking for the definition of "+ x := 1" after editing it to "x := 2"
// wants that line, not "No definition found". The place is reckoned from
// the nearest line of the same hunk the tree still holds: as far from it
// as in the review. Without one, it is the line's number in the review.

// nearestReach bounds how many lines of the hunk, each way, are tried as
// the neighbour that places a changed line.
const nearestReach = 20

// nearestSource is where patch line i of hunk h of f would be in the
// tree, which no longer holds it (a removed line: the RIGHT line after it).
func nearestSource(an *anchor.Analysis, t *worktree.Tree, f *anchor.FileDiff, h, i int) (worktree.Location, bool) {
	lines := f.Hunks[h].Lines
	i = max(i, 0)
	for i < len(lines) && !lines[i].In(anchor.Right) {
		i++
	}
	var want int
	switch {
	case i < len(lines):
		want = lines[i].Number(anchor.Right)
	default: // removed at the hunk's end: after its last RIGHT line
		for j := len(lines) - 1; j >= 0 && want == 0; j-- {
			if lines[j].In(anchor.Right) {
				want, i = lines[j].Number(anchor.Right)+1, j+1
			}
		}
	}
	if want == 0 || f.NewName == "" {
		return worktree.Location{}, false
	}
	file, err := t.Read(f.NewName)
	if err != nil || file.Lines() == 0 {
		return worktree.Location{}, false
	}
	at := want
	for d := 1; d <= nearestReach; d++ {
		if n, ok := placedBy(an, t, f, h, i-d, want); ok {
			at = n
			break
		}
		if n, ok := placedBy(an, t, f, h, i+d, want); ok {
			at = n
			break
		}
	}
	at = min(max(at, 1), file.Lines())
	return worktree.Location{Path: f.NewName, File: file, Start: at, End: at, Expected: want, Lines: 1}, true
}

// placedBy is where the line numbered want (RIGHT) is, placed by line j
// of the hunk, when the tree holds j.
func placedBy(an *anchor.Analysis, t *worktree.Tree, f *anchor.FileDiff, h, j, want int) (int, bool) {
	lines := f.Hunks[h].Lines
	if j < 0 || j >= len(lines) || !lines[j].In(anchor.Right) {
		return 0, false
	}
	loc := t.LocateDiffLine(&an.Doc.Review.Patch, f, h, j)
	if !loc.Found() {
		return 0, false
	}
	return loc.Start + want - lines[j].Number(anchor.Right), true
}

// changed reports whether loc says the tree no longer holds the lines.
func changed(loc worktree.Location) bool {
	return !loc.Found() && errors.Is(loc.Err, worktree.ErrChanged)
}
