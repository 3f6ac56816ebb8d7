package exchange

// ElementsMade reports whether the elements of n, a patch node, exist:
// false for one whose elements are kept in a table that nothing has
// asked for them yet (see lazyArray).
func ElementsMade(n *Node) bool {
	l := asLazy(n)
	return l == nil || l.made != nil
}
