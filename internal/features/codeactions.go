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

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The editing actions: what a person does to a review from their editor
// rather than what a diagnostic asks for. Dismiss and restore (the terminal
// UI's `x` toggle), reactivate, reply, re-anchor a stale comment, and
// comment on a diff line. They are pure functions of the document, so that
// the language server only converts their edits, and like every change the
// project makes they are minimal edits: a state value replaced, a reply or
// a comment inserted, never an object rewritten, so that a person's layout
// and unknown members survive.
//
// New text is laid out like the text around it: a new comment copies the
// first existing comment's layout, a new reply the last existing reply's;
// without a model, a multi-line object gets multi-line members one
// indentation step deeper, and a one-line object stays on one line. Line
// breaks are the document's own (CRLF stays CRLF).

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
	// Resolves is the diagnostic of the report that the action settles, or
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

// ActionsAt returns the editing actions for the range [start, end] of the
// document checked by r: the comment actions when start is inside a
// comment object, the "comment on this line" actions when it is on a body
// line of the patch. A document with syntax errors gets none: its
// structure is a guess, and an insertion could land in the wrong place.
func ActionsAt(r Analysis, start, end int, opts ActionOptions) []Action {
	doc := r.Doc
	if doc == nil || len(doc.Syntax) > 0 || doc.Review.Node == nil {
		return nil
	}
	var out []Action
	if c := anchor.CommentAt(doc, start); c != nil {
		out = append(out, commentActions(r, c, opts)...)
	}
	out = append(out, newCommentActions(r, start, end, opts)...)
	return out
}

// commentActions are the actions on comment c: its state, a reply, and
// re-anchoring when it is stale.
func commentActions(r Analysis, c *exchange.Comment, opts ActionOptions) []Action {
	src := r.Doc.Text
	name := c.Name()
	var out []Action
	add := func(title string, edits ...exchange.Edit) {
		out = append(out, Action{Title: title, Edits: edits})
	}
	switch c.StateNorm() {
	case exchange.StateDismissed:
		add("Restore "+name, anchor.SetStateEdit(src, c, exchange.StateActive))
	case exchange.StateOrphaned, exchange.StateStale:
		add("Reactivate "+name, anchor.SetStateEdit(src, c, exchange.StateActive))
		add("Dismiss "+name, anchor.SetStateEdit(src, c, exchange.StateDismissed))
	default:
		add("Dismiss "+name, anchor.SetStateEdit(src, c, exchange.StateDismissed))
	}
	if e, ok := ReplyEdit(src, c, opts.author(), Stamp(opts.Now)); ok {
		add("Reply to "+name, e)
		out[len(out)-1] = withBodyCursor(out[len(out)-1], BodyCursor{Comment: name, Reply: len(c.Replies)})
	}
	for i := range out {
		out[i].Resolves = diagnosticFixedBy(r, c, out[i].Edits)
	}
	if c.StateNorm() == exchange.StateStale {
		if a, ok := reanchorAction(r, c); ok {
			out = append(out, a)
		}
	}
	return out
}

