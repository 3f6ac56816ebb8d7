package exchange

import (
	"sync"
	"unsafe"
)

// The patch array's elements are kept in a table, not as nodes: a large
// review has 100,000 of them, 88 bytes a node against 32 an entry, and
// what reads them on every version (the patch lines, their texts, the
// checks, the index) reads the table. Nodes are made when something asks
// for the elements (a hover in the patch, a fix that edits it), once per
// version. A version whose patch an edit before it moved shares the
// table and applies the move when it makes them, so that the keystroke
// copies none of the 100,000.

// stringElem is one element of the table: a string, where it was read,
// its decoded text and the reader's flags.
type stringElem struct {
	start, end int32
	str        string
	closed     bool
	escape     bool
	lineFeed   bool
}

// stringTable is the elements of an array of strings, as read.
type stringTable []stringElem

// node returns element i as a node of arr, moved by delta bytes.
func (t stringTable) node(i int, arr *Node, delta int) Node {
	e := &t[i]
	return Node{Kind: KindString, Start: int(e.start) + delta, End: int(e.end) + delta, Parent: arr, Str: e.str,
		Index: int32(i), Closed: e.closed, Escape: e.escape, lineFeed: e.lineFeed}
}

// lazyArray is an array node whose elements are made from a table the
// first time they are asked for, delta bytes from where the table was
// read. The Node comes first: Node.children converts a *Node whose lazy
// is set into its lazyArray.
type lazyArray struct {
	Node
	table stringTable
	delta int
	// made holds the elements once made. Not in Node.kids, which stays
	// nil: the next version copies the Node (newMovedNode) while a
	// request of this one may be making them.
	once sync.Once
	made []*Node
}

// asLazy returns the lazyArray n is, or nil.
func asLazy(n *Node) *lazyArray {
	if n == nil || !n.lazy {
		return nil
	}
	return (*lazyArray)(unsafe.Pointer(n))
}

// newLazyArray returns n, an array node read with its elements in table,
// as a lazyArray.
func newLazyArray(n *Node, table stringTable) *Node {
	l := &lazyArray{Node: *n, table: table}
	l.kids, l.nkids, l.lazy, l.onlyStrings = nil, int32(len(table)), true, true
	return &l.Node
}

// newMovedNode returns n moved by delta bytes: a lazyArray sharing n's
// table, or a copy with its offsets shifted (a patch string, or an array
// the table could not hold). Its Parent, name and key are the reader's to
// set.
func newMovedNode(n *Node, delta int) *Node {
	from := asLazy(n)
	if from == nil {
		return cloneShifted(n, delta)
	}
	l := &lazyArray{Node: from.Node, table: from.table, delta: from.delta + delta}
	l.Start += delta
	l.End += delta
	if l.keyEnd > 0 {
		l.keyStart += int32(delta)
		l.keyEnd += int32(delta)
	}
	return &l.Node
}

// children makes the elements, the first time.
func (l *lazyArray) children() []*Node {
	l.once.Do(func() {
		slab := make([]Node, len(l.table))
		own := make([]*Node, len(l.table))
		for i := range l.table {
			slab[i] = l.table.node(i, &l.Node, l.delta)
			own[i] = &slab[i]
		}
		l.made = own
	})
	return l.made
}

// elem returns element i's entry and the move to apply to its offsets.
func (l *lazyArray) elem(i int) (*stringElem, int) { return &l.table[i], l.delta }
