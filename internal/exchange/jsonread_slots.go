package exchange

// The reader's side of ParseEdited's comment slots: the comments of an
// earlier version that an edit left whole are copied rather than read.

// comments reads the value of the root's comments member, whose elements
// may be taken from r.slots (see element).
func (r *reader) comments(root *Node) *Node {
	r.slotArray = true
	v := r.value(root, 1)
	r.slotArray = false
	return v
}

// element reads an element of arr, or takes it from the slot that starts
// where it does, when slots is set.
func (r *reader) element(arr *Node, depth int, slots bool) *Node {
	if slots {
		for len(r.slots) > 0 && r.slots[0].at() < r.pos {
			r.slots = r.slots[1:] // the text there is no longer an element
		}
		if len(r.slots) > 0 && r.slots[0].at() == r.pos {
			s := r.slots[0]
			r.slots = r.slots[1:]
			r.copier.delta = s.delta
			e := r.copier.clone(s.n, arr)
			r.pos = e.End
			return e
		}
	}
	e := r.value(arr, depth+1)
	if e.End == e.Start && e.Kind == KindInvalid && r.pos < len(r.src) && r.src[r.pos] == ':' {
		r.pos++ // a stray ':' would otherwise loop forever
	}
	return e
}
