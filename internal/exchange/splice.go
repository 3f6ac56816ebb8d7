package exchange

// spliceComment is ParseEdited for the edit nearly every keystroke on a
// review is: inside one comment, of a document without syntax errors,
// which leaves the comment an object without one. The comment is read
// again from its own bytes alone and put in the earlier tree's place;
// the rest of the tree is carried over, moved by the change in length
// after the comment. No run of the whole text is made or read: the
// document holds the text as the edit left it, in pieces (Text).
//
// It reports false, and does nothing, for any other edit: ParseEdited
// then reads the document as one run.
//
// The result is the tree a fresh read of the text gives: the bytes
// outside the comment are the earlier ones, read without an error; the
// comment's bytes read alone without an error, from its opening brace
// to its closing one, at the comment's depth, as they read inside the
// array: a value read without an error reads the same wherever it
// stands at one depth.
func spliceComment(t Text, prev *Document, ch Change) (*Document, *reader, bool) {
	root := prev.Root
	if len(prev.Syntax) > 0 || root == nil || root.Kind != KindObject || !root.Closed || duplicateMember(root) {
		return nil, nil, false
	}
	arr := root.Member("comments")
	if arr == nil || arr.Kind != KindArray || !arr.Closed {
		return nil, nil, false
	}
	oldLen := prev.Text.Len()
	from, to, delta := ch.Prefix, oldLen-ch.Suffix, t.Len()-oldLen
	k := commentHolding(arr, from, to)
	if k < 0 {
		return nil, nil, false
	}
	old := arr.Elems()[k]
	// Read at its depth in the document (the root's, 0, and the array's,
	// 1, are above it): the reader's rules for the root's members do not
	// apply to its members, and the nesting limit counts as there.
	r := &reader{src: t.Slice(old.Start, old.End+delta)}
	c := r.value(2)
	if len(r.errs) > 0 || c.Kind != KindObject || !c.Closed || c.End != len(r.src) {
		return nil, nil, false
	}
	moveRead(c, old.Start)
	c.Index = old.Index
	c = ownCopy(c) // what later versions share keeps nothing else alive (see reader.comment)

	d := &Document{Text: t, id: new(docID), mapper: &lazyMapper{}}
	patch, carried := d.spliceRoot(prev, arr, k, c, delta)
	reuseMapper(d, prev, ch)
	p := prev.Review.Patch
	switch {
	case !carried:
		d.Review = decodeReview(t, d.Root)
	case patch == p.Node:
		p.src = t.window(p.Node.Start, p.Node.End)
		d.Review = decodeReviewWithPatch(t, d.Root, p, prev.Review.Comments)
	default:
		d.Review = decodeReviewWithPatch(t, d.Root, movedPatch(p, patch, t), prev.Review.Comments)
	}
	return d, r, true
}

// spliceRoot gives d, of text d.Text, a root: prev's, its end moved by
// delta, with c, read, as element k of its comments array arr. Around c
// are prev's members and elements: the earlier nodes themselves before
// it, which nothing writes into, copies moved after it. It returns the
// patch node d has, and whether it is prev's carried over.
func (d *Document) spliceRoot(prev *Document, arr *Node, k int, c *Node, delta int) (patch *Node, carried bool) {
	root, old := prev.Root, arr.Elems()[k]
	nr, na := *root, *arr
	nr.End += delta
	na.End += delta
	na.Name = "comments" // the constant, not the earlier read's copy
	elems := make([]*Node, len(arr.Elems()))
	for i, e := range arr.Elems() {
		switch {
		case i < k:
			elems[i] = e
		case i == k:
			elems[i] = c
		default:
			elems[i] = cloneShifted(e, delta)
		}
	}
	na.setChildren(elems)
	p := prev.Review.Patch
	carried = p.Node != nil && (p.Form == PatchArray || p.Form == PatchString)
	members := make([]*Node, len(root.Members()))
	for i, m := range root.Members() {
		shift := 0
		if m.Start >= old.End {
			shift = delta
		}
		switch {
		case m == arr:
			members[i] = &na
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

// carriedPatch returns the patch node n of an earlier version for the
// version of text t, moved by shift bytes: n itself when unmoved and not
// kept in a table, else a node of its own, as the reader makes for it
// (readEdited).
func carriedPatch(n *Node, shift int, t Text) *Node {
	if shift == 0 && n.lazy == nil {
		return n
	}
	return newMovedNode(n, shift, t.window(n.Start+shift, n.End+shift))
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
