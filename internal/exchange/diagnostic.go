package exchange

import (
	"bytes"
	"fmt"
	"sort"
)

// Severity follows the LSP numbering so that it needs no translation.
type Severity int

const (
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "info"
	}
	return "hint"
}

// Range is a byte range [Start, End) of the source.
type Range struct {
	Start, End int
}

// NodeRange is the range of a node's value.
func NodeRange(n *Node) Range { return Range{n.Start, n.End} }

// KeyRange is the range of a member's key, quotes included.
func KeyRange(n *Node) Range { return Range{n.KeyStart(), n.KeyEnd()} }

// Related points at another place that explains a diagnostic.
type Related struct {
	Range   Range
	Message string
	// File, when set, is a file outside the review (an absolute path) and
	// FileStart to FileEnd the lines there (from 1) that the message is
	// about; Range is then unused.
	File               string
	FileStart, FileEnd int
}

// Edit replaces the source bytes [Start, End) with NewText. Every change the
// project makes is a list of such minimal edits, so that a person's
// formatting and unknown members survive.
type Edit struct {
	Start, End int
	NewText    string
}

// Fix is one way to resolve a diagnostic.
type Fix struct {
	Title     string
	Edits     []Edit
	Preferred bool
	// Safe marks fixes that need no choice: the source.fixAll set, applied
	// by `lreview-lsp fix`.
	Safe bool
	// Done says what the fix did, in the past tense, for `fix`'s report
	// ("moved c1 from RIGHT 72 to RIGHT 74"); the title serves when empty.
	Done string
}

// Diagnostic is a problem found in a document, addressed by byte range; the
// LSP layer and the command line convert ranges to positions.
type Diagnostic struct {
	Range    Range
	Severity Severity
	Code     string
	Message  string
	Related  []Related
	// Unnecessary asks editors to grey the range out (dismissed comments).
	Unnecessary bool
	// Reason is data.reason for orphaned-anchor.
	Reason string
	Fixes  []Fix
}

// Moved returns d with each range it holds (its own, its related
// informations', its fixes' edits') passed through move. What it changes
// is copied, so that d, shared with an earlier version, stays as it is;
// nil slices stay nil.
func (d Diagnostic) Moved(move func(Range) Range) Diagnostic {
	d.Range = move(d.Range)
	if d.Related != nil {
		rel := make([]Related, len(d.Related))
		for i, r := range d.Related {
			rel[i] = Related{Range: move(r.Range), Message: r.Message}
		}
		d.Related = rel
	}
	if d.Fixes != nil {
		fixes := make([]Fix, len(d.Fixes))
		for i, f := range d.Fixes {
			edits := make([]Edit, len(f.Edits))
			for j, e := range f.Edits {
				r := move(Range{e.Start, e.End})
				edits[j] = Edit{Start: r.Start, End: r.End, NewText: e.NewText}
			}
			f.Edits = edits
			fixes[i] = f
		}
		d.Fixes = fixes
	}
	return d
}

// MovedBy returns ds with every range moved by delta bytes (Moved); ds
// itself, capped so that an append copies, when delta is 0.
func MovedBy(ds []Diagnostic, delta int) []Diagnostic {
	if delta == 0 || len(ds) == 0 {
		return ds[:len(ds):len(ds)]
	}
	move := func(r Range) Range { return Range{r.Start + delta, r.End + delta} }
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = d.Moved(move)
	}
	return out
}

// SortDiagnostics orders diagnostics by position, then code, so that
// output is stable.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Range.Start != b.Range.Start {
			return a.Range.Start < b.Range.Start
		}
		if a.Range.End != b.Range.End {
			return a.Range.End < b.Range.End
		}
		return a.Code < b.Code
	})
}

// ApplyEdits returns src with edits applied. Edits may come in any order
// but must not overlap; identical duplicates (two fixes making the same
// change) are applied once.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Start != sorted[j].Start {
			return sorted[i].Start < sorted[j].Start
		}
		return sorted[i].End < sorted[j].End
	})
	var out bytes.Buffer
	out.Grow(len(src))
	last := 0
	for i, e := range sorted {
		if e.Start < 0 || e.End > len(src) || e.Start > e.End {
			return nil, fmt.Errorf("edit [%d,%d) is outside the document (%d bytes)", e.Start, e.End, len(src))
		}
		if i > 0 && e == sorted[i-1] {
			continue
		}
		if e.Start < last {
			return nil, fmt.Errorf("edit [%d,%d) overlaps the previous edit ending at %d", e.Start, e.End, last)
		}
		out.Write(src[last:e.Start])
		out.WriteString(e.NewText)
		last = e.End
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}
