package exchange

import (
	"sync"
)

// The patch array's elements are kept in a table (stringTable), not as
// nodes: what reads them on every version (the patch lines, their texts,
// the checks, the index) reads the table and the text. Nodes are made
// when something asks for the elements (a hover in the patch, a fix that
// edits it), once per array node. A version whose patch was carried over
// shares the table and makes them from its own text, moved, so that the
// keystroke copies no element and no text.

// stringElem is one element of the table: where the string was read and
// the reader's flags. It holds no text: the element's value is decoded
// again from the source when asked for (Patch.LineText, the nodes), which
// costs less than keeping a copy of every line for as long as the patch.
// A large review holds one per line, so it takes 12 bytes: its end is
// kept as what its quotes and escapes add to the value (over, 16 bits; an
// element whose escapes add more is read as a node, see tableElem).
type stringElem struct {
	start int32
	// size is the length of the value, decoded.
	size  int32
	over  uint16
	flags elemFlags
}

// elemFlags are the reader's flags of a stringElem.
type elemFlags uint8

const (
	elemClosed elemFlags = 1 << iota
	elemEscape
	elemLineFeed
	// elemCarriage is a value holding a carriage return: with
	// elemLineFeed, one that may hold more than one line.
	elemCarriage
)

func (e *stringElem) end() int32     { return e.start + e.size + int32(e.over) }
func (e *stringElem) closed() bool   { return e.flags&elemClosed != 0 }
func (e *stringElem) escape() bool   { return e.flags&elemEscape != 0 }
func (e *stringElem) lineFeed() bool { return e.flags&elemLineFeed != 0 }
func (e *stringElem) carriage() bool { return e.flags&elemCarriage != 0 }

// stringTable is the elements of an array of strings, as read.
type stringTable []stringElem

// node returns element i as a node, moved by delta bytes, its value str.
func (t stringTable) node(i, delta int, str string) Node {
	e := &t[i]
	return Node{Kind: KindString, Start: int(e.start) + delta, End: int(e.end()) + delta, Str: str,
		Index: int32(i), Closed: e.closed(), Escape: e.escape(), lineFeed: e.lineFeed()}
}

// lazyElems holds the elements of an array read into a table (the
// patch's), made from the table the first time they are asked for, delta
// bytes from where the table was read. It belongs to one version: each
// version whose patch is carried over gets one of its own, sharing the
// table (which holds no text) and decoding from its own text, so that no
// version keeps another's text alive and no text is copied. It never
// changes but for making the elements, once.
type lazyElems struct {
	table stringTable
	delta int
	// src is the bytes of the array in the text of the version the node
	// belongs to, which the elements are decoded from.
	src  window
	once sync.Once
	made []*Node
}

// newLazyArray returns a copy of n, an array node read with its elements
// in table from src, that makes them when asked for.
func newLazyArray(n *Node, table stringTable, src window) *Node {
	c := *n
	c.onlyStrings = true
	c.kids = &nodeKids{lazy: &lazyElems{table: table, src: src}}
	return &c
}

// newMovedNode returns n moved by delta bytes into the text src: a node
// sharing n's table that makes its elements, moved, from src when asked
// for, or a copy with its offsets shifted (a patch string, or an array the
// table could not hold). Its name and key are the reader's to set.
func newMovedNode(n *Node, delta int, src window) *Node {
	l := n.table()
	if l == nil {
		return cloneShifted(n, delta)
	}
	c := *n
	c.Start += delta
	c.End += delta
	if c.keyEnd > 0 {
		c.keyStart += int32(delta)
		c.keyEnd += int32(delta)
	}
	c.kids = &nodeKids{lazy: &lazyElems{table: l.table, delta: l.delta + delta, src: src}}
	return &c
}

// children makes the elements, the first time. Their values are copies,
// which hold none of the text.
func (l *lazyElems) children() []*Node {
	l.once.Do(func() {
		slab := make([]Node, len(l.table))
		own := make([]*Node, len(l.table))
		dec := newElemDecoder(l.src, false)
		for i := range l.table {
			slab[i] = l.table.node(i, l.delta, dec.value(&l.table[i], l.delta))
			own[i] = &slab[i]
		}
		l.made = own
	})
	return l.made
}

// elemDecoder decodes elements of a table from a text, as the reader did
// when it read them, its errors aside (they were reported then): from a
// window of the text, whose offset base it takes from the elements'.
type elemDecoder struct {
	r    reader
	base int
}

// newElemDecoder returns a decoder of the elements in w; one that peeks
// leaves each value in its scratch (see peek).
func newElemDecoder(w window, peek bool) elemDecoder {
	return elemDecoder{r: reader{src: w.b, peek: peek}, base: w.at}
}

// value returns the value of e, delta bytes from where it was read, a
// copy in the decoder's blocks; for a decoder that peeks, "", the value
// being left in d.r.peeked (see peek).
func (d *elemDecoder) value(e *stringElem, delta int) string {
	if e.size == 0 {
		d.r.peeked = nil
		return ""
	}
	var n Node
	d.r.pos, d.r.errs = int(e.start)+delta-d.base, d.r.errs[:0]
	d.r.stringValue(&n)
	return n.Str
}

// peek returns the value of e, delta bytes from where it was read, as a
// view of the text or of the decoder's scratch, valid until the next
// call; d must peek.
func (d *elemDecoder) peek(e *stringElem, delta int) []byte {
	d.value(e, delta)
	return d.r.peeked
}

// elemRange returns the range of element i of the array arr, read from
// the table when arr keeps its elements in one, which it then does not
// make.
func elemRange(arr *Node, i int) Range {
	if t := arr.table(); t != nil {
		e, delta := t.elem(i)
		return Range{int(e.start) + delta, int(e.end()) + delta}
	}
	return NodeRange(arr.children()[i])
}

// elem returns element i's entry and the move to apply to its offsets.
func (l *lazyElems) elem(i int) (*stringElem, int) { return &l.table[i], l.delta }
