// Package cohort gives a review its shape: the patch's files grouped into
// cohorts of files that belong together, each with a stable key, a name a
// person understands and an impact rank with its reasons; the blast radius
// of each changed definition; and the dependency changes of the patch's
// manifests. It reads a patch index and, when there is one, a code graph
// of the working tree (package codegraph); without a graph, or for a
// language it has no grammar for, files are grouped by path, and the
// shape says so.
//
// Everything here is deterministic: the same patch, graph and comments
// give the same cohorts in the same order with the same keys.
package cohort

import (
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// ChangedFile is one file of the patch, as the shape reads it.
type ChangedFile struct {
	// Path is the file's name in the working tree (the new name; the old
	// one for a deleted file); OldPath its name before, when renamed.
	Path, OldPath string
	Status        string // modified, added, deleted, renamed, copied
	Binary        bool
	// Header is the patch line index of the file diff's first line.
	Header int
	// Added and Removed count the body lines.
	Added, Removed int
	// Touched are the new-side lines the change touches: its added lines,
	// and the line where removed lines were (sorted, unique).
	Touched []int
	// Lines are the body lines: of a dependency manifest only when read
	// from an index (the dependency reader's; a large review's other lines
	// are read only for a fingerprint, from diff).
	Lines []Line
	diff  *anchor.FileDiff
	patch *exchange.Patch
}

// Line is one body line of a file diff.
type Line struct {
	Kind      byte // ' ', '+', '-'
	Old, New  int  // numbers in the old and new images, 0 when absent
	PatchLine int  // index among the patch's lines
	Text      string
	// HunkStart is set on a hunk's first line: the new-side line its
	// hunk starts at.
	HunkStart int
}

// FromIndex reads the patch's files from an analysed review's index.
func FromIndex(ix *anchor.Index) []ChangedFile {
	return fromIndex(ix, func(*anchor.FileDiff) bool { return true })
}

// DependenciesOf reads the dependency changes of a patch's manifests
// alone: cheap enough for every publish of a large review.
func DependenciesOf(ix *anchor.Index, treeLines func(string) []string) []DepChange {
	files := fromIndex(ix, func(f *anchor.FileDiff) bool { return isManifest(f.NewName) || isManifest(f.OldName) })
	return Dependencies(files, treeLines)
}

func fromIndex(ix *anchor.Index, keep func(*anchor.FileDiff) bool) []ChangedFile {
	if ix == nil {
		return nil
	}
	out := make([]ChangedFile, 0, len(ix.Files))
	for _, f := range ix.Files {
		if !keep(f) {
			continue
		}
		cf := ChangedFile{Path: f.DisplayName(), Status: statusName(f.Status), Binary: f.Binary, Header: f.First, diff: f, patch: ix.Patch}
		text := isManifest(f.NewName) || isManifest(f.OldName)
		if f.Status == anchor.DeletedFile {
			cf.Path = f.OldName
		}
		if f.OldName != "" && f.OldName != cf.Path {
			cf.OldPath = f.OldName
		}
		for _, h := range f.Hunks {
			next := h.NewStart
			first := true
			for j, l := range h.Lines {
				line := Line{Old: int(l.Old), New: int(l.New), PatchLine: h.PatchLine(j)}
				switch l.Kind() {
				case anchor.Added:
					line.Kind = '+'
					cf.Added++
					cf.Touched = append(cf.Touched, int(l.New))
					next = int(l.New) + 1
				case anchor.Removed:
					line.Kind = '-'
					cf.Removed++
					if cf.Status != "deleted" {
						cf.Touched = append(cf.Touched, max(1, next))
					}
				case anchor.Context:
					line.Kind = ' '
					next = int(l.New) + 1
				default:
					continue
				}
				if first {
					line.HunkStart, first = max(1, h.NewStart), false
				}
				if text {
					line.Text = f.Content(ix.Patch, line.PatchLine)
					cf.Lines = append(cf.Lines, line)
				}
			}
		}
		cf.Touched = uniqueSorted(cf.Touched)
		out = append(out, cf)
	}
	return out
}

func statusName(s anchor.FileStatus) string {
	switch s {
	case anchor.NewFile:
		return "added"
	case anchor.DeletedFile:
		return "deleted"
	case anchor.Renamed:
		return "renamed"
	case anchor.Copied:
		return "copied"
	}
	return "modified"
}

// changes calls fn with each added ('+') or removed ('-') line's text.
func (f *ChangedFile) changes(fn func(kind byte, text string)) {
	if f.diff == nil {
		for _, l := range f.Lines {
			if l.Kind != ' ' {
				fn(l.Kind, l.Text)
			}
		}
		return
	}
	for _, h := range f.diff.Hunks {
		for j, l := range h.Lines {
			switch l.Kind() {
			case anchor.Added:
				fn('+', f.diff.Content(f.patch, h.PatchLine(j)))
			case anchor.Removed:
				fn('-', f.diff.Content(f.patch, h.PatchLine(j)))
			}
		}
	}
}

// ActiveComments counts the review's active comments per path.
func ActiveComments(r *exchange.Review) map[string]int {
	out := map[string]int{}
	for _, c := range r.Comments {
		if c.StateNorm() == exchange.StateActive && c.Path != "" {
			out[c.Path]++
		}
	}
	return out
}

func uniqueSorted(xs []int) []int {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// Of computes the shape of an analysed review with the working tree's
// graph (nil: by path alone); treeLines (may be nil) reads a tree file's
// lines for the dependency reader.
func Of(an *anchor.Analysis, g *codegraph.Graph, treeLines func(string) []string) (*Shape, Input) {
	in := Input{Files: FromIndex(an.Index), Graph: g, TreeLines: treeLines}
	if an.Doc != nil {
		in.Comments = ActiveComments(&an.Doc.Review)
		in.Marks = ReadMarks(an.Doc)
	}
	return Compute(in), in
}
