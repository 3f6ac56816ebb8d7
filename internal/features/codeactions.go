package features

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The editing actions: what a person does to a review from their editor
// rather than what a diagnostic asks for. Dismiss and restore (the terminal
// UI's `x` toggle), reactivate, reply, re-anchor a stale comment, and
// comment on a diff line. They are pure functions of the document, so that
// the language server only converts their edits, and like every change the
// project makes they are minimal edits: a state value replaced, a reply or
// a comment inserted, never an object rewritten, so that a person's layout
// and unknown members survive. The edits themselves are built where every
// review edit is, in internal/exchange (edit.go); these choose which.

// DefaultAuthor signs new comments and replies when the user set no
// lreview.author. Not "you": the review goes back to an LLM, which would
// read "you" as itself; "user" is the usual counterpart of the "assistant"
// that writes reviews.
const DefaultAuthor = "user"

// ActionOptions is what the editing actions need besides the document.
type ActionOptions struct {
	// Author signs new comments and replies; DefaultAuthor when empty.
	Author string
	// Now stamps the `at` of new comments and replies.
	Now time.Time
}

func (o ActionOptions) author() string {
	if o.Author == "" {
		return DefaultAuthor
	}
	return o.Author
}

// Action is one editing action offered at a place of the document.
type Action struct {
	Title string
	Edits []exchange.Edit
	// Resolves is the diagnostic of the analysis that the action settles, or
	// nil: reactivating an orphaned comment whose anchor resolves is the fix
	// of its orphaned-resolves diagnostic, re-anchoring a stale comment
	// settles its stale-anchor. The server offers such an action as a quick
	// fix for that diagnostic, and any other as a rewrite.
	Resolves *exchange.Diagnostic
	// Cursor, when set, is where the editor puts the cursor once the
	// action is applied: inside the empty body it writes.
	Cursor *BodyCursor
	// Preferred marks the action an editor may apply as the fix of that
	// diagnostic without asking.
	Preferred bool
}

