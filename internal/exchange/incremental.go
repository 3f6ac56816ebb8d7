package exchange

import (
	"bytes"
)

// Change tells where a text differs from an earlier one: its first Prefix
// bytes and its last Suffix bytes are the earlier text's. It may say less
// than is true (shorter Prefix or Suffix), never more.
type Change struct {
	Prefix, Suffix int
}

// ChangeBetween compares two texts, at memory speed: on a large review
// that is still two passes over megabytes, which a caller that knows
// where the edit was (an editor says so) saves with ParseEdited.
func ChangeBetween(old, src Text) Change {
	n := min(old.Len(), src.Len())
	prefix := 0
	for prefix < n {
		run := min(n-prefix, compareRun)
		k := CommonPrefix(old.Slice(prefix, prefix+run), src.Slice(prefix, prefix+run))
		prefix += k
		if k < run {
			break
		}
	}
	suffix := 0
	for suffix < n-prefix {
		run := min(n-prefix-suffix, compareRun)
		a := old.Slice(old.Len()-suffix-run, old.Len()-suffix)
		b := src.Slice(src.Len()-suffix-run, src.Len()-suffix)
		k := commonSuffix(a, b)
		suffix += k
		if k < run {
			break
		}
	}
	return Change{Prefix: prefix, Suffix: suffix}
}

// compareRun is how many bytes ChangeBetween compares at a time: runs of
// the two texts, views of their pieces nearly always.
const compareRun = 64 << 10

// Then is c followed by next: what is unchanged by both.
func (c Change) Then(next Change) Change {
	return Change{Prefix: min(c.Prefix, next.Prefix), Suffix: min(c.Suffix, next.Suffix)}
}

// fit bounds c to texts of lengths a and b, so that prefix and suffix do
// not overlap in either.
func (c Change) fit(a, b int) Change {
	n := min(a, b)
	c.Prefix = max(0, min(c.Prefix, n))
	c.Suffix = max(0, min(c.Suffix, n-c.Prefix))
	return c
}

// ParseEdited parses src, the text of a document whose previous
// version prev was parsed already. When the edit between the two leaves
// the patch's text untouched, the patch's subtree and lines are taken from
// prev instead of being read and decoded again: on a large review nearly
// every edit is in a comment, and the patch is nearly all of the bytes.
// The patch gets a node of its own, moved by an edit before it, that
// shares the elements' table and makes them from src only when something
// asks for them (lazyElems); its lines are shared (see PatchLine). The comments the edit leaves whole, before or
// after it, are taken rather than read again: the edited one is read,
// not all the others. Those it neither moved nor renumbered are prev's
// own nodes, shared; the others are copies, moved.
//
// As with Parse, src must not be modified afterwards. What is carried
// over keeps nothing else of prev alive: the patch's strings are copies,
// its table holds no text, the comments are kept apart from the rest of
// the tree (see reader.comment), and no node points to its parent.
//
// The caller tells how src differs from prev's text (ch) instead of
// having it found out: a wrong ch gives a wrong document, so it must come
// from the edit itself (or ChangeBetween). An edit inside one comment,
// the title or the summary reads that value alone (spliceValue); the
// document holds src as given, its pieces shared with prev's (see
// holdText).
func ParseEdited(src Text, prev *Document, ch Change) *Document {
	ch = ch.fit(prev.Text.Len(), src.Len())
	d := parseEdited(src, prev, ch)
	d.base, d.baseLen, d.change = prev.id, prev.Text.Len(), ch
	return d
}

func parseEdited(src Text, prev *Document, ch Change) *Document {
	if d, _, ok := spliceValue(src, prev, ch); ok {
		return d
	}
	d, _ := readEdited(src, prev, ch)
	return d
}

