package exchange

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// ReplaceValue is the edit that replaces a node's value with the JSON text
// value, leaving the key and everything around it alone.
func ReplaceValue(n *Node, value string) Edit {
	return Edit{Start: n.Start, End: n.End, NewText: value}
}

// LineIndent returns the white space that starts the line holding offset,
// so that inserted lines line up with their neighbours.
func LineIndent(src Text, offset int) string {
	start := src.lastLineBreak(offset) + 1
	end := start
	for end < src.Len() && (src.Byte(end) == ' ' || src.Byte(end) == '\t') {
		end++
	}
	return src.String(start, end)
}

// Newline returns the document's line terminator, as its first line ends,
// so that inserted lines match a CRLF file.
func Newline(src Text) string {
	if i := src.IndexByte(0, '\n'); i > 0 && src.Byte(i-1) == '\r' {
		return "\r\n"
	}
	return "\n"
}

// memberLayout says how an object's members are laid out: on one line, or
// one per line with an indentation.
func memberLayout(src Text, obj *Node) (multiline bool, indent string) {
	if len(obj.Members()) == 0 {
		return false, ""
	}
	first := obj.Members()[0]
	if bytes.ContainsAny(src.Slice(obj.Start+1, first.KeyStart()), "\n\r") {
		return true, LineIndent(src, first.KeyStart())
	}
	return false, ""
}

// InsertMember returns the edit that adds `"name": value` to obj, after
// the member called after (or last when after is "" or absent, first when
// after is "^"), matching the object's layout.
func InsertMember(src Text, obj *Node, name, value, after string) Edit {
	member := jsontext.Quote(name) + ": " + value
	if len(obj.Members()) == 0 {
		closing := obj.End - 1
		if !obj.Closed {
			closing = obj.End
		}
		return Edit{Start: obj.Start + 1, End: closing, NewText: member}
	}
	// Newline only when it is needed: in a document on one line it scans
	// all of it, and fixes insert a member per comment.
	multiline, indent := memberLayout(src, obj)
	if after == "^" {
		first := obj.Members()[0]
		if multiline {
			return Edit{Start: first.KeyStart(), End: first.KeyStart(), NewText: member + "," + Newline(src) + indent}
		}
		return Edit{Start: first.KeyStart(), End: first.KeyStart(), NewText: member + ", "}
	}
	prev := obj.Members()[len(obj.Members())-1]
	for _, m := range obj.Members() {
		if m.Name == after {
			prev = m
		}
	}
	if multiline {
		return Edit{Start: prev.End, End: prev.End, NewText: "," + Newline(src) + indent + member}
	}
	return Edit{Start: prev.End, End: prev.End, NewText: ", " + member}
}

// SetMember returns the edit that sets obj's member name to value:
// replacing the value when the member exists, inserting it otherwise.
func SetMember(src Text, obj *Node, name, value, after string) Edit {
	if m := obj.Member(name); m != nil {
		return ReplaceValue(m, value)
	}
	return InsertMember(src, obj, name, value, after)
}

// RemoveMember returns the edit that deletes member m from its object
// obj, with the comma and the line it stood on when it had one of its
// own.
func RemoveMember(src Text, obj, m *Node) Edit {
	idx := -1
	for i, x := range obj.Members() {
		if x == m {
			idx = i
		}
	}
	start, end := m.KeyStart(), m.End
	switch {
	case idx < 0:
		return Edit{Start: start, End: end} // not obj's: nothing better to say
	case idx+1 < len(obj.Members()):
		end = obj.Members()[idx+1].KeyStart() // through the comma and the next line's indent
	case idx > 0:
		start = obj.Members()[idx-1].End // from the previous member's end: its comma goes too
	default:
		start, end = obj.Start+1, obj.End-1
		if !obj.Closed {
			end = obj.End
		}
	}
	return Edit{Start: start, End: end}
}

