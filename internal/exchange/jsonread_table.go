package exchange

import (
	"bytes"
	"math"
	"slices"
)

// The reader's side of the patch's table: the elements of the root's
// patch array are kept as table entries rather than nodes while they are
// all strings (see lazyElems).

// patch reads the value of the root's patch member. Later versions may
// share what it reads (parseIncremental), so nothing of it may keep this
// version's tree or source alive: its nodes and strings get blocks of
// their own, since one node or string in a block keeps the whole block,
// and whatever the rest of it points to. An array of strings comes back
// as a node whose elements are made from a table when asked for (see
// lazyElems), which holds no string at all.
func (r *reader) patch(depth int) *Node {
	r.slab, r.strs, r.ptrs = nil, stringBlocks{}, nil
	r.tableArray, r.table = true, nil
	v := r.value(depth + 1)
	if r.tabling && len(r.table) > 0 {
		// The lines after the patch are room for nothing: what is kept
		// as long as the patch is sized to it, unless that is nearly so.
		t := r.table
		if cap(t)-len(t) > len(t)/8 {
			t = slices.Clone(t)
		}
		v = newLazyArray(v, t, window{b: r.src[v.Start:v.End], at: v.Start})
	}
	r.tableArray, r.tabling, r.table = false, false, nil
	r.slab, r.strs, r.ptrs = nil, stringBlocks{}, nil
	return v
}

// tableElem reads a string element of the patch array into r.table: its
// value is looked at and dropped (see stringElem). An element whose
// quotes and escapes add more to its value than the table can say is
// left unread (false): the array is then read as nodes.
func (r *reader) tableElem() bool {
	at, errs := r.pos, len(r.errs)
	e := &r.key // the scratch node of member names, free here
	*e = Node{}
	r.peek = true
	r.stringValue(e)
	r.peek = false
	over := e.End - e.Start - len(r.peeked)
	if over < 0 || over > math.MaxUint16 {
		r.pos, r.errs = at, r.errs[:errs]
		return false
	}
	if len(r.table) == cap(r.table) {
		r.growTable()
	}
	var flags elemFlags
	if e.Closed {
		flags |= elemClosed
	}
	if e.Escape {
		flags |= elemEscape
	}
	if e.lineFeed {
		flags |= elemLineFeed
	}
	if e.Escape && bytes.IndexByte(r.peeked, '\r') >= 0 {
		flags |= elemCarriage
	}
	r.table = append(r.table, stringElem{start: int32(e.Start), size: int32(len(r.peeked)), over: uint16(over), flags: flags})
	return true
}

// growTable makes room for the rest of the patch's elements at once: as
// many as there are lines left in the text, a patch being written one
// element per line, or twice the table for one that is not. Growing a
// large table step by step would copy it at each step.
func (r *reader) growTable() {
	more := bytes.Count(r.src[r.pos:], []byte{'\n'}) + 1
	if more < len(r.table) {
		more = len(r.table) + 64
	}
	r.table = slices.Grow(r.table, more)
}

// spillTable turns the table into the first children of the array, on
// r.kids, when an element that is not a string ends it.
func (r *reader) spillTable() {
	if !r.tabling {
		return
	}
	dec := newElemDecoder(window{b: r.src}, false)
	for i := range r.table {
		n := r.newNode()
		*n = r.table.node(i, 0, dec.value(&r.table[i], 0))
		r.pushKid(n)
	}
	r.tabling, r.table = false, nil
}
