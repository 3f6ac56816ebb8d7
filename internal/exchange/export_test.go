package exchange

// ElementsMade reports whether the elements of n, a patch node, exist:
// false for one whose elements are kept in a table that nothing has
// asked for them yet (see lazyElems).
func ElementsMade(n *Node) bool {
	l := n.lazy
	return l == nil || l.made != nil
}