// RemoveElement returns the edit that deletes element e from its array
// arr, with the comma that separates it. Its neighbour is read with
// elemRange: for the patch's last element, it makes none of the others.
func RemoveElement(arr, e *Node) Edit {
	i := int(e.Index)
	switch {
	case i > 0:
		return Edit{Start: elemRange(arr, i-1).End, End: e.End}
	case arr.childCount() > 1:
		return Edit{Start: e.Start, End: elemRange(arr, 1).Start}
	}
	return Edit{Start: e.Start, End: e.End}
}

// The edits of a review's own objects: a state set, a reply or a comment
// added. Like every change the project makes they are minimal: a value
// replaced or an object inserted, never an object rewritten, so that a
// person's layout and unknown members survive.
//
// New text is laid out like the text around it: a new comment copies the
// first existing comment's layout, a new reply the last existing reply's;
// without a model, a multi-line object gets multi-line members one
// indentation step deeper, and a one-line object stays on one line. Line
// breaks are the document's own (CRLF stays CRLF).

// KeyAfter names the member after which a new member called name goes,
// so that known members keep the spec's order (keys: ReviewKeys or
// CommentKeys): the last present member that precedes it in keys, or "^"
// (first) when none does. Every insertion of a known member the engine,
// the features and the agent make uses it.
func KeyAfter(obj *Node, keys []string, name string) string {
	after := "^"
	for _, k := range keys {
		if k == name {
			break
		}
		if obj.Member(k) != nil {
			after = k
		}
	}
	return after
}

// SetStateEdit sets c's state, inserting the member in the spec's key
// order when it is absent.
func SetStateEdit(src Text, c *Comment, state string) Edit {
	return SetMember(src, c.Node, "state", jsontext.Quote(state), KeyAfter(c.Node, CommentKeys, "state"))
}

// ReplyEdit returns the edit that appends the reply {author, body, at}
// to c's replies, creating the member (last of the known members, as the
// spec orders them) when it is absent. An editor leaves body empty for
// the person to type; an agent replies with its text. ok is false when
// `replies` is not an array: that is a schema error to fix first.
func ReplyEdit(src Text, c *Comment, author, body, at string) (Edit, bool) {
	members := []MemberText{{"author", jsontext.Quote(author)}, {"body", jsontext.Quote(body)}, {"at", jsontext.Quote(at)}}
	obj := c.Node
	outer := LayoutOf(src, obj)
	inner := outer.Nested()
	rs := obj.Member("replies")
	switch {
	case rs == nil:
		return InsertMember(src, obj, "replies", outer.array(inner.Render(members)), KeyAfter(obj, CommentKeys, "replies")), true
	case rs.Kind != KindArray || !rs.Closed:
		return Edit{}, false
	case len(rs.Elems()) == 0:
		return ReplaceValue(rs, outer.array(inner.Render(members))), true
	}
	last := rs.Elems()[len(rs.Elems())-1]
	if last.Kind == KindObject && len(last.Members()) > 0 {
		inner = LayoutOf(src, last)
	} else if e := rs.Elems()[0]; e.Kind == KindObject && len(e.Members()) > 0 {
		inner = LayoutOf(src, e)
	}
	return appendElementEdit(src, rs, inner.Render(members)), true
}

// NewComment is a comment to add. Body is empty when an editor adds it
// (the person types it next).
type NewComment struct {
	ID, Author, Path string
	Side             string // RIGHT or LEFT
	Start, End       int
	Body             string
	Snippet, At      string
}

// members lists the new comment's members in the spec's key order. The
// state is written although active is the default: the spec's example
// writes it, and the LLM reading the review back should not have to know
// defaults. An empty snippet is left out (the spec recomputes it).
func (nc NewComment) members() []MemberText {
	ms := []MemberText{
		{"id", jsontext.Quote(nc.ID)},
		{"author", jsontext.Quote(nc.Author)},
		{"path", jsontext.Quote(nc.Path)},
		{"side", jsontext.Quote(nc.Side)},
		{"start_line", strconv.Itoa(nc.Start)},
	}
	if nc.End != nc.Start {
		ms = append(ms, MemberText{"end_line", strconv.Itoa(nc.End)})
	}
	ms = append(ms, MemberText{"body", jsontext.Quote(nc.Body)}, MemberText{"state", jsontext.Quote(StateActive)})
	if nc.Snippet != "" {
		ms = append(ms, MemberText{"snippet", jsontext.Quote(nc.Snippet)})
	}
	return append(ms, MemberText{"at", jsontext.Quote(nc.At)})
}

