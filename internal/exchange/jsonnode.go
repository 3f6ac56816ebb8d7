package exchange

// The reader's output: JSON values with their source ranges.

import (
	"strconv"
	"strings"
)

// Kind is the JSON type of a Node.
type Kind uint8

const (
	// KindInvalid marks a value the reader could not make sense of, or a
	// missing value ("a": ,). Its range is the offending text, possibly empty.
	KindInvalid Kind = iota
	KindObject
	KindArray
	KindString
	KindNumber
	KindBool
	KindNull
)

func (k Kind) String() string {
	switch k {
	case KindObject:
		return "object"
	case KindArray:
		return "array"
	case KindString:
		return "string"
	case KindNumber:
		return "number"
	case KindBool:
		return "boolean"
	case KindNull:
		return "null"
	}
	return "invalid value"
}

// Node is one JSON value with its byte range in the source. The reader keeps
// ranges rather than decoded values alone because every diagnostic, hover and
// edit the project makes is addressed by source position.
//
// A large review holds many nodes, so the small fields share a word.
// A Node may be copied: the copy reads the same children (whose Parent
// stays the original).
type Node struct {
	// Start and End delimit the value's text: [Start, End).
	Start, End int
	// Parent is the containing object or array; nil for the root. The
	// root's patch member is the exception: its Parent is a childless
	// stand-in for the root object (same Kind and range, no Parent),
	// because later versions of the document share the patch's nodes
	// (ParseIncremental) and must not keep this version's tree alive.
	Parent *Node
	// Name is the member name when the parent is an object.
	Name string
	Str  string // decoded string value (KindString)
	// kids are the object's members or the array's elements (see
	// Members and Elems).
	kids []*Node
	// lazy, for the patch array read into a table, makes its elements
	// when first asked for; kids is then nil.
	lazy *lazyElems
	// keyStart and keyEnd delimit the member's key, quotes included (see
	// KeyStart). 32 bits, like Index: Parse takes no source of 2 GiB.
	keyStart, keyEnd int32
	// Index is the element index when the parent is an array, -1
	// otherwise.
	Index int32
	Bool  bool // KindBool
	// Escape reports a string value that contains at least one escape.
	Escape bool
	// Closed reports whether a string, object or array has its closing
	// delimiter; half-typed documents leave it false.
	Closed bool
	Kind   Kind
	// lineFeed reports a string value holding a line feed (which only an
	// escape can spell), so that Patch.LineShared need not look.
	lineFeed bool
	// keyEscape reports a member key spelt with an escape, so that the
	// check for HTML-style escapes need not read every key.
	keyEscape bool
	// onlyStrings reports an array whose elements are all strings, so
	// that schema validation need not look at every line of the patch.
	onlyStrings bool
}

// KeyStart returns where the member's key starts (its opening quote);
// KeyEnd where it ends, after its closing quote. Both are 0 for a node
// that is not a member.
func (n *Node) KeyStart() int { return int(n.keyStart) }

// KeyEnd returns the end of the member's key: see KeyStart.
func (n *Node) KeyEnd() int { return int(n.keyEnd) }

// Members returns an object's members in source order (nil for any other
// kind). The slice is the node's own: callers must not modify it.
func (n *Node) Members() []*Node {
	if n.Kind != KindObject {
		return nil
	}
	return n.children()
}

// Elems returns an array's elements (nil for any other kind). The slice
// is the node's own: callers must not modify it.
func (n *Node) Elems() []*Node {
	if n.Kind != KindArray {
		return nil
	}
	return n.children()
}

func (n *Node) children() []*Node {
	if n.lazy != nil {
		return n.lazy.children()
	}
	return n.kids
}

// childCount returns the number of members or elements, without making
// the elements of a table.
func (n *Node) childCount() int {
	if n.lazy != nil {
		return len(n.lazy.table)
	}
	return len(n.kids)
}

// setChildren makes kids, which the node then owns, its members or
// elements.
func (n *Node) setChildren(kids []*Node) {
	if len(kids) == 0 {
		kids = nil
	}
	n.kids = kids
}

// IsMember reports whether n is the value of an object member.
func (n *Node) IsMember() bool { return n.Parent != nil && n.Parent.Kind == KindObject }

// Member returns the value of the member called name, or nil. With
// duplicate keys the last one wins, as with encoding/json.
func (n *Node) Member(name string) *Node {
	if n == nil || n.Kind != KindObject {
		return nil
	}
	ms := n.Members()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Name == name {
			return ms[i]
		}
	}
	return nil
}

// pointerEscaper applies RFC 6901's escapes to a member name.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Pointer returns n's JSON pointer (RFC 6901) from the document root.
func (n *Node) Pointer() string {
	var parts []string
	for c := n; c != nil && c.Parent != nil; c = c.Parent {
		if c.Parent.Kind == KindObject {
			parts = append(parts, pointerEscaper.Replace(c.Name))
		} else {
			parts = append(parts, strconv.Itoa(int(c.Index)))
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}

// Int returns the value of a number node that is integral, and whether
// it is one. 3.0 and 3e0 count, as JSON Schema's "integer" does.
func (n *Node) Int(src Text) (int, bool) {
	if n == nil || n.Kind != KindNumber {
		return 0, false
	}
	text := src.String(n.Start, n.End)
	if v, err := strconv.Atoi(text); err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != float64(int64(f)) || f > 1<<53 || f < -(1<<53) {
		return 0, false
	}
	return int(f), true
}

// Value converts n to the generic form encoding/json would produce, with
// numbers as json.Number-compatible strings (see numberValue). Invalid
// nodes become nil.
func (n *Node) Value(src Text) any {
	switch n.Kind {
	case KindObject:
		m := make(map[string]any, len(n.Members()))
		for _, mem := range n.Members() {
			m[mem.Name] = mem.Value(src)
		}
		return m
	case KindArray:
		a := make([]any, len(n.Elems()))
		for i, e := range n.Elems() {
			a[i] = e.Value(src)
		}
		return a
	case KindString:
		return n.Str
	case KindNumber:
		return numberValue(src.Slice(n.Start, n.End))
	case KindBool:
		return n.Bool
	}
	return nil
}
