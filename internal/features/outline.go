package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"path"
	"sort"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// FileSummary is one file of the patch as an outline shows it.
type FileSummary struct {
	File *anchor.FileDiff
	Name string
	// Changed counts added and removed lines; Active counts the active
	// comments anchored in the file. Together they order the outline.
	Changed, Active int
}

// DirSummary groups the files of one directory.
type DirSummary struct {
	Dir     string // "." for the top level
	Files   []FileSummary
	Changed int
	Active  int
}

// Outline groups the patch's files by directory and orders both the
// directories and their files by how much they change and how many active
// comments they hold: a reviewer reads the busiest places first.
func Outline(a *anchor.Anchoring, doc *exchange.Document) []DirSummary {
	active := map[*anchor.FileDiff]int{}
	for _, r := range a.Resolutions {
		if r.File != nil && r.Comment.StateNorm() == exchange.StateActive {
			active[r.File]++
		}
	}
	byDir := map[string]*DirSummary{}
	var dirs []*DirSummary
	for _, f := range a.Index.Files {
		name := f.DisplayName()
		fs := FileSummary{File: f, Name: name, Active: active[f]}
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Kind == anchor.Added || l.Kind == anchor.Removed {
					fs.Changed++
				}
			}
		}
		dir := path.Dir(name)
		d := byDir[dir]
		if d == nil {
			d = &DirSummary{Dir: dir}
			byDir[dir] = d
			dirs = append(dirs, d)
		}
		d.Files = append(d.Files, fs)
		d.Changed += fs.Changed
		d.Active += fs.Active
	}
	out := make([]DirSummary, len(dirs))
	for i, d := range dirs {
		sort.SliceStable(d.Files, func(i, j int) bool {
			return busier(d.Files[i].Active, d.Files[i].Changed, d.Files[j].Active, d.Files[j].Changed)
		})
		out[i] = *d
	}
	sort.SliceStable(out, func(i, j int) bool { return busier(out[i].Active, out[i].Changed, out[j].Active, out[j].Changed) })
	return out
}

func busier(activeA, changedA, activeB, changedB int) bool {
	if activeA != activeB {
		return activeA > activeB
	}
	return changedA > changedB
}

// StateCounts counts comments by state, the default applied.
func StateCounts(doc *exchange.Document) map[string]int {
	counts := map[string]int{}
	for _, c := range doc.Review.Comments {
		counts[c.StateNorm()]++
	}
	return counts
}

// FirstLine returns the first non-blank line of a comment body, cut to a
// length that fits an outline or a hover.
func FirstLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > 80 {
				return string(r[:79]) + "…"
			}
			return l
		}
	}
	return ""
}
