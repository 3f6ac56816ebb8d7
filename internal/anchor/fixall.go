package anchor

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Applied is one fix that FixAll or SafeEdits chose, or, Declined, one
// that FixAll left to a person, with why.
type Applied struct {
	Offset   int // where the diagnostic was, in the source the fix applied to
	Line     int // the same as a 1-based line
	Code     string
	Done     string
	Declined bool
}

// SafeEdits picks the fixes that need no choice (diagnostics.md's
// source.fixAll set: each diagnostic's fix marked Safe) whose edits do not
// overlap, first come first served in document order.
func SafeEdits(an *Analysis) ([]exchange.Edit, []Applied) {
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
	for _, d := range an.Diagnostics {
		for _, f := range d.Fixes {
			if !f.Safe {
				continue
			}
			if slices.ContainsFunc(f.Edits, overlaps) {
				break
			}
			for _, e := range f.Edits {
				used = append(used, taken{e.Start, e.End})
			}
			edits = append(edits, f.Edits...)
			line, _ := an.Doc.Mapper().LineCol(d.Range.Start)
			applied = append(applied, Applied{Offset: d.Range.Start, Line: line, Code: d.Code, Done: cmp.Or(f.Done, f.Title)})
			break
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return edits, applied
}

// maxFixRounds bounds FixAll: a fix can reveal another (a header count
// fixed, then a drift resolved), but never endlessly.
const maxFixRounds = 5

// Fixed is what FixDocument made of a document.
type Fixed struct {
	// Src is the fixed text.
	Src []byte
	// Applied lists the fixes applied, then (Declined) one entry per
	// comment whose anchor still has a diagnostic, saying why it was left.
	Applied []Applied
	// Analysis is the check of Src: what `check` would say of it.
	Analysis *Analysis
}

// Errors counts the error diagnostics the fixed document still has.
func (f *Fixed) Errors() int {
	n := 0
	for _, d := range f.Analysis.Diagnostics {
		if d.Severity == exchange.SeverityError {
			n++
		}
	}
	return n
}

// FixDocument applies the safe fixes to src until none is left, and
// returns the fixed text, what it did, then (Declined) what it left to a
// person and why, comment by comment: a tie, a path that names several
// files, a comment whose state a move would contradict, a snippet found
// nowhere; and the check of the result. A document with syntax errors is
// refused: its structure is a guess, and a fix must never lose data.
func FixDocument(src []byte) (*Fixed, error) {
	var all []Applied
	var last *Analysis
	for round := 0; round <= maxFixRounds; round++ {
		doc := exchange.Parse(src)
		if len(doc.Syntax) > 0 {
			if round == 0 {
				return nil, doc.SyntaxRefusal("fix")
			}
			return nil, fmt.Errorf("internal error: a fix produced invalid JSON; nothing written")
		}
		last = CheckDocument(doc, nil)
		if round == maxFixRounds {
			break // the check of the last round's result: what is left
		}
		edits, applied := SafeEdits(last)
		if len(edits) == 0 {
			break
		}
		next, err := exchange.ApplyEdits(src, edits)
		if err != nil {
			return nil, err
		}
		src = next
		all = append(all, applied...)
	}
	all = append(all, declined(last)...)
	return &Fixed{Src: src, Applied: all, Analysis: last}, nil
}

// declined says, once per comment that still has an anchoring diagnostic,
// why fix left it (leftReason). Dismissed comments have none: a person
// already decided about them.
func declined(an *Analysis) []Applied {
	var out []Applied
	m := an.Doc.Mapper()
	for i, ds := range an.Anchors.byComment {
		d := leftOn(ds)
		if d == nil || i >= len(an.Anchors.Resolutions) {
			continue
		}
		line, _ := m.LineCol(d.Range.Start)
		out = append(out, Applied{Offset: d.Range.Start, Line: line, Code: d.Code, Done: leftReason(an.Anchors.Resolutions[i], d), Declined: true})
	}
	return out
}

// leftOn picks the diagnostic that tells best why a comment was left: its
// anchor's (orphaned-anchor, snippet-mismatch) before its state's
// (stale-anchor, orphaned-resolves); nil when it has none of them.
func leftOn(ds []exchange.Diagnostic) *exchange.Diagnostic {
	var state *exchange.Diagnostic
	for i := range ds {
		switch ds[i].Code {
		case exchange.CodeOrphanedAnchor, exchange.CodeSnippetMismatch:
			return &ds[i]
		case exchange.CodeStaleAnchor, exchange.CodeOrphanedResolves:
			state = &ds[i]
		}
	}
	return state
}

// leftReason says why comment r, diagnosed d, was left as it is.
func leftReason(r *Resolution, d *exchange.Diagnostic) string {
	c := r.Comment
	name := c.Name()
	at := LineSpan(r.Side, c.StartLine, c.EndLine)
	switch d.Code {
	case exchange.CodeStaleAnchor:
		return fmt.Sprintf("left %s stale at %s: its anchor holds, but fix never changes a comment's state", name, at)
	case exchange.CodeOrphanedResolves:
		return fmt.Sprintf("left %s orphaned at %s: its anchor resolves again, but fix never changes a comment's state", name, at)
	}
	if why := declineReason(r); why != "" {
		return why
	}
	if slices.ContainsFunc(d.Fixes, func(f exchange.Fix) bool { return f.Safe }) {
		return fmt.Sprintf("left %s: its fix was still pending after %d rounds of fixes", name, maxFixRounds)
	}
	if !isActive(c) && slices.ContainsFunc(d.Fixes, func(f exchange.Fix) bool { return f.Preferred }) {
		return fmt.Sprintf("left %s at %s: it is %s, and fix changes only active comments", name, at, c.StateNorm())
	}
	if d.Code == exchange.CodeSnippetMismatch {
		return fmt.Sprintf("left %s at %s: its snippet is not there, and no place in the patch holds it", name, at)
	}
	switch {
	case r.Reason == ReasonUnknownPath && len(r.NearPaths) == 0:
		return fmt.Sprintf("left %s: orphaned — no file %q in the patch, nor one with a name near it", name, c.Path)
	case strings.TrimSpace(c.Snippet) == "":
		return fmt.Sprintf("left %s: orphaned — %s, and it has no snippet to look for", name, orphanedWords(r))
	}
	return fmt.Sprintf("left %s: orphaned — no place in the patch holds its snippet", name)
}

// orphanedWords says in a few words why r does not resolve.
func orphanedWords(r *Resolution) string {
	c := r.Comment
	switch r.Reason {
	case ReasonUnknownPath:
		return fmt.Sprintf("no file %q in the patch", c.Path)
	case ReasonNoSuchImage:
		return fmt.Sprintf("%q has no %s image", c.Path, r.Side)
	case ReasonInvertedRange:
		return "its end_line is before its start_line"
	case ReasonRangeCrossesHunks:
		return LineSpan(r.Side, c.StartLine, c.EndLine) + " crosses hunks"
	}
	return LineSpan(r.Side, c.StartLine, c.EndLine) + " is not in the patch"
}

// declineReason says why comment r was left alone, or "" when there is
// nothing a person could be told (no candidate at all, say).
func declineReason(r *Resolution) string {
	c := r.Comment
	name := c.Name()
	where := fmt.Sprintf("%s at %s", name, LineSpan(r.Side, c.StartLine, c.EndLine))
	var best *Candidate
	for i := range r.Candidates {
		if r.Candidates[i].Preferred {
			best = &r.Candidates[i]
		}
	}
	switch {
	case r.Reason == ReasonUnknownPath && r.Normalised && len(r.NearPaths) > 1:
		return fmt.Sprintf("left %s's path %q: once normalised it names %d files of the patch: %s", name, c.Path, len(r.NearPaths), quoteAll(r.NearPaths))
	case r.Reason == ReasonUnknownPath && len(r.NearPaths) > 0 && !r.Normalised:
		return fmt.Sprintf("left %s's path %q: %s is only a guess", name, c.Path, quoteAll(r.NearPaths))
	case r.Tie != "":
		return fmt.Sprintf("left %s: %s", where, r.Tie)
	case best != nil && !isActive(c):
		return fmt.Sprintf("left %s: it is %s, and fix never changes a comment's state (its snippet is at %s)", where, c.StateNorm(), LineSpan(best.Side, best.Start, best.End))
	case r.SearchCut:
		return fmt.Sprintf("left %s: the search for its snippet was cut short", where)
	}
	return ""
}

func quoteAll(ps []string) string {
	qs := make([]string, len(ps))
	for i, p := range ps {
		qs[i] = fmt.Sprintf("%q", p)
	}
	return strings.Join(qs, ", ")
}