// readEdited is parseEdited, returning its reader too, for tests to see
// what it read. The comments the edit leaves whole in the unchanged
// prefix or suffix are taken from prev rather than read (commentSlots),
// whatever becomes of the patch. The reader reads the text as one run
// (Text.Bytes); the document holds it as given (see holdText).
func readEdited(t Text, prev *Document, ch Change) (*Document, *reader) {
	src := t.Bytes()
	r := &reader{src: src}
	r.slots = commentSlots(src, prev, ch)
	r.edited = len(r.slots) > 0
	p := prev.Review.Patch
	if p.Node == nil || p.Form != PatchArray && p.Form != PatchString || !p.Node.Closed || syntaxErrorIn(prev, p.Node) {
		return r.documentOf(t), r
	}
	oldLen := prev.Text.Len()
	prefix, suffix := ch.Prefix, ch.Suffix
	var delta int
	switch {
	case p.Node.End <= prefix:
		delta = 0 // the edit is after the patch
	case p.Node.Start >= oldLen-suffix:
		delta = len(src) - oldLen // the edit is before it: the patch moves
	default:
		return reuseMapper(r.documentOf(t), prev, ch), r
	}
	// A patch kept in a table gets a node of its own, moved or not, which
	// shares the table and decodes its elements, only if asked, from src
	// (lazyElems): sharing prev's would keep prev's text alive. Any other
	// patch (a string, an array the table could not hold) holds copies of
	// its strings and none of the text: unmoved, its subtree is shared
	// with prev; moved, it is copied, moved.
	reuse := carriedPatch(p.Node, delta, t)
	var shared *Node
	if reuse == p.Node {
		shared = reuse
	}
	r.reuse, r.reuseAt, r.shared = reuse, p.Node.Start+delta, shared
	root, errs := parseJSON(r)
	text := holdText(t, src, root)
	d := reuseMapper(&Document{Text: text, Root: root, Syntax: errs, id: new(docID), mapper: &lazyMapper{}}, prev, ch)
	if root.Kind != KindObject {
		return d, r
	}
	if root.Member("patch") != reuse {
		// Not reused, or copied by the reader rather than written into.
		d.Review = decodeReview(text, root)
		return d, r
	}
	d.patchCarried, d.patchFrom, d.patchDelta = true, NodeRange(p.Node), delta
	d.Review = carriedReview(text, root, reuse, prev)
	return d, r
}

// carriedPatch returns the patch node n of an earlier version for the
// version of text t, moved by shift bytes: n itself when unmoved and not
// kept in a table, else a node of its own that shares n's table, or a
// copy of n's subtree, moved (see newMovedNode).
func carriedPatch(n *Node, shift int, t Text) *Node {
	if shift == 0 && n.table() == nil {
		return n
	}
	return newMovedNode(n, shift, t.window(n.Start+shift, n.End+shift))
}

// carriedReview decodes the review of root, of text t, whose patch node,
// patch, is prev's carried over (carriedPatch): prev's lines are shared,
// and read from t.
func carriedReview(t Text, root, patch *Node, prev *Document) Review {
	p := prev.Review.Patch
	if patch == p.Node {
		p.src = t.window(p.Node.Start, p.Node.End)
		return decodeReviewWithPatch(t, root, p, prev.Review.Comments)
	}
	return decodeReviewWithPatch(t, root, movedPatch(p, patch, t), prev.Review.Comments)
}

// documentOf reads the document of text t, whose bytes r reads as one
// run, as Parse does.
func (r *reader) documentOf(t Text) *Document {
	root, errs := parseJSON(r)
	text := holdText(t, r.src, root)
	d := &Document{Text: text, Root: root, Syntax: errs, id: new(docID), mapper: &lazyMapper{}}
	if root.Kind == KindObject {
		d.Review = decodeReview(text, root)
	}
	return d
}

// slot is an element of an earlier version's root "comments" array that
// the new text spells as that version did, delta bytes later: reading it
// again would give the same subtree, moved.
type slot struct {
	n     *Node
	delta int
}

func (s slot) at() int { return s.n.Start + s.delta }

// commentSlots returns the comments of prev that the change leaves whole
// in the unchanged prefix or suffix, in order. Only closed objects
// without a syntax error qualify: their reading then depends on their
// bytes alone (errors would also depend on what was read before: where
// the reader's count of errors stops, which line a message names).
func commentSlots(src []byte, prev *Document, ch Change) []slot {
	if prev.Root == nil || prev.Root.Kind != KindObject {
		return nil
	}
	cs := prev.Root.Member("comments")
	if cs == nil || cs.Kind != KindArray {
		return nil
	}
	oldLen := prev.Text.Len()
	slots := make([]slot, 0, len(cs.Elems()))
	for _, e := range cs.Elems() {
		s := slot{n: e}
		switch {
		case e.End <= ch.Prefix:
		case e.Start >= oldLen-ch.Suffix:
			s.delta = len(src) - oldLen
		default:
			continue
		}
		if e.Kind != KindObject || !e.Closed || syntaxErrorIn(prev, e) {
			continue
		}
		slots = append(slots, s)
	}
	return slots
}

// reuseMapper has d's mapper, when first asked for, made from prev's,
// updated where ch says the text changed, when prev has one: the lines
// before the edit keep their index and those after it are prev's moved,
// without a scan.
func reuseMapper(d, prev *Document, ch Change) *Document {
	if m := prev.mapper.built(); m != nil {
		d.mapper.from, d.mapper.change = m, ch
	}
	return d
}

// movedPatch returns p for clone, p.Node carried over, moved or not, into
// the text src. The lines are shared, and their texts decoded from src
// through the table the elements are kept in, so that clone's elements
// are made only if something asks for them; a trailing empty element gets
// a moved node of its own.
func movedPatch(p Patch, clone *Node, src Text) Patch {
	p.Node, p.src = clone, src.window(clone.Start, clone.End) // the trailing element is decoded from src
	if p.TrailingEmpty != nil {
		p.TrailingEmpty = p.element(int(p.TrailingEmpty.Index))
	}
	return p
}

