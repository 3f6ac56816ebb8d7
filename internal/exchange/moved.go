package exchange

import (
	"sync"
	"unsafe"
)

// movedNode is the patch of a version parsed after an edit before it:
// the earlier version's patch, spelt the same, every offset moved by
// delta. Copying its 100,000 elements with their offsets shifted took
// most of such a keystroke on a large review, and nothing the analysis
// does with a carried-over patch reads them: the patch lines, their
// texts and the index are shared as they are. So the elements are
// copied when something first asks for them (a hover in the patch, a
// fix that edits it), once per version.
//
// The Node comes first: Node.children converts a *Node whose moved is
// set into its movedNode.
type movedNode struct {
	Node
	// from is the node read from a text, whose elements are copied: an
	// earlier version's patch, or what that one was moved from in turn,
	// so that a chain of edits shifts once, not once per version.
	from  *Node
	delta int
	once  sync.Once
}

// newMovedNode returns n moved by delta bytes, its elements copied only
// when asked for. Its Parent, name and key are the reader's to set.
func newMovedNode(n *Node, delta int) *Node {
	from := n
	if n.moved {
		m := (*movedNode)(unsafe.Pointer(n))
		from, delta = m.from, m.delta+delta
	}
	m := &movedNode{Node: *from, from: from, delta: delta}
	m.Start += delta
	m.End += delta
	if m.keyEnd > 0 {
		m.keyStart += int32(delta)
		m.keyEnd += int32(delta)
	}
	m.kids, m.moved = nil, from.nkids > 0
	return &m.Node
}

// children copies from's children, moved by delta, the first time.
func (m *movedNode) children() []*Node {
	m.once.Do(func() {
		kids := m.from.children()
		count := 0
		for _, k := range kids {
			count += countNodes(k)
		}
		c := newShiftedCopier(count, m.delta)
		own := make([]*Node, len(kids))
		for i, k := range kids {
			own[i] = c.clone(k, &m.Node)
		}
		m.kids = &own[0]
	})
	return unsafe.Slice(m.kids, m.nkids)
}
