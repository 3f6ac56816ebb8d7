package anchor

import (
	"fmt"
	"sort"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Applied is one fix that FixAll or SafeEdits chose.
type Applied struct {
	Offset int // where the diagnostic was, in the source the fix applied to
	Line   int // the same as a 1-based line
	Code   string
	Done   string
}

// SafeEdits picks the fixes that need no choice (diagnostics.md's
// source.fixAll set: each diagnostic's fix marked Safe) whose edits do not
// overlap, first come first served in document order.
func SafeEdits(r *Report) ([]exchange.Edit, []Applied) {
	type taken struct{ start, end int }
	var used []taken
	overlaps := func(e exchange.Edit) bool {
		for _, u := range used {
			if e.Start < u.end && u.start < e.End || e.Start == u.start && e.End == u.end {
				return true
			}
		}
		return false
	}
	var edits []exchange.Edit
	var applied []Applied
	for _, d := range r.Diagnostics {
		for _, f := range d.Fixes {
			if !f.Safe {
				continue
			}
			clash := false
			for _, e := range f.Edits {
				clash = clash || overlaps(e)
			}
			if clash {
				break
			}
			for _, e := range f.Edits {
				used = append(used, taken{e.Start, e.End})
			}
			edits = append(edits, f.Edits...)
			done := f.Done
			if done == "" {
				done = f.Title
			}
			line, _ := r.Doc.Mapper().LineCol(d.Range.Start)
			applied = append(applied, Applied{Offset: d.Range.Start, Line: line, Code: d.Code, Done: done})
			break
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits, applied
}

// maxFixRounds bounds FixAll: a fix can reveal another (a header count
// fixed, then a drift resolved), but never endlessly.
const maxFixRounds = 5

// FixAll applies the safe fixes to src until none is left, and returns the
// fixed text and what it did. A document with syntax errors is refused:
// its structure is a guess, and a fix must never lose data.
func FixAll(src []byte) ([]byte, []Applied, error) {
	var all []Applied
	for round := 0; round < maxFixRounds; round++ {
		doc := exchange.Parse(src)
		if len(doc.Syntax) > 0 {
			if round == 0 {
				line, col := doc.Mapper().LineCol(doc.Syntax[0].Start)
				return nil, nil, fmt.Errorf("not fixing a document with syntax errors (first at %d:%d: %s)", line, col, doc.Syntax[0].Msg)
			}
			return nil, nil, fmt.Errorf("internal error: a fix produced invalid JSON; nothing written")
		}
		edits, applied := SafeEdits(CheckDocument(doc, nil))
		if len(edits) == 0 {
			break
		}
		next, err := exchange.ApplyEdits(src, edits)
		if err != nil {
			return nil, nil, err
		}
		src = next
		all = append(all, applied...)
	}
	return src, all, nil
}
