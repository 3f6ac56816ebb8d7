package features

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/diagram"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The review's shape in the editor (internal/cohort): a lens at each
// cohort's first file header, the cohort in the file header's hover, the
// uses of a changed definition as references, the dependency changes as
// diagnostics on the manifest's lines.

// CohortLens is the lens over a cohort's first file header.
type CohortLens struct {
	Range    exchange.Range
	Title    string
	Key      string
	Reviewed string // "", "reviewed", "changed"
}

// CohortLenses returns one lens per cohort, riskiest first: "cohort 1 of
// 5 · auth · high: 14 uses outside, public API changed, no test change ·
// 3 comments · reviewed".
func CohortLenses(an *anchor.Analysis, s *cohort.Shape) []CohortLens {
	if s == nil {
		return nil
	}
	patch := &an.Doc.Review.Patch
	var out []CohortLens
	for _, c := range s.Cohorts {
		f := firstHeader(an, c)
		if f == nil || f.First >= patch.LineCount() {
			continue
		}
		out = append(out, CohortLens{Range: LineRange(patch, f.First), Title: CohortTitle(c, len(s.Cohorts)), Key: c.Key, Reviewed: c.Reviewed})
	}
	return out
}

// CohortTitle is a cohort in one line.
func CohortTitle(c *cohort.Cohort, of int) string {
	reasons := c.Reasons
	// The size is on the title's own terms; the lens keeps the rest short.
	if n := len(reasons); n > 0 && strings.Contains(reasons[n-1], " changed in ") {
		reasons = reasons[:n-1]
	}
	var kept []string
	for _, r := range reasons {
		if !strings.HasSuffix(r, "active comment") && !strings.HasSuffix(r, "active comments") {
			kept = append(kept, r)
		}
	}
	t := fmt.Sprintf("cohort %d of %d · %s · %s", c.Rank, of, c.Name, c.Level)
	if len(kept) > 0 {
		t += ": " + strings.Join(kept[:min(3, len(kept))], ", ")
	}
	if c.Comments > 0 {
		t += " · " + anchor.Plural(c.Comments, "comment", "comments")
	}
	switch c.Reviewed {
	case "reviewed":
		t += " · reviewed"
	case "changed":
		t += " · reviewed, changed since"
	}
	return t
}

// firstHeader is the file diff of a cohort that comes first in the patch.
func firstHeader(an *anchor.Analysis, c *cohort.Cohort) *anchor.FileDiff {
	var first *anchor.FileDiff
	for _, f := range an.Index.Files {
		p := f.DisplayName()
		if f.Status == anchor.DeletedFile {
			p = f.OldName
		}
		for _, q := range c.Files {
			if p == q && (first == nil || f.First < first.First) {
				first = f
			}
		}
	}
	return first
}

// CohortHover is the Markdown a file header's hover adds: the file's
// cohort, its rank, reasons and blast radius.
func CohortHover(s *cohort.Shape, path string) string {
	c := s.Of(path)
	if c == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Cohort %d of %d** · %s · %s", c.Rank, len(s.Cohorts), c.Name, c.Level)
	if c.Reviewed != "" {
		fmt.Fprintf(&b, " · %s", c.Reviewed)
	}
	for _, r := range c.Reasons {
		b.WriteString("\n- " + r)
	}
	for _, bl := range c.BlastRadius {
		if bl.Path != path {
			continue
		}
		fmt.Fprintf(&b, "\n\n`%s` (line %d): %s, %d outside the cohort", bl.Definition, bl.Line, anchor.Plural(len(bl.Uses), "use", "uses"), bl.Outside)
		if bl.Possible > 0 {
			fmt.Fprintf(&b, ", %d possible", bl.Possible)
		}
	}
	return b.String()
}

// CohortNotesHover is the Markdown the hover of a cohort's first file
// header adds when the review keeps notes for the cohort's key
// (internal/diagram): its summary and its diagrams, each edge checked
// against g now (nil: none, every edge unverified), unverified edges
// dashed, labelled and listed.
func CohortNotesHover(an *anchor.Analysis, s *cohort.Shape, path string, g *codegraph.Graph) string {
	c := s.Of(path)
	if c == nil {
		return ""
	}
	if f := firstHeader(an, c); f == nil || (f.DisplayName() != path && f.OldName != path) {
		return ""
	}
	notes, _, err := diagram.ReadNotes(an.Doc)
	if err != nil {
		return "The cohort's notes cannot be read: " + err.Error()
	}
	n, ok := notes[c.Key]
	if !ok {
		return ""
	}
	var cg diagram.Graph
	if g != nil {
		cg = diagram.CodeGraph{G: g}
	}
	return n.Markdown(cg)
}

// DefinitionUsesAt returns the uses in the working tree of the
// definitions a changed patch line at offset changes (an added line, or
// a removed one inside a definition the new image still has): nil when
// the line changes none.
func DefinitionUsesAt(an *anchor.Analysis, g *codegraph.Graph, offset int) []codegraph.Use {
	pl, ok := PatchLineAt(an.Doc, offset)
	if !ok || g == nil {
		return nil
	}
	fi, hi, li, ok := an.Index.LineAt(pl)
	if !ok {
		return nil
	}
	f := an.Index.Files[fi]
	h := &f.Hunks[hi]
	l := h.Lines[li]
	line := int(l.New)
	switch l.Kind() {
	case anchor.Added:
	case anchor.Removed:
		line = 0
		for j := li; j < len(h.Lines) && line == 0; j++ {
			line = int(h.Lines[j].New)
		}
	default:
		return nil
	}
	var out []codegraph.Use
	for _, id := range g.DefsAt(f.NewName, line, line) {
		out = append(out, g.Uses(id)...)
	}
	return out
}

