package exchange

import "unsafe"

// ElementsMade reports whether the elements of n, a patch node, exist:
// false for a patch moved by an edit before it that nothing has asked
// for them yet (see movedNode).
func ElementsMade(n *Node) bool {
	return !n.moved || (*movedNode)(unsafe.Pointer(n)).kids != nil
}
