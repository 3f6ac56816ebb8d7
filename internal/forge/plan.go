package forge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Plan is a document checked for export as a forge checks a review: the
// comments that can be posted, the ones left out on purpose (dismissed,
// orphaned, stale) and the active ones the forge would refuse.
type Plan struct {
	Doc *exchange.Document
	// Analysis is Doc's, made once here: the export's verdict and cohorts
	// read it too.
	Analysis *anchor.Analysis
	Title    string
	Summary  string
	Verdict  string // VerdictSection, after the summary in the body
	Cohorts  string // CohortsSection, after the verdict
	Problems []Problem
	Left     []LeftOut
	placed   []placed
}

// NewPlan checks doc for export. It fails on a document that has syntax
// errors or is not an object: where its comments anchor would be a guess.
func NewPlan(doc *exchange.Document) (*Plan, error) {
	if err := doc.SyntaxRefusal("export"); err != nil {
		return nil, err
	}
	if doc.Review.Node == nil {
		return nil, errors.New("not exporting: the document is not a JSON object")
	}
	an := anchor.CheckDocument(doc, nil)
	for _, d := range an.Diagnostics {
		// A duplicate member makes the file two reviews: which one would be
		// sent depends on the reader.
		if d.Code == exchange.CodeVersionMissing || d.Code == exchange.CodeVersionUnknown || d.Code == exchange.CodeDuplicateMember {
			line, col := doc.Mapper().LineCol(d.Range.Start)
			return nil, fmt.Errorf("not exporting: %d:%d: %s [%s]", line, col, d.Message, d.Code)
		}
	}
	p := &Plan{Doc: doc, Analysis: an, Title: doc.Review.Title, Summary: doc.Review.Summary}
	for i, c := range doc.Review.Comments {
		name, at := c.Name(), c.Node.Start
		if st := c.StateNorm(); st != exchange.StateActive {
			p.Left = append(p.Left, LeftOut{Offset: at, Comment: name, Why: leftWhy(st)})
			continue
		}
		if pr, ok := refused(an, c, an.Anchors.Resolutions[i]); ok {
			p.Problems = append(p.Problems, pr)
			continue
		}
		r := an.Anchors.Resolutions[i]
		h := &r.File.Hunks[r.Hunk]
		first, last := r.First, r.Last
		// A RIGHT range may begin or end beside removed lines that its
		// image does not hold; its ends are the image's lines.
		for !h.Lines[first].In(r.Side) {
			first++
		}
		for !h.Lines[last].In(r.Side) {
			last--
		}
		p.placed = append(p.placed, placed{c: c, file: r.File, side: r.Side, hunk: h, first: first, last: last})
	}
	return p, nil
}

// leftWhy says why a comment in state st is not posted: the spec's words
// for each state.
func leftWhy(st string) string {
	switch st {
	case exchange.StateDismissed:
		return "dismissed: a person rejected it; it must not be submitted again"
	case exchange.StateOrphaned:
		return "orphaned: its anchor does not resolve; orphaned comments are never submitted"
	case exchange.StateStale:
		return "stale: its anchor awaits re-anchoring (lreview-lsp fix, or a quick fix in the editor)"
	}
	return fmt.Sprintf("state %q is none of active, dismissed, orphaned, stale", st)
}

// refused returns the problem a forge would answer an active comment
// with: an anchor that does not resolve (a line not in the diff, a range
// across hunks), a snippet mismatch, or anchor members that cannot be
// read.
func refused(an *anchor.Analysis, c *exchange.Comment, r *anchor.Resolution) (Problem, bool) {
	// A schema error in the comment's own members comes first: a body
	// that is not a string would be posted empty. Its replies' are not
	// the forge's business: they are quoted as they are.
	if d, ok := diagnosticIn(an, c, exchange.CodeSchema); ok && !inside(d.Range, c.Member("replies")) {
		return problemOf(c, d), true
	}
	switch {
	case r == nil || r.Skipped:
		return Problem{Offset: c.Node.Start, Comment: c.Name(), Code: exchange.CodeSchema,
			Message: "its anchor (path, side, start_line, end_line) cannot be read", Hint: "run lreview-lsp check for the details"}, true
	case !r.Resolved:
		if d, ok := diagnosticIn(an, c, exchange.CodeOrphanedAnchor); ok {
			return problemOf(c, d), true
		}
		return Problem{Offset: c.Node.Start, Comment: c.Name(), Code: exchange.CodeOrphanedAnchor,
			Message: "its anchor does not resolve against the patch"}, true
	}
	if d, ok := diagnosticIn(an, c, exchange.CodeSnippetMismatch); ok {
		return problemOf(c, d), true
	}
	return Problem{}, false
}

// diagnosticIn returns the first diagnostic with code inside comment c.
func diagnosticIn(an *anchor.Analysis, c *exchange.Comment, code string) (exchange.Diagnostic, bool) {
	for _, d := range an.Diagnostics {
		if d.Code == code && d.Range.Start >= c.Node.Start && d.Range.End <= c.Node.End {
			return d, true
		}
	}
	return exchange.Diagnostic{}, false
}

func inside(r exchange.Range, n *exchange.Node) bool {
	return n != nil && r.Start >= n.Start && r.End <= n.End
}

func problemOf(c *exchange.Comment, d exchange.Diagnostic) Problem {
	h := hint(d.Fixes)
	if h == "" && d.Code == exchange.CodeSchema {
		h = "write the member as the format says (lreview-lsp check lists every problem)"
	}
	return Problem{Offset: d.Range.Start, Comment: c.Name(), Code: d.Code, Message: d.Message, Hint: h}
}

// hint names a diagnostic's fixes: the preferred one, else every one.
func hint(fixes []exchange.Fix) string {
	var titles []string
	for _, f := range fixes {
		if f.Preferred {
			t := f.Title
			if f.Safe {
				t += " (lreview-lsp fix -w applies it)"
			}
			return t
		}
		titles = append(titles, f.Title)
	}
	return strings.Join(titles, ", or ")
}
