package features

import (
	"fmt"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// A suggestion seen as applied: once the person applied c2's suggestion
// (by the action, `apply`, or by hand) the tree no longer holds c2's
// lines, and saying "the code changed since the review" would be wrong:
// it changed as asked. The suggestion is applied when the tree holds the
// block's lines where the comment's lines were: between the RIGHT lines
// of the hunk just before and just after them, those neighbours placing
// the block. Without a neighbour (the comment spans its whole hunk) the
// block alone is looked for, nearest where the lines were.

// AppliedReply is the body of the reply the "reply Applied." action adds.
const AppliedReply = "Applied."

// Applied is a comment whose suggestion the working tree holds.
type Applied struct {
	Comment int
	Name    string
	// Path is the file and Start to End the block's lines in it (from 1;
	// End < Start when the suggestion deleted the lines).
	Path       string
	Start, End int
}

// Place is "path:30" or "path:30–31" (the line after, for a deletion).
func (a Applied) Place() string {
	if a.End < a.Start {
		return lineSpan(a.Path, a.Start, a.Start)
	}
	return lineSpan(a.Path, a.Start, a.End)
}

// AppliedSuggestion reports whether the working tree holds comment ci's
// suggestion where its lines were. Only an active RIGHT comment with a
// suggestion block can be applied, as only such a one is offered.
//
// The block is looked for between both neighbours, then after the one
// before, then before the one after (a neighbour may be another
// comment's lines, replaced by its own suggestion), and last alone, when
// the tree no longer holds the comment's lines, within
// appliedAloneReach lines of where they were.
func (r Analysis) AppliedSuggestion(t *worktree.Tree, ci int) (Applied, bool) {
	c := r.Doc.Review.Comments[ci]
	if c.StateNorm() != exchange.StateActive {
		return Applied{}, false
	}
	block, ok := threadSuggestion(c)
	res := r.Anchors.Resolutions[ci]
	if !ok || res == nil || !res.Resolved || res.Side != anchor.Right || res.File == nil || res.File.NewName == "" {
		return Applied{}, false
	}
	own := r.imageTexts(res, res.First, res.Last)
	if len(own) == 0 || slices.Equal(own, block) {
		return Applied{}, false // the block is the lines themselves: nothing to apply
	}
	file, err := t.Read(res.File.NewName)
	if err != nil {
		return Applied{}, false
	}
	lines := res.File.Hunks[res.Hunk].Lines
	before := r.imageTexts(res, 0, res.First-1)
	after := r.imageTexts(res, res.Last+1, len(lines)-1)
	expect := res.Lines()[0].Number(anchor.Right)
	for _, form := range [][2]bool{{true, true}, {true, false}, {false, true}} {
		var texts []string
		if form[0] {
			if len(before) == 0 {
				continue
			}
			texts = append(texts, before[len(before)-1])
		}
		texts = append(texts, block...)
		if form[1] {
			if len(after) == 0 {
				continue
			}
			texts = append(texts, after[0])
		}
		if len(texts) < 2 {
			continue // a deletion with one neighbour says nothing
		}
		at := expect
		if form[0] {
			at--
		}
		if m, ok := file.Search().Find(texts, max(at, 1)); ok && !m.Partial {
			start := m.Start
			if form[0] {
				start++
			}
			return r.applied(ci, res, start, len(block)), true
		}
	}
	if len(block) == 0 || t.LocateComment(&r.Doc.Review.Patch, res).Found() {
		return Applied{}, false
	}
	if m, ok := file.Search().Find(block, expect); ok && !m.Partial && m.Distance <= appliedAloneReach {
		return r.applied(ci, res, m.Start, len(block)), true
	}
	return Applied{}, false
}

// appliedAloneReach bounds how far from the comment's lines a block
// found without its neighbours may be.
const appliedAloneReach = 20

func (r Analysis) applied(ci int, res *anchor.Resolution, start, n int) Applied {
	return Applied{Comment: ci, Name: r.Doc.Review.Comments[ci].Name(), Path: res.File.NewName, Start: start, End: start + n - 1}
}

// imageTexts are the texts of the RIGHT lines from index first to last of
// res's hunk.
func (r Analysis) imageTexts(res *anchor.Resolution, first, last int) []string {
	lines := res.File.Hunks[res.Hunk].Lines
	var out []string
	for i := max(first, 0); i <= last && i < len(lines); i++ {
		if lines[i].In(anchor.Right) {
			out = append(out, res.File.Content(&r.Doc.Review.Patch, lines[i]))
		}
	}
	return out
}

// appliedDiagnostic is the information replacing source-changed on a
// comment whose suggestion the tree holds.
func appliedDiagnostic(c *exchange.Comment, a Applied) exchange.Diagnostic {
	return exchange.Diagnostic{
		Range:    commentAnchorRange(c),
		Severity: exchange.SeverityInformation,
		Code:     exchange.CodeSuggestionApplied,
		Message:  fmt.Sprintf("%s's suggestion is applied: %s holds it", a.Name, a.Place()),
	}
}

// AppliedActions are the actions on the comments the range start–end
// touches whose suggestion is applied: dismiss the comment, or reply
// "Applied." to it, each one action.
func (r Analysis) AppliedActions(t *worktree.Tree, start, end int, opts ActionOptions) []Action {
	doc := r.Doc
	if doc == nil || len(doc.Syntax) > 0 {
		return nil
	}
	var out []Action
	for ci, c := range doc.Review.Comments {
		if c.Node == nil || c.Node.End < start || c.Node.Start > end {
			continue
		}
		a, ok := r.AppliedSuggestion(t, ci)
		if !ok {
			continue
		}
		d := appliedDiagnostic(c, a)
		out = append(out, Action{
			Title:     fmt.Sprintf("Dismiss %s: its suggestion is applied", a.Name),
			Edits:     []exchange.Edit{anchor.SetStateEdit(doc.Text, c, exchange.StateDismissed)},
			Resolves:  &d,
			Preferred: true,
		})
		if e, ok := ReplyBodyEdit(doc.Text, c, opts.author(), AppliedReply, Stamp(opts.Now)); ok {
			out = append(out, Action{Title: fmt.Sprintf("Reply “%s” to %s", AppliedReply, a.Name), Edits: []exchange.Edit{e}, Resolves: &d})
		}
	}
	return out
}
