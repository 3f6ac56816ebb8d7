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
// The block is looked for between both neighbours where the tree has
// them now (Tree.LocateDiffLine: tracked through a buffer's edits, or by
// the line diff, as the comments are), then after the one before, then
// before the one after (a neighbour may be another comment's lines,
// replaced by its own suggestion), and last alone, when the tree no
// longer holds the comment's lines, within appliedAloneReach lines of
// where they were.
func AppliedSuggestion(an *anchor.Analysis, t *worktree.Tree, ci int) (Applied, bool) {
	c := an.Doc.Review.Comments[ci]
	if c.StateNorm() != exchange.StateActive {
		return Applied{}, false
	}
	block, ok := threadSuggestion(c)
	res := an.Anchors.Resolutions[ci]
	if !ok || res == nil || !res.Resolved || res.Side != anchor.Right || res.File == nil || res.File.NewName == "" {
		return Applied{}, false
	}
	own := imageTexts(an, res, res.First, res.Last)
	if len(own) == 0 || slices.Equal(own, block) {
		return Applied{}, false // the block is the lines themselves: nothing to apply
	}
	file, err := t.Read(res.File.NewName)
	if err != nil {
		return Applied{}, false
	}
	if start, ok := betweenNeighbours(an, t, res, file, block); ok {
		return applied(an, ci, res, start, len(block)), true
	}
	expect := res.Lines()[0].Number(anchor.Right)
	if len(block) == 0 || t.LocateComment(&an.Doc.Review.Patch, res).Found() {
		return Applied{}, false
	}
	if m, ok := file.Search().Find(block, expect); ok && !m.Partial && m.Distance <= appliedAloneReach {
		return applied(an, ci, res, m.Start, len(block)), true
	}
	return Applied{}, false
}

// betweenNeighbours returns the first line of block in file where the
// RIGHT lines just before and just after res's lines are now: between
// both, else after the one before, else before the one after.
func betweenNeighbours(an *anchor.Analysis, t *worktree.Tree, res *anchor.Resolution, file *worktree.File, block []string) (int, bool) {
	p, f, h := &an.Doc.Review.Patch, res.File, res.Hunk
	lines := f.Hunks[h].Lines
	prev, next := 0, 0
	for i := res.First - 1; i >= 0; i-- {
		if lines[i].In(anchor.Right) {
			if loc := t.LocateDiffLine(p, f, h, i); loc.Found() {
				prev = loc.Start
			}
			break
		}
	}
	for i := res.Last + 1; i < len(lines); i++ {
		if lines[i].In(anchor.Right) {
			if loc := t.LocateDiffLine(p, f, h, i); loc.Found() {
				next = loc.Start
			}
			break
		}
	}
	holds := func(start int) bool {
		if start < 1 || start+len(block)-1 > file.Lines() {
			return false
		}
		for k, s := range block {
			if !anchor.SameText(file.Line(start+k), s) {
				return false
			}
		}
		return true
	}
	switch {
	case prev > 0 && next > 0 && next-prev-1 == len(block) && holds(prev+1):
		return prev + 1, true
	case len(block) == 0:
		return 0, false // a deletion with one neighbour says nothing
	case prev > 0 && holds(prev+1):
		return prev + 1, true
	case next > 0 && holds(next-len(block)):
		return next - len(block), true
	}
	return 0, false
}

// appliedAloneReach bounds how far from the comment's lines a block
// found without its neighbours may be.
const appliedAloneReach = 20

func applied(an *anchor.Analysis, ci int, res *anchor.Resolution, start, n int) Applied {
	return Applied{Comment: ci, Name: an.Doc.Review.Comments[ci].Name(), Path: res.File.NewName, Start: start, End: start + n - 1}
}

// imageTexts are the texts of the RIGHT lines from index first to last of
// res's hunk.
func imageTexts(an *anchor.Analysis, res *anchor.Resolution, first, last int) []string {
	h := &res.File.Hunks[res.Hunk]
	var out []string
	for i := max(first, 0); i <= last && i < len(h.Lines); i++ {
		if h.Lines[i].In(anchor.Right) {
			out = append(out, res.File.Content(&an.Doc.Review.Patch, h.PatchLine(i)))
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
		Code:     CodeSuggestionApplied,
		Message:  fmt.Sprintf("%s's suggestion is applied: %s holds it", a.Name, a.Place()),
	}
}

// appliedActions are the actions on the comments the range start–end
// touches whose suggestion is applied: dismiss the comment, or reply
// "Applied." to it, each one action.
func appliedActions(an *anchor.Analysis, t *worktree.Tree, start, end int, opts ActionOptions) []Action {
	doc := an.Doc
	if doc == nil || len(doc.Syntax) > 0 {
		return nil
	}
	var out []Action
	for ci, c := range doc.Review.Comments {
		if c.Node == nil || c.Node.End < start || c.Node.Start > end {
			continue
		}
		ap, ok := AppliedSuggestion(an, t, ci)
		if !ok {
			continue
		}
		d := appliedDiagnostic(c, ap)
		out = append(out, Action{
			Title:     fmt.Sprintf("Dismiss %s: its suggestion is applied", ap.Name),
			Edits:     []exchange.Edit{exchange.SetStateEdit(doc.Text, c, exchange.StateDismissed)},
			Resolves:  &d,
			Preferred: true,
		})
		if e, ok := exchange.ReplyEdit(doc.Text, c, opts.author(), AppliedReply, Stamp(opts.Now)); ok {
			out = append(out, Action{Title: fmt.Sprintf("Reply “%s” to %s", AppliedReply, ap.Name), Edits: []exchange.Edit{e}, Resolves: &d})
		}
	}
	return out
}
