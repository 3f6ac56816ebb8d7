package exchange

import (
	"bytes"

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
