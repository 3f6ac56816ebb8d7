package exchange

// The reader's side of the root's comments array: the comments of an
// earlier version that an edit left whole are taken rather than read
// (ParseEdited's slots), and every comment is kept apart from the rest of
// the tree, so that a later version taking it keeps nothing else alive.

// comments reads the value of the root's comments member, whose elements
// are read by comment (see element).
func (r *reader) comments() *Node {
	if r.commentBlocks.slab == nil {
		r.commentBlocks.nodeStep, r.commentBlocks.ptrStep = 32, 128
	}
	r.slotArray = true
	v := r.value(1)
	r.slotArray = false
	return v
}

// element reads an element of an array, index its index there; in the
// root's comments array (slots set), a comment (see comment).
func (r *reader) element(depth int, slots bool, index int32) *Node {
	if slots {
		return r.comment(depth, index)
	}
	e := r.value(depth + 1)
	if e.End == e.Start && e.Kind == KindInvalid && r.pos < len(r.src) && r.src[r.pos] == ':' {
		r.pos++ // a stray ':' would otherwise loop forever
	}
	e.Index = index
	return e
}

// comment takes the element of the root's comments array at r.pos from
// the slot that starts there, if any: the earlier version's node itself
// when it neither moved nor changed index (that version reads it
// concurrently: nothing is written into it), else a copy, moved, that
// keeps the node's strings. Otherwise it reads the element: in a full
// read, into blocks that hold comments only (r.commentBlocks); with
// slots (r.edited), then copies it, strings too, into memory of its own.
//
// So what later versions share or copy keeps alive, beside the comments
// themselves, at most the other comments of the full read they came
// from, never a tree or a text; what an edit read holds nothing else, so
// that the garbage kept does not grow with the number of edits.
func (r *reader) comment(depth int, index int32) *Node {
	for len(r.slots) > 0 && r.slots[0].at() < r.pos {
		r.slots = r.slots[1:] // the text there is no longer an element
	}
	if len(r.slots) > 0 && r.slots[0].at() == r.pos {
		s := r.slots[0]
		r.slots = r.slots[1:]
		e := s.n
		if s.delta != 0 || e.Index != index {
			e = cloneShifted(e, s.delta)
			e.Index = index
		} else {
			r.tookShared++
		}
		r.took++
		r.pos = e.End
		return e
	}
	if r.edited {
		return ownCopy(r.element(depth, false, index))
	}
	r.blocks, r.commentBlocks = r.commentBlocks, r.blocks
	e := r.element(depth, false, index)
	r.blocks, r.commentBlocks = r.commentBlocks, r.blocks
	return e
}
