package exchange

// spliceValue is ParseEdited for the edits nearly every keystroke on a
// review makes: inside one comment, or inside the string of one of the
// root's members (the title, the summary), of a document without syntax
// errors, which leave that comment or string without one. The value is
// read again from its own bytes alone and put in the earlier tree's
// place; the rest of the tree is carried over, moved by the change in
// length after it. No run of the whole text is made or read: the document
// holds the text as the edit left it, in pieces (Text).
//
// It reports false, and does nothing, for any other edit: ParseEdited
// then reads the document as one run.
//
// The result is the tree a fresh read of the text gives: the bytes
// outside the value are the earlier ones, read without an error; the
// value's bytes read alone without an error, from its opening delimiter
// to its closing one, at its depth, as they read in place: a value read
// without an error reads the same wherever it stands at one depth.
func spliceValue(t Text, prev *Document, ch Change) (*Document, *reader, bool) {
	root := prev.Root
	if len(prev.Syntax) > 0 || root == nil || root.Kind != KindObject || !root.Closed || duplicateMember(root) {
		return nil, nil, false
	}
	oldLen := prev.Text.Len()
	from, to, delta := ch.Prefix, oldLen-ch.Suffix, t.Len()-oldLen
	old, depth := spliceTarget(root, from, to)
	if old == nil {
		return nil, nil, false
	}
	// Read at its depth in the document: the reader's rules for the
	// root's members do not apply to a comment's, and the nesting limit
	// counts as there.
	r := &reader{src: t.Slice(old.Start, old.End+delta)}
	v := r.value(depth)
	if len(r.errs) > 0 || v.Kind != old.Kind || !v.Closed || v.End != len(r.src) {
		return nil, nil, false
	}
	moveRead(v, old.Start)
	v.Name, v.Index, v.keyStart, v.keyEnd, v.keyEscape = old.Name, old.Index, old.keyStart, old.keyEnd, old.keyEscape
	v = ownCopy(v) // what later versions share keeps nothing else alive (see reader.comment)

	d := &Document{Text: t, id: new(docID), mapper: &lazyMapper{}}
	patch, carried := d.spliceRoot(prev, old, v, delta)
	reuseMapper(d, prev, ch)
	if carried {
		d.Review = carriedReview(t, d.Root, patch, prev)
	} else {
		d.Review = decodeReview(t, d.Root)
	}
	return d, r, true
}

// spliceTarget returns the value of root's tree that the splice reads
// again for an edit of the bytes [from, to), and its depth: the comment
// whose braces hold them, or the string member of the root (not the
// patch) whose quotes hold them; nil if none does.
func spliceTarget(root *Node, from, to int) (*Node, int) {
	for _, m := range root.Members() {
		if m.End <= from || m.Start >= to {
			continue
		}
		holds := m.Closed && from > m.Start && to <= m.End-1
		switch {
		case m.Name == "comments" && m.Kind == KindArray && m.Closed:
			if k := commentHolding(m, from, to); k >= 0 {
				return m.Elems()[k], 2
			}
		case m.Name != "patch" && m.Kind == KindString && holds:
			return m, 1
		}
		return nil, 0
	}
	return nil, 0
}

// spliceRoot gives d, of text d.Text, a root: prev's, its end moved by
// delta, with v, read, in the place of old, a comment or a member of the
// root. Around it are prev's members and comments: the earlier comments
// themselves before it, which nothing writes into; copies of the others
// and of the root's members, moved after it. It returns the patch node d
// has, and whether it is prev's carried over.
func (d *Document) spliceRoot(prev *Document, old, v *Node, delta int) (patch *Node, carried bool) {
	root := prev.Root
	nr := *root
	nr.End += delta
	p := prev.Review.Patch
	carried = p.Node != nil && (p.Form == PatchArray || p.Form == PatchString)
	members := make([]*Node, len(root.Members()))
	for i, m := range root.Members() {
		shift := 0
		if m.Start >= old.End {
			shift = delta
		}
		switch {
		case m == old:
			members[i] = v
		case m.Name == "comments" && m.Kind == KindArray:
			members[i] = spliceComments(m, old, v, delta)
		case m == p.Node && carried:
			patch = carriedPatch(p.Node, shift, d.Text)
			members[i] = patch
			d.patchCarried, d.patchFrom, d.patchDelta = true, NodeRange(p.Node), shift
		default:
			// Small, and in the blocks of the read that made them with
			// that read's root: copied, strings too, so that sharing
			// them keeps no earlier tree alive.
			members[i] = ownCopyShifted(m, shift)
		}
	}
	nr.setChildren(members)
	d.Root = &nr
	return patch, carried
}

// spliceComments returns the root's comments array arr with v in the
// place of old, one of its comments or a value before it, the array and
// the comments after old moved by delta: the comments before old, and all
// when nothing moved, are arr's own.
func spliceComments(arr, old, v *Node, delta int) *Node {
	na := *arr
	na.Name = "comments" // the constant, not the earlier read's copy
	switch {
	case arr.End <= old.Start:
		return &na // before the edit: its comments are arr's
	case arr.Start >= old.End:
		na.Start += delta
		na.keyStart += int32(delta)
		na.keyEnd += int32(delta)
	}
	na.End += delta
	elems := make([]*Node, len(arr.Elems()))
	for i, e := range arr.Elems() {
		switch {
		case e == old:
			elems[i] = v
		case e.End <= old.Start || delta == 0:
			elems[i] = e
		default:
			elems[i] = cloneShifted(e, delta)
		}
	}
	na.setChildren(elems)
	return &na
}

// commentHolding returns the index of the element of arr, an object,
// whose braces hold the bytes [from, to) of its text and are not among
// them; -1 if none does.
func commentHolding(arr *Node, from, to int) int {
	elems := arr.Elems()
	lo, hi := 0, len(elems)
	for lo < hi {
		mid := (lo + hi) / 2
		if elems[mid].End <= from {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == len(elems) {
		return -1
	}
	e := elems[lo]
	if e.Kind != KindObject || !e.Closed || from <= e.Start || to > e.End-1 {
		return -1
	}
	return lo
}

// duplicateMember reports whether obj has two members of one name: which
// one counts is then the reader's to say, not a splice's.
func duplicateMember(obj *Node) bool {
	ms := obj.Members()
	for i := range ms {
		for j := range i {
			if ms[i].Name == ms[j].Name {
				return true
			}
		}
	}
	return false
}

// moveRead moves the subtree n, just read from a run of bytes that starts
// at offset at of the text, to the text's offsets. Its nodes are the
// reader's own, which nothing else has seen.
func moveRead(n *Node, at int) {
	n.Start += at
	n.End += at
	if n.keyEnd > 0 {
		n.keyStart += int32(at)
		n.keyEnd += int32(at)
	}
	for _, c := range n.children() {
		moveRead(c, at)
	}
}