// DependencyDiagnostics are the dependency changes of the patch's
// manifests, each on the patch line that makes it: information for a
// major version change, a hint otherwise.
func DependencyDiagnostics(an *anchor.Analysis, deps []cohort.DepChange) []exchange.Diagnostic {
	patch := &an.Doc.Review.Patch
	var out []exchange.Diagnostic
	for _, d := range deps {
		if d.PatchLine >= patch.LineCount() {
			continue
		}
		sev := exchange.SeverityHint
		if d.Major {
			sev = exchange.SeverityInformation
		}
		out = append(out, exchange.Diagnostic{Range: LineRange(patch, d.PatchLine), Severity: sev, Code: cohort.CodeDependencyChange, Message: d.Message()})
	}
	return out
}

// ErrNoCohort is MarkCohort's error for a key no cohort has.
var ErrNoCohort = errors.New("no cohort has that key")

// MarkCohort returns the edit of the review that marks the cohort key
// reviewed (reviewed false: removes its mark).
func MarkCohort(an *anchor.Analysis, s *cohort.Shape, in cohort.Input, key string, reviewed bool) (exchange.Edit, error) {
	for _, c := range s.Cohorts {
		if c.Key != key {
			continue
		}
		mark := cohort.Mark{}
		if reviewed {
			mark = cohort.Mark{Fingerprint: s.FingerprintOf(c, in), Files: c.Files}
		}
		e, ok := cohort.MarkEdit(an.Doc, key, mark)
		if !ok {
			return exchange.Edit{}, fmt.Errorf("the review's %s member is not an object, or holds no mark to remove", cohort.ProgressMember)
		}
		return e, nil
	}
	return exchange.Edit{}, ErrNoCohort
}

// NextCohort is the first file header of the next cohort, in rank order
// after the one keyed after ("" from the top), that is not reviewed:
// false when every cohort is.
func NextCohort(an *anchor.Analysis, s *cohort.Shape, after string) (exchange.Range, bool) {
	n := len(s.Cohorts)
	start := 0
	for i, c := range s.Cohorts {
		if c.Key == after {
			start = i + 1
		}
	}
	for k := range n {
		c := s.Cohorts[(start+k)%n]
		if c.Reviewed == "reviewed" {
			continue
		}
		if f := firstHeader(an, c); f != nil {
			r := LineRange(&an.Doc.Review.Patch, f.First)
			return exchange.Range{Start: r.Start, End: r.Start}, true
		}
	}
	return exchange.Range{}, false
}

// FileHeaderPath is the path of the file whose diff header line is at
// offset ("" elsewhere): the new name, the old one for a deleted file.
func FileHeaderPath(an *anchor.Analysis, offset int) string {
	pl, ok := PatchLineAt(an.Doc, offset)
	if !ok {
		return ""
	}
	fi, hi, _, _ := an.Index.LineAt(pl)
	if fi < 0 || hi >= 0 {
		return ""
	}
	f := an.Index.Files[fi]
	if f.Status == anchor.DeletedFile {
		return f.OldName
	}
	return f.DisplayName()
}

// CohortSymbols is the outline's cohorts entry: each cohort riskiest
// first ("1. store · MaxItems", its level and reasons), its files under
// it, each going to its header line. False without a shape.
func CohortSymbols(an *anchor.Analysis, s *cohort.Shape) (Symbol, bool) {
	if s == nil || len(s.Cohorts) == 0 {
		return Symbol{}, false
	}
	p := &an.Doc.Review.Patch
	byPath := map[string]*anchor.FileDiff{}
	for _, f := range an.Index.Files {
		name := f.DisplayName()
		if f.Status == anchor.DeletedFile {
			name = f.OldName
		}
		byPath[name] = f
	}
	group := Symbol{Name: "cohorts", Kind: SymbolDir, Detail: "riskiest first"}
	for _, c := range s.Cohorts {
		cs := Symbol{Name: fmt.Sprintf("%d. %s", c.Rank, c.Name), Kind: SymbolDir, Detail: c.Level + " · " + strings.Join(c.Reasons, ", ")}
		if c.Reviewed != "" {
			cs.Detail += " · " + c.Reviewed
		}
		for _, path := range c.Files {
			f := byPath[path]
			if f == nil || f.First >= p.LineCount() {
				continue
			}
			first, last := p.LineElemRange(f.First), p.LineElemRange(f.Last)
			fs := Symbol{Name: path, Kind: SymbolFile, Range: exchange.Range{Start: first.Start, End: last.End},
				Selection: exchange.Range{Start: p.LineStart(f.First), End: p.LineEnd(f.First)}}
			if len(cs.Children) == 0 || fs.Range.Start < cs.Range.Start {
				cs.Range.Start = fs.Range.Start
			}
			cs.Range.End = max(cs.Range.End, fs.Range.End)
			cs.Children = append(cs.Children, fs)
		}
		if len(cs.Children) == 0 {
			continue
		}
		cs.Selection = cs.Children[0].Selection
		if len(group.Children) == 0 || cs.Range.Start < group.Range.Start {
			group.Range.Start = cs.Range.Start
		}
		group.Range.End = max(group.Range.End, cs.Range.End)
		group.Children = append(group.Children, cs)
	}
	if len(group.Children) == 0 {
		return Symbol{}, false
	}
	group.Selection = group.Children[0].Selection
	return group, true
}