// CommentDiagnostics returns those of ds that are about the comment
// holding offset (its object, from brace to brace), or none when offset
// is in no comment: the fixes of a comment's problems are offered wherever
// the cursor is in it, as an editor that sends only the cursor (Helix)
// names no diagnostic.
func CommentDiagnostics(r Analysis, ds []exchange.Diagnostic, offset int) []exchange.Diagnostic {
	if r.Doc == nil || r.Doc.Review.Node == nil {
		return nil
	}
	c := anchor.CommentAt(r.Doc, offset)
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
func diagnosticFixedBy(r Analysis, c *exchange.Comment, edits []exchange.Edit) *exchange.Diagnostic {
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
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
func commentDiagnostic(r Analysis, c *exchange.Comment, code string) *exchange.Diagnostic {
	for i := range r.Diagnostics {
		if d := &r.Diagnostics[i]; d.Code == code && rangeInNode(d.Range, c.Node) {
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
func reanchorAction(r Analysis, c *exchange.Comment) (Action, bool) {
	edits, moves := anchor.Reanchor(r.Doc, func(x *exchange.Comment) bool { return x == c })
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
	return Action{Title: title, Edits: edits, Resolves: commentDiagnostic(r, c, exchange.CodeStaleAnchor)}, true
}

// ReplyEdit returns the edit that appends the reply {author, "", at} to
// c's replies, creating the member (last of the known members, as the
// spec orders them) when it is absent. ok is false when `replies` is not
// an array: that is a schema error to fix first.
func ReplyEdit(src exchange.Text, c *exchange.Comment, author, at string) (exchange.Edit, bool) {
	return ReplyBodyEdit(src, c, author, "", at)
}

// ReplyBodyEdit is ReplyEdit with the reply's body written: an agent
// replies with its text, where an editor leaves the body for the person
// to type.
func ReplyBodyEdit(src exchange.Text, c *exchange.Comment, author, body, at string) (exchange.Edit, bool) {
	members := []jsonMember{{"author", jsontext.Quote(author)}, {"body", jsontext.Quote(body)}, {"at", jsontext.Quote(at)}}
	obj := c.Node
	outer := layoutOf(src, obj)
	inner := outer.nested()
	rs := obj.Member("replies")
	switch {
	case rs == nil:
		return exchange.InsertMember(src, obj, "replies", outer.array(inner.render(members)), anchor.KeyAfter(obj, exchange.CommentKeys, "replies")), true
	case rs.Kind != exchange.KindArray || !rs.Closed:
		return exchange.Edit{}, false
	case len(rs.Elems()) == 0:
		return exchange.ReplaceValue(rs, outer.array(inner.render(members))), true
	}
	last := rs.Elems()[len(rs.Elems())-1]
	if last.Kind == exchange.KindObject && len(last.Members()) > 0 {
		inner = layoutOf(src, last)
	} else if e := rs.Elems()[0]; e.Kind == exchange.KindObject && len(e.Members()) > 0 {
		inner = layoutOf(src, e)
	}
	return appendElementEdit(src, rs, inner.render(members)), true
}

// NewComment is a comment to add. Body is empty when an editor adds it
// (the person types it next).
type NewComment struct {
	ID, Author, Path string
	Side             anchor.Side
	Start, End       int
	Body             string
	Snippet, At      string
}

// members lists the new comment's members in the spec's key order. The
// state is written although active is the default: the spec's example
// writes it, and the LLM reading the review back should not have to know
// defaults. An empty snippet is left out (the spec recomputes it).
func (nc NewComment) members() []jsonMember {
	ms := []jsonMember{
		{"id", jsontext.Quote(nc.ID)},
		{"author", jsontext.Quote(nc.Author)},
		{"path", jsontext.Quote(nc.Path)},
		{"side", jsontext.Quote(nc.Side.String())},
		{"start_line", strconv.Itoa(nc.Start)},
	}
	if nc.End != nc.Start {
		ms = append(ms, jsonMember{"end_line", strconv.Itoa(nc.End)})
	}
	ms = append(ms, jsonMember{"body", jsontext.Quote(nc.Body)}, jsonMember{"state", jsontext.Quote(exchange.StateActive)})
	if nc.Snippet != "" {
		ms = append(ms, jsonMember{"snippet", jsontext.Quote(nc.Snippet)})
	}
	return append(ms, jsonMember{"at", jsontext.Quote(nc.At)})
}

// NewCommentEdit returns the edit that appends nc to the document's
// comments (creating the member when it is absent). ok is false when
// `comments` is not an array.
func NewCommentEdit(doc *exchange.Document, nc NewComment) (exchange.Edit, bool) {
	src, root := doc.Text, doc.Review.Node
	if root == nil {
		return exchange.Edit{}, false
	}
	members := nc.members()
	outer := layoutOf(src, root)
	inner := outer.nested()
	cs := root.Member("comments")
	switch {
	case cs == nil:
		return exchange.InsertMember(src, root, "comments", outer.array(inner.render(members)), anchor.KeyAfter(root, exchange.ReviewKeys, "comments")), true
	case cs.Kind != exchange.KindArray || !cs.Closed:
		return exchange.Edit{}, false
	case len(cs.Elems()) == 0:
		return exchange.ReplaceValue(cs, outer.array(inner.render(members))), true
	}
	if first := cs.Elems()[0]; first.Kind == exchange.KindObject && len(first.Members()) > 0 {
		inner = layoutOf(src, first)
	}
	return appendElementEdit(src, cs, inner.render(members)), true
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
func newCommentActions(r Analysis, start, end int, opts ActionOptions) []Action {
	doc, ix := r.Doc, r.Index
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
		var anchored []anchor.DiffLine
		for _, l := range lines {
			if n := l.Number(s); n > 0 && n >= from.Number(s) && n <= to.Number(s) {
				anchored = append(anchored, l)
			}
		}
		nc := NewComment{
			ID: FreshID(doc), Author: opts.author(), Path: path, Side: s,
			Start: from.Number(s), End: to.Number(s), Snippet: anchor.SnippetOf(ix.Patch, f, anchored), At: at,
		}
		if e, ok := NewCommentEdit(doc, nc); ok {
			out = append(out, withBodyCursor(Action{Title: "Comment on " + anchor.LineSpan(s, nc.Start, nc.End), Edits: []exchange.Edit{e}}, BodyCursor{Comment: nc.ID, Reply: -1}))
		}
	}
	return out
}

// jsonMember is one member of an object to write: its name and its JSON text.
type jsonMember struct{ name, value string }

// objectLayout is how an object's members are laid out.
type objectLayout struct {
	nl        string
	multiline bool
	// indent is the members' indentation and close the closing brace's
	// (multi-line); pad is the space inside the braces (one-line).
	indent, close, pad string
}

// layoutOf reads obj's layout from the source.
func layoutOf(src exchange.Text, obj *exchange.Node) objectLayout {
	st := objectLayout{nl: exchange.Newline(src)}
	open := exchange.LineIndent(src, obj.Start)
	if len(obj.Members()) == 0 {
		return st
	}
	first := obj.Members()[0]
	if !hasNewline(src.Slice(obj.Start+1, first.KeyStart())) {
		if first.KeyStart() > obj.Start+1 && src.Byte(obj.Start+1) == ' ' {
			st.pad = " "
		}
		return st
	}
	st.multiline = true
	st.indent = exchange.LineIndent(src, first.KeyStart())
	st.close = open
	if end := obj.End - 1; obj.Closed && hasNewline(src.Slice(obj.Members()[len(obj.Members())-1].End, end)) {
		st.close = exchange.LineIndent(src, end)
	}
	return st
}

// nested is the style of an object written as a member value of one laid
// out in st: one indentation step deeper (the step st itself uses, or two
// spaces), or on one line like st.
func (st objectLayout) nested() objectLayout {
	if !st.multiline {
		return objectLayout{nl: st.nl, pad: st.pad}
	}
	unit := st.unit()
	// The value's array sits at st.indent; its elements one step deeper,
	// their members two.
	return objectLayout{nl: st.nl, multiline: true, indent: st.indent + unit + unit, close: st.indent + unit}
}

// unit is the indentation step of a multi-line style: what its members'
// indentation adds to its closing brace's, or two spaces when that is
// nothing or not a step.
func (st objectLayout) unit() string {
	if !strings.HasPrefix(st.indent, st.close) || len(st.indent) == len(st.close) {
		return "  "
	}
	return st.indent[len(st.close):]
}

// array writes a one-element array holding elem (laid out by nested())
// as the value of a member of an object in st.
func (st objectLayout) array(elem string) string {
	if !st.multiline {
		return "[" + elem + "]"
	}
	return "[" + st.nl + st.indent + st.unit() + elem + st.nl + st.indent + "]"
}

// render writes an object with members in style st.
func (st objectLayout) render(ms []jsonMember) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range ms {
		switch {
		case st.multiline && i > 0:
			b.WriteString("," + st.nl + st.indent)
		case st.multiline:
			b.WriteString(st.nl + st.indent)
		case i > 0:
			b.WriteString(", ")
		default:
			b.WriteString(st.pad)
		}
		b.WriteString(jsontext.Quote(m.name) + ": " + m.value)
	}
	if st.multiline {
		b.WriteString(st.nl + st.close)
	} else {
		b.WriteString(st.pad)
	}
	b.WriteByte('}')
	return b.String()
}

// appendElementEdit returns the edit that adds text after arr's last element,
// on a line of its own indented like the first element when the array is
// laid out one element per line.
func appendElementEdit(src exchange.Text, arr *exchange.Node, text string) exchange.Edit {
	first, last := arr.Elems()[0], arr.Elems()[len(arr.Elems())-1]
	sep := ", "
	if hasNewline(src.Slice(arr.Start+1, first.Start)) {
		sep = "," + exchange.Newline(src) + exchange.LineIndent(src, first.Start)
	}
	return exchange.Edit{Start: last.End, End: last.End, NewText: sep + text}
}

func hasNewline(b []byte) bool { return strings.ContainsAny(string(b), "\r\n") }

// FixAllTitle names the source.fixAll action after what it applies.
func FixAllTitle(applied []anchor.Applied) string {
	if len(applied) == 1 {
		return "Apply the safe lreview fix: " + applied[0].Done
	}
	return fmt.Sprintf("Apply all %d safe lreview fixes", len(applied))
}