func syntaxErrorIn(d *Document, n *Node) bool {
	if len(d.Syntax) >= maxSyntaxErrors {
		return true
	}
	for _, e := range d.Syntax {
		if e.End > n.Start && e.Start < n.End {
			return true
		}
	}
	return false
}

// cloneShifted deep-copies a subtree with every offset moved by delta,
// into memory of its own, exactly sized. The strings are n's.
func cloneShifted(n *Node, delta int) *Node {
	return newShiftedCopier(countNodes(n), delta).clone(n)
}

// ownCopy deep-copies a subtree, strings included, into memory of its
// own, exactly sized: what a later version may share then keeps nothing
// else alive (see reader.comment).
func ownCopy(n *Node) *Node { return ownCopyShifted(n, 0) }

// ownCopyShifted is ownCopy with every offset moved by delta.
func ownCopyShifted(n *Node, delta int) *Node {
	nodes, size := subtreeSize(n)
	s := newShiftedCopier(nodes, delta)
	s.owns = true
	s.strs.reserve(size)
	return s.clone(n)
}

// shiftedCopier copies subtrees with every offset moved by delta, into
// one block of nodes and one of child pointers.
type shiftedCopier struct {
	delta int
	slab  []Node
	ptrs  []*Node
	// owns, when set, has the copies' strings copied too (see own).
	owns bool
	// strs is the block strings are copied into, as the reader's.
	strs stringBlocks
}

// newShiftedCopier returns a copier with room for count nodes; past
// them, it takes blocks as the reader does.
func newShiftedCopier(count, delta int) *shiftedCopier {
	return &shiftedCopier{delta: delta, slab: make([]Node, 0, count), ptrs: make([]*Node, 0, count)}
}

// clone copies n and its descendants. The copy is made on the stack and
// stored once, with its final pointers: while the collector runs, each
// pointer stored into the heap costs a write barrier, and storing n's
// pointers then overwriting them paid it twice.
func (s *shiftedCopier) clone(n *Node) *Node {
	v := *n
	v.Start += s.delta
	v.End += s.delta
	if n.keyEnd > 0 {
		v.keyStart += int32(s.delta)
		v.keyEnd += int32(s.delta)
	}
	if s.owns {
		v.Name, v.Str = s.own(n.Name), s.own(n.Str)
	}
	kids := n.children()
	if cap(s.ptrs)-len(s.ptrs) < len(kids) {
		s.ptrs = make([]*Node, 0, max(ptrBlock, len(kids)))
	}
	at := len(s.ptrs)
	s.ptrs = s.ptrs[:at+len(kids)]
	own := s.ptrs[at : at+len(kids) : at+len(kids)]
	v.setChildren(own)
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]Node, 0, slabNodes)
	}
	s.slab = append(s.slab, v)
	c := &s.slab[len(s.slab)-1]
	for i, k := range kids {
		own[i] = s.clone(k)
	}
	return c
}

// own returns a copy of str in the copier's blocks: a string left in the
// blocks of the reader that read it would keep them alive, with the
// strings of the rest of that reader's tree.
func (s *shiftedCopier) own(str string) string {
	if str == "" {
		return ""
	}
	return s.strs.keepString(str)
}

// subtreeSize returns the number of nodes of n's subtree and the bytes
// own copies of their strings into blocks.
func subtreeSize(n *Node) (nodes, size int) {
	nodes, size = 1, blockLen(n.Name)+blockLen(n.Str)
	for _, c := range n.children() {
		k, b := subtreeSize(c)
		nodes, size = nodes+k, size+b
	}
	return nodes, size
}

func countNodes(n *Node) int {
	k := 1
	for _, c := range n.children() {
		k += countNodes(c)
	}
	return k
}

// CommonPrefix returns the length of the longest common prefix of a and b,
// comparing in blocks so that bytes.Equal's vectorised loop does the work.
func CommonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for block := 4096; i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]); i += block {
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for block := 4096; i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]); i += block {
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// holdText returns the text a document read from flat, the bytes of t in
// one run, holds: t, as the edits left it, which the next version then
// shares, unless its patch spans pieces, which every version would then
// copy to decode its lines; then flat. The patch array the reader made
// is pointed at the text held: nothing else has seen it yet.
func holdText(t Text, flat []byte, root *Node) Text {
	held := t
	patch := root.Member("patch")
	if root.Kind != KindObject || patch == nil {
		return held
	}
	if !t.inOnePiece(patch.Start, patch.End) {
		held = NewText(flat)
	}
	if t := patch.table(); t != nil {
		t.src = held.window(patch.Start, patch.End)
	}
	return held
}
