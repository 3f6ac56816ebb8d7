package exchange

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// The patch array's elements are kept in a table, not as nodes: a large
// review has 100,000 of them, 88 bytes a node against 20 an entry, and
// what reads them on every version (the patch lines, their texts, the
// checks, the index) reads the table and the text. Nodes are made when
// something asks for the elements (a hover in the patch, a fix that edits
// it), once per version. A version whose patch an edit before it moved shares the
// table and applies the move when it makes them, so that the keystroke
// copies none of the 100,000.

// stringElem is one element of the table: where the string was read and
// the reader's flags. It holds no text: the element's value is decoded
// again from the source when asked for (Patch.LineText, the nodes). A
// copy of every line kept as long as the patch (6 MB of the 8 MB review,
// nearly every line of code holding a "\t") cost more memory than
// decoding a line when it is read costs time: a keystroke reads few.
type stringElem struct {
	start, end int32
	// size is the length of the value, decoded.
	size     int32
	closed   bool
	escape   bool
	lineFeed bool
	// carriage is a value holding a carriage return: with lineFeed, one
	// that may hold more than one line.
	carriage bool
}

// stringTable is the elements of an array of strings, as read.
type stringTable []stringElem

// node returns element i as a node of arr, moved by delta bytes, its value
// str.
func (t stringTable) node(i int, arr *Node, delta int, str string) Node {
	e := &t[i]
	return Node{Kind: KindString, Start: int(e.start) + delta, End: int(e.end) + delta, Parent: arr, Str: str,
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
	// src is the text the elements are decoded from when made: that of
	// the version that read or moved the array, or of the latest version
	// sharing it unmoved (see useSource), the same bytes where it is.
	src atomic.Pointer[[]byte]
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
func newLazyArray(n *Node, table stringTable, src []byte) *Node {
	l := &lazyArray{Node: *n, table: table}
	l.kids, l.nkids, l.lazy, l.onlyStrings = nil, int32(len(table)), true, true
	l.src.Store(&src)
	return &l.Node
}

// useSource is told that a later version, whose text is src, shares the
// array unmoved: the elements made from now on are decoded from src, and
// the earlier version's text can be collected.
func useSource(n *Node, src []byte) {
	if l := asLazy(n); l != nil {
		l.src.Store(&src)
	}
}

// newMovedNode returns n moved by delta bytes: a lazyArray sharing n's
// table, or a copy with its offsets shifted (a patch string, or an array
// the table could not hold). Its Parent, name and key are the reader's to
// set.
func newMovedNode(n *Node, delta int, src []byte) *Node {
	from := asLazy(n)
	if from == nil {
		return cloneShifted(n, delta)
	}
	l := &lazyArray{Node: from.Node, table: from.table, delta: from.delta + delta}
	l.src.Store(&src)
	l.Start += delta
	l.End += delta
	if l.keyEnd > 0 {
		l.keyStart += int32(delta)
		l.keyEnd += int32(delta)
	}
	return &l.Node
}

// children makes the elements, the first time. Their values are copies:
// the versions sharing the array share them, and a view would keep the
// text of the one that made them alive.
func (l *lazyArray) children() []*Node {
	l.once.Do(func() {
		slab := make([]Node, len(l.table))
		own := make([]*Node, len(l.table))
		dec := elemDecoder{r: reader{src: *l.src.Load(), copy: true}}
		for i := range l.table {
			slab[i] = l.table.node(i, &l.Node, l.delta, dec.value(&l.table[i], l.delta))
			own[i] = &slab[i]
		}
		l.made = own
	})
	return l.made
}

// elemDecoder decodes elements of a table from a text, as the reader did
// when it read them, its errors aside (they were reported then).
type elemDecoder struct{ r reader }

// value returns the value of e, delta bytes from where it was read: a
// copy in the decoder's blocks if it copies, else a view of the text or,
// for one with escapes, a string of its own.
func (d *elemDecoder) value(e *stringElem, delta int) string {
	if e.size == 0 {
		return ""
	}
	var n Node
	d.r.pos, d.r.errs = int(e.start)+delta, d.r.errs[:0]
	d.r.stringValue(&n)
	return n.Str
}

// elemRange returns the range of element i of the array arr, read from
// the table when arr keeps its elements in one, which it then does not
// make.
func elemRange(arr *Node, i int) Range {
	if t := asLazy(arr); t != nil {
		e, delta := t.elem(i)
		return Range{int(e.start) + delta, int(e.end) + delta}
	}
	return NodeRange(arr.children()[i])
}

// elem returns element i's entry and the move to apply to its offsets.
func (l *lazyArray) elem(i int) (*stringElem, int) { return &l.table[i], l.delta }