// Stamp formats t as an `at` value: RFC 3339 in UTC, to the second, as
// leanreview writes it.
func Stamp(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// actionsAt returns the editing actions for the range [start, end] of the
// document a analyses: the comment actions when start is inside a
// comment object, the "comment on this line" actions when it is on a body
// line of the patch. A document with syntax errors gets none: its
// structure is a guess, and an insertion could land in the wrong place.
func actionsAt(an *anchor.Analysis, start, end int, opts ActionOptions) []Action {
	doc := an.Doc
	if doc == nil || len(doc.Syntax) > 0 || doc.Review.Node == nil {
		return nil
	}
	var out []Action
	if c := anchor.CommentAt(doc, start); c != nil {
		out = append(out, commentActions(an, c, opts)...)
	}
	out = append(out, newCommentActions(an, start, end, opts)...)
	return out
}

// commentActions are the actions on comment c: its state, a reply, and
// re-anchoring when it is stale.
func commentActions(an *anchor.Analysis, c *exchange.Comment, opts ActionOptions) []Action {
	src := an.Doc.Text
	name := c.Name()
	var out []Action
	add := func(title string, edits ...exchange.Edit) {
		out = append(out, Action{Title: title, Edits: edits})
	}
	switch c.StateNorm() {
	case exchange.StateDismissed:
		add("Restore "+name, exchange.SetStateEdit(src, c, exchange.StateActive))
	case exchange.StateOrphaned, exchange.StateStale:
		add("Reactivate "+name, exchange.SetStateEdit(src, c, exchange.StateActive))
		add("Dismiss "+name, exchange.SetStateEdit(src, c, exchange.StateDismissed))
	default:
		add("Dismiss "+name, exchange.SetStateEdit(src, c, exchange.StateDismissed))
	}
	if e, ok := exchange.ReplyEdit(src, c, opts.author(), "", Stamp(opts.Now)); ok {
		add("Reply to "+name, e)
		out[len(out)-1] = withBodyCursor(out[len(out)-1], BodyCursor{Comment: name, Reply: len(c.Replies)})
	}
	for i := range out {
		out[i].Resolves = diagnosticFixedBy(an, c, out[i].Edits)
	}
	if c.StateNorm() == exchange.StateStale {
		if act, ok := reanchorAction(an, c); ok {
			out = append(out, act)
		}
	}
	return out
}

// commentDiagnostics returns those of ds that are about the comment
// holding offset (its object, from brace to brace), or none when offset
// is in no comment: the fixes of a comment's problems are offered wherever
// the cursor is in it, as an editor that sends only the cursor (Helix)
// names no diagnostic.
func commentDiagnostics(an *anchor.Analysis, ds []exchange.Diagnostic, offset int) []exchange.Diagnostic {
	if an.Doc == nil || an.Doc.Review.Node == nil {
		return nil
	}
	c := anchor.CommentAt(an.Doc, offset)
	if c == nil {
		return nil
	}
	var out []exchange.Diagnostic
	for _, d := range ds {
		if rangeInNode(d.Range, c.Node) {
			out = append(out, d)
		}
	}
	return out
}

// diagnosticFixedBy returns the diagnostic of comment c one of whose fixes makes
// exactly edits: the action is then that fix, reached from elsewhere in
// the comment.
func diagnosticFixedBy(an *anchor.Analysis, c *exchange.Comment, edits []exchange.Edit) *exchange.Diagnostic {
	for i := range an.Diagnostics {
		d := &an.Diagnostics[i]
		if !rangeInNode(d.Range, c.Node) {
			continue
		}
		for _, f := range d.Fixes {
			if slices.Equal(f.Edits, edits) {
				return d
			}
		}
	}
	return nil
}

// commentDiagnostic returns comment c's diagnostic with code, or nil.
func commentDiagnostic(an *anchor.Analysis, c *exchange.Comment, code string) *exchange.Diagnostic {
	for i := range an.Diagnostics {
		if d := &an.Diagnostics[i]; d.Code == code && rangeInNode(d.Range, c.Node) {
			return d
		}
	}
	return nil
}

// rangeInNode reports whether rg lies within n.
func rangeInNode(rg exchange.Range, n *exchange.Node) bool {
	return n.Start <= rg.Start && rg.End <= n.End
}

// reanchorAction re-anchors stale comment c by content (Reanchor, the
// rebase machinery, with the comment's context), as the terminal UI's
// re-anchoring pass would.
func reanchorAction(an *anchor.Analysis, c *exchange.Comment) (Action, bool) {
	edits, moves := anchor.Reanchor(an.Doc, func(x *exchange.Comment) bool { return x == c })
	if len(edits) == 0 || len(moves) != 1 {
		return Action{}, false
	}
	m := moves[0]
	name := c.Name()
	var title string
	switch {
	case m.Orphaned:
		title = fmt.Sprintf("Re-anchor %s by content: mark it orphaned (%s)", name, m.Why)
	case m.ToSide == m.FromSide && m.ToStart == m.FromStart && m.ToEnd == m.FromEnd:
		title = fmt.Sprintf("Re-anchor %s by content: it holds at %s, mark it active", name, anchor.LineSpan(m.ToSide, m.ToStart, m.ToEnd))
	default:
		title = fmt.Sprintf("Re-anchor %s by content: move to %s (%s)", name, anchor.LineSpan(m.ToSide, m.ToStart, m.ToEnd), m.Why)
	}
	return Action{Title: title, Edits: edits, Resolves: commentDiagnostic(an, c, exchange.CodeStaleAnchor)}, true
}

// FreshID returns an id for a new comment: "c" and one more than the
// highest cN in use. Not the lowest free number: a gap is usually a
// deleted comment, and reusing its id would confuse a reader who still
// remembers it.
func FreshID(doc *exchange.Document) string {
	used := map[string]bool{}
	high := 0
	for _, c := range doc.Review.Comments {
		used[c.ID] = true
		if n, err := strconv.Atoi(strings.TrimPrefix(c.ID, "c")); err == nil && strings.HasPrefix(c.ID, "c") && n > high && c.ID == "c"+strconv.Itoa(n) {
			high = n
		}
	}
	for n := high + 1; ; n++ {
		if id := "c" + strconv.Itoa(n); !used[id] {
			return id
		}
	}
}

// PatchLineAt returns the index among doc.Review.Patch's lines of the line
// whose text holds offset (the element's quotes included in the array
// form), or false.
func PatchLineAt(doc *exchange.Document, offset int) (int, bool) {
	p := &doc.Review.Patch
	i := sort.Search(p.LineCount(), func(i int) bool { return LineRange(p, i).Start > offset }) - 1
	if i < 0 {
		return -1, false
	}
	if r := LineRange(p, i); r.Start <= offset && offset <= r.End {
		return i, true
	}
	return -1, false
}

// newCommentActions are "Comment on RIGHT 74" (and on LEFT for a context
// line) when start is on a body line of a hunk. When end is on another
// body line of the same hunk, the comment spans the lines between, on each
// side whose image holds both ends.
func newCommentActions(an *anchor.Analysis, start, end int, opts ActionOptions) []Action {
	doc, ix := an.Doc, an.Index
	p, ok := patchLineNear(doc, start, true)
	if !ok {
		return nil
	}
	fi, hi, li, ok := ix.LineAt(p)
	if !ok {
		return nil
	}
	f := ix.Files[fi]
	lines := f.Hunks[hi].Lines
	last := li
	if q, ok := patchLineNear(doc, end, end == start); ok && q > p {
		if fj, hj, lj, ok := ix.LineAt(q); ok && fj == fi && hj == hi {
			last = lj
		}
	}
	sides := []anchor.Side{anchor.Right, anchor.Left} // RIGHT first: the usual place to comment
	if last != li && !slices.ContainsFunc(sides, func(s anchor.Side) bool { return lines[li].In(s) && lines[last].In(s) }) {
		last = li // no image holds both ends: the line under the cursor
	}
	at := Stamp(opts.Now)
	var out []Action
	for _, s := range sides {
		from, to := lines[li], lines[last]
		if !from.In(s) || !to.In(s) {
			continue
		}
		path := f.Name(s)
		if path == "" {
			continue
		}
		var anchored []anchor.ImageLine
		for j, l := range lines {
			if n := l.Number(s); n > 0 && n >= from.Number(s) && n <= to.Number(s) {
				anchored = append(anchored, anchor.ImageLine{DiffLine: l, Patch: f.Hunks[hi].PatchLine(j)})
			}
		}
		nc := exchange.NewComment{
			ID: FreshID(doc), Author: opts.author(), Path: path, Side: s.String(),
			Start: from.Number(s), End: to.Number(s), Snippet: anchor.SnippetOf(ix.Patch, f, anchored), At: at,
		}
		if e, ok := exchange.NewCommentEdit(doc, nc); ok {
			out = append(out, withBodyCursor(Action{Title: "Comment on " + anchor.LineSpan(s, nc.Start, nc.End), Edits: []exchange.Edit{e}}, BodyCursor{Comment: nc.ID, Reply: -1}))
		}
	}
	return out
}

// FixAllTitle names the source.fixAll action after what it applies.
func FixAllTitle(applied []anchor.Applied) string {
	if len(applied) == 1 {
		return "Apply the safe lreview fix: " + applied[0].Done
	}
	return fmt.Sprintf("Apply all %d safe lreview fixes", len(applied))
}