// NewCommentEdit returns the edit that appends nc to the document's
// comments (creating the member when it is absent). ok is false when
// `comments` is not an array.
func NewCommentEdit(doc *Document, nc NewComment) (Edit, bool) {
	src, root := doc.Text, doc.Review.Node
	if root == nil {
		return Edit{}, false
	}
	members := nc.members()
	outer := LayoutOf(src, root)
	inner := outer.Nested()
	cs := root.Member("comments")
	switch {
	case cs == nil:
		return InsertMember(src, root, "comments", outer.array(inner.Render(members)), KeyAfter(root, ReviewKeys, "comments")), true
	case cs.Kind != KindArray || !cs.Closed:
		return Edit{}, false
	case len(cs.Elems()) == 0:
		return ReplaceValue(cs, outer.array(inner.Render(members))), true
	}
	if first := cs.Elems()[0]; first.Kind == KindObject && len(first.Members()) > 0 {
		inner = LayoutOf(src, first)
	}
	return appendElementEdit(src, cs, inner.Render(members)), true
}

// MemberText is one member of an object to write: its name and its JSON text.
type MemberText struct{ Name, Value string }

// Layout is how an object's members are laid out.
type Layout struct {
	nl        string
	multiline bool
	// indent is the members' indentation and close the closing brace's
	// (multi-line); pad is the space inside the braces (one-line).
	indent, close, pad string
}

// LayoutOf reads obj's layout from the source.
func LayoutOf(src Text, obj *Node) Layout {
	st := Layout{nl: Newline(src)}
	open := LineIndent(src, obj.Start)
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
	st.indent = LineIndent(src, first.KeyStart())
	st.close = open
	if end := obj.End - 1; obj.Closed && hasNewline(src.Slice(obj.Members()[len(obj.Members())-1].End, end)) {
		st.close = LineIndent(src, end)
	}
	return st
}

// Nested is the style of an object written as a member value of one laid
// out in st: one indentation step deeper (the step st itself uses, or two
// spaces), or on one line like st.
func (st Layout) Nested() Layout {
	if !st.multiline {
		return Layout{nl: st.nl, pad: st.pad}
	}
	unit := st.unit()
	// The value's array sits at st.indent; its elements one step deeper,
	// their members two.
	return Layout{nl: st.nl, multiline: true, indent: st.indent + unit + unit, close: st.indent + unit}
}

// unit is the indentation step of a multi-line style: what its members'
// indentation adds to its closing brace's, or two spaces when that is
// nothing or not a step.
func (st Layout) unit() string {
	if !strings.HasPrefix(st.indent, st.close) || len(st.indent) == len(st.close) {
		return "  "
	}
	return st.indent[len(st.close):]
}

// array writes a one-element array holding elem (laid out by Nested())
// as the value of a member of an object in st.
func (st Layout) array(elem string) string {
	if !st.multiline {
		return "[" + elem + "]"
	}
	return "[" + st.nl + st.indent + st.unit() + elem + st.nl + st.indent + "]"
}

// Render writes an object with members in style st.
func (st Layout) Render(ms []MemberText) string {
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
		b.WriteString(jsontext.Quote(m.Name) + ": " + m.Value)
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
func appendElementEdit(src Text, arr *Node, text string) Edit {
	first, last := arr.Elems()[0], arr.Elems()[len(arr.Elems())-1]
	sep := ", "
	if hasNewline(src.Slice(arr.Start+1, first.Start)) {
		sep = "," + Newline(src) + LineIndent(src, first.Start)
	}
	return Edit{Start: last.End, End: last.End, NewText: sep + text}
}

func hasNewline(b []byte) bool { return strings.ContainsAny(string(b), "\r\n") }
