package anchor

import (
	"fmt"
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
// fixed text and what it did, then (Declined) what it left to a person and
// why: a tie, a path that names several files, a comment whose state a
// move would contradict. A document with syntax errors is refused: its
// structure is a guess, and a fix must never lose data.
func FixAll(src []byte) ([]byte, []Applied, error) {
	var all []Applied
	var last *Report
	for round := 0; round < maxFixRounds; round++ {
		doc := exchange.Parse(src)
		if len(doc.Syntax) > 0 {
			if round == 0 {
				line, col := doc.Mapper().LineCol(doc.Syntax[0].Start)
				return nil, nil, fmt.Errorf("not fixing a document with syntax errors (first at %d:%d: %s)", line, col, doc.Syntax[0].Msg)
			}
			return nil, nil, fmt.Errorf("internal error: a fix produced invalid JSON; nothing written")
		}
		last = CheckDocument(doc, nil)
		edits, applied := SafeEdits(last)
		if len(edits) == 0 {
			break
		}
		last = nil
		next, err := exchange.ApplyEdits(src, edits)
		if err != nil {
			return nil, nil, err
		}
		src = next
		all = append(all, applied...)
	}
	if last != nil {
		all = append(all, declined(last)...)
	}
	return src, all, nil
}

// declined says why the anchoring diagnostics of r that fixAll would
// otherwise handle got no safe fix.
func declined(r *Report) []Applied {
	var out []Applied
	for _, d := range r.Diagnostics {
		if d.Code != exchange.CodeOrphanedAnchor && d.Code != exchange.CodeSnippetMismatch && d.Code != exchange.CodeStaleAnchor || hasSafe(d.Fixes) {
			continue
		}
		c := CommentAt(r.Doc, d.Range.Start)
		if c == nil || c.Index >= len(r.Anchors.Resolutions) {
			continue
		}
		res := r.Anchors.Resolutions[c.Index]
		why := declineReason(res)
		if d.Code == exchange.CodeStaleAnchor {
			// Said once per comment: a drifted stale comment is told
			// about on its anchoring diagnostic.
			why = ""
			if res.Resolved && SnippetMatches(c.Snippet, res.Side, res.File, res.Lines()) {
				why = fmt.Sprintf("left %s stale at %s: its anchor holds, but fix never changes a comment's state", CommentName(c), LineSpan(res.Side, c.StartLine, c.EndLine))
			}
		}
		if why == "" {
			continue
		}
		line, _ := r.Doc.Mapper().LineCol(d.Range.Start)
		out = append(out, Applied{Offset: d.Range.Start, Line: line, Code: d.Code, Done: why, Declined: true})
	}
	return out
}

func hasSafe(fs []exchange.Fix) bool {
	for _, f := range fs {
		if f.Safe {
			return true
		}
	}
	return false
}

// declineReason says why comment r was left alone, or "" when there is
// nothing a person could be told (no candidate at all, say).
func declineReason(r *Resolution) string {
	c := r.Comment
	name := CommentName(c)
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
