package exchange

// The reader's output: JSON values with their source ranges.

import (
	"encoding/json"
	"sort"
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
// A Node may be copied: the copy reads the same children.
//
// A node has no link to its parent: versions of a document share
// subtrees (parseIncremental), and a parent would keep the earlier
// version's tree alive. Path finds a node's ancestors from the root.
type Node struct {
	// Start and End delimit the value's text: [Start, End).
	Start, End int
	// Name is the member name when the parent is an object.
	Name string
	Str  string // decoded string value (KindString)
	// kids are the object's members or the array's elements (see
	// Members and Elems); nil for a scalar. Behind a pointer, since most
	// nodes are scalars: a large review holds tens of thousands.
	kids *nodeKids
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

// nodeKids is a container's children: the nodes the reader made (list),
// or, for the patch array read into a table, the table that makes them
// when first asked for (lazy). Copies of a node share it: it never
// changes once made.
type nodeKids struct {
	list []*Node
	lazy *lazyElems
}

func (n *Node) children() []*Node {
	switch {
	case n.kids == nil:
		return nil
	case n.kids.lazy != nil:
		return n.kids.lazy.children()
	}
	return n.kids.list
}

// table returns the elements' table of an array read into one, else nil.
func (n *Node) table() *lazyElems {
	if n.kids == nil {
		return nil
	}
	return n.kids.lazy
}

// childCount returns the number of members or elements, without making
// the elements of a table.
func (n *Node) childCount() int {
	if t := n.table(); t != nil {
		return len(t.table)
	}
	return len(n.children())
}

// setChildren makes kids, which the node then owns, its members or
// elements.
func (n *Node) setChildren(kids []*Node) {
	n.kids = nil
	if len(kids) > 0 {
		n.kids = &nodeKids{list: kids}
	}
}

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

// Pointer returns n's JSON pointer (RFC 6901) from root, the document's
// root node; "" for root itself or a node outside its tree.
func (n *Node) Pointer(root *Node) string {
	path := Path(root, n)
	var b strings.Builder
	for i := 1; i < len(path); i++ {
		b.WriteByte('/')
		if path[i-1].Kind == KindObject {
			b.WriteString(pointerEscaper.Replace(path[i].Name))
		} else {
			b.WriteString(strconv.Itoa(int(path[i].Index)))
		}
	}
	return b.String()
}

// Parent returns the object or array n is a member or element of in
// root's tree, or nil for root or a node outside it (see Path).
func Parent(root, n *Node) *Node {
	if path := Path(root, n); len(path) >= 2 {
		return path[len(path)-2]
	}
	return nil
}

// Path returns the nodes from root down to n, root first and n last, or
// nil when n is not in root's tree. It descends from root, no deeper than
// the reader reads (maxDepth), through the children whose range holds
// n's, found by halves, and recognises n by identity: a zero-width node
// may end one sibling and start the next.
// The elements of an array kept in a table (the patch's) are not made:
// one is recognised by its index and range, as Patch's copies of them
// are (see Patch.element).
func Path(root, n *Node) []*Node {
	if root == nil || n == nil {
		return nil
	}
	var path []*Node
	if !descend(root, n, &path, 0) {
		return nil
	}
	return path
}

// descend appends c to path, then the path from it to n, when n is in
// c's tree; else it leaves path as it was and returns false.
func descend(c, n *Node, path *[]*Node, depth int) bool {
	*path = append(*path, c)
	if c == n {
		return true
	}
	if depth < maxDepth && c.Start <= n.Start && n.End <= c.End {
		if t := c.table(); t != nil {
			if i := int(n.Index); n.Kind == KindString && i >= 0 && i < len(t.table) && elemRange(c, i) == NodeRange(n) {
				*path = append(*path, n)
				return true
			}
		} else {
			kids := c.children()
			i := sort.Search(len(kids), func(i int) bool { return kids[i].Start > n.Start })
			// Siblings do not overlap: before i, only the last one can hold
			// n, or zero-width ones at a boundary n shares; each is tried.
			for i--; i >= 0 && kids[i].End >= n.End; i-- {
				if descend(kids[i], n, path, depth+1) {
					return true
				}
			}
		}
	}
	*path = (*path)[:len(*path)-1]
	return false
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
// numbers as json.Number, spelt as in the source. Invalid nodes become
// nil.
func (n *Node) Value(src Text) any {
	return n.value(src, func(text string) json.Number { return json.Number(text) })
}

// value is the one walk of a tree into the generic form: Value's, and the
// schema validator's instance, which gives number a stand-in for numbers
// the validator cannot take (validatorNumber).
func (n *Node) value(src Text, number func(text string) json.Number) any {
	switch n.Kind {
	case KindObject:
		m := make(map[string]any, len(n.Members()))
		for _, mem := range n.Members() {
			m[mem.Name] = mem.value(src, number) // the last duplicate wins, as in encoding/json
		}
		return m
	case KindArray:
		a := make([]any, len(n.Elems()))
		for i, e := range n.Elems() {
			a[i] = e.value(src, number)
		}
		return a
	case KindString:
		return n.Str
	case KindNumber:
		return number(src.String(n.Start, n.End))
	case KindBool:
		return n.Bool
	}
	return nil
}
