package features

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/anchor"
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
				if l.Kind() == anchor.Added || l.Kind() == anchor.Removed {
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
	for rest := body; rest != ""; {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		if l = strings.TrimSpace(l); l != "" {
			if utf8.RuneCountInString(l) > 80 {
				return string([]rune(l)[:79]) + "…"
			}
			return l
		}
	}
	return ""
}

// SymbolKind says what an outline entry is; the server maps it to the
// protocol's kinds.
type SymbolKind uint8

const (
	SymbolDir      SymbolKind = iota // a directory of the patch
	SymbolFile                       // a file diff
	SymbolHunk                       // a hunk of a file diff
	SymbolComments                   // the comments array
	SymbolComment                    // one comment
)

// Symbol is one entry of the document's outline.
type Symbol struct {
	Name, Detail string
	Kind         SymbolKind
	// Range is all of the entry, Selection the part to reveal.
	Range, Selection exchange.Range
	// Dismissed comments are listed struck through.
	Dismissed bool
	Children  []Symbol
}

// PatchSymbols is the outline of the patch, dirs being its Outline: on a
// large review, thousands of files and hunks that an edit in a comment
// leaves as they were, but for the counts of active comments.
func PatchSymbols(an *anchor.Analysis, dirs []DirSummary) []Symbol {
	p := an.Index.Patch
	var out []Symbol
	for _, d := range dirs {
		dir := Symbol{Name: d.Dir + "/", Kind: SymbolDir, Detail: changedActive(d.Changed, d.Active)}
		lo, hi := -1, -1
		for _, fs := range d.Files {
			f := fs.File
			first, last := p.LineElemRange(f.First), p.LineElemRange(f.Last)
			fsym := Symbol{
				Name:      fs.Name,
				Detail:    summaryDetail(f, fs),
				Kind:      SymbolFile,
				Range:     exchange.Range{Start: first.Start, End: last.End},
				Selection: exchange.Range{Start: p.LineStart(f.First), End: p.LineEnd(f.First)},
			}
			for i := range f.Hunks {
				fsym.Children = append(fsym.Children, hunkSymbol(p, &f.Hunks[i]))
			}
			if lo < 0 || first.Start < lo {
				lo = first.Start
			}
			hi = max(hi, last.End)
			dir.Children = append(dir.Children, fsym)
		}
		dir.Range = exchange.Range{Start: lo, End: hi}
		dir.Selection = dir.Children[0].Selection
		out = append(out, dir)
	}
	return out
}

func hunkSymbol(p *exchange.Patch, h *anchor.Hunk) Symbol {
	end := p.LineElemRange(h.LastLine()).End
	return Symbol{
		Name:      fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldCount, h.NewStart, h.NewCount),
		Detail:    h.Section,
		Kind:      SymbolHunk,
		Range:     exchange.Range{Start: p.LineElemRange(h.Header).Start, End: end},
		Selection: exchange.Range{Start: p.LineStart(h.Header), End: p.LineEnd(h.Header)},
	}
}

// CommentSymbols is the comments array with an entry per comment.
func CommentSymbols(an *anchor.Analysis) (Symbol, bool) {
	cs := an.Doc.Root.Member("comments")
	if cs == nil || len(an.Doc.Review.Comments) == 0 {
		return Symbol{}, false
	}
	group := Symbol{Name: "comments", Kind: SymbolComments, Detail: StateWords(StateCounts(an.Doc)),
		Range: exchange.Range{Start: cs.KeyStart(), End: cs.End}, Selection: exchange.Range{Start: cs.KeyStart(), End: cs.KeyEnd()},
		Children: make([]Symbol, 0, len(an.Doc.Review.Comments))}
	for i, c := range an.Doc.Review.Comments {
		sel := exchange.NodeRange(c.Node)
		if id := c.Member("id"); id != nil {
			sel = exchange.NodeRange(id)
		}
		group.Children = append(group.Children, Symbol{
			Name:      commentTitle(c, an.Anchors.Resolutions[i]),
			Detail:    c.StateNorm() + " · " + FirstLine(c.Body),
			Kind:      SymbolComment,
			Dismissed: c.StateNorm() == exchange.StateDismissed,
			Range:     exchange.NodeRange(c.Node),
			Selection: sel,
		})
	}
	return group, true
}

func summaryDetail(f *anchor.FileDiff, fs FileSummary) string {
	status := ""
	switch f.Status {
	case anchor.NewFile:
		status = "new · "
	case anchor.DeletedFile:
		status = "deleted · "
	case anchor.Renamed:
		status = "renamed from " + f.OldName + " · "
	case anchor.Copied:
		status = "copied from " + f.OldName + " · "
	}
	return status + changedActive(fs.Changed, fs.Active)
}

// changedActive reads "3 changed lines, 1 active comment".
func changedActive(changed, active int) string {
	return anchor.Plural(changed, "changed line", "changed lines") + ", " + anchor.Plural(active, "active comment", "active comments")
}

// commentTitle names a comment in the outline: its id and its anchor.
func commentTitle(c *exchange.Comment, r *anchor.Resolution) string {
	where := c.Path + " " + c.SideNorm() + " " + strconv.Itoa(c.StartLine)
	if c.EndLine > c.StartLine {
		where += "-" + strconv.Itoa(c.EndLine)
	}
	if r != nil && !r.Resolved && !r.Skipped && c.StateNorm() != exchange.StateDismissed {
		where += " (does not resolve)"
	}
	return c.Name() + " · " + where
}
