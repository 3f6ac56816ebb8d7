package exchange

import (
	"slices"
	"testing"
	"unsafe"
)

// TestPatchIsAMemberOfItsRoot checks that the patch, which later versions
// share, reads as the root's member in the tree that holds it: its path
// and ownership, and that removing it removes its comma.
func TestPatchIsAMemberOfItsRoot(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`{"a": 1, "patch": ["x"], "b": 2}`, `{"a": 1, "b": 2}`},
		{`{"a": 1, "patch": ["x"]}`, `{"a": 1}`},
		{`{"patch": "x"}`, `{}`},
	} {
		doc := Parse([]byte(tt.src))
		p := doc.Root.Member("patch")
		if Parent(doc.Root, p) != doc.Root || !p.isMember(doc.Root) || p.Pointer(doc.Root) != "/patch" {
			t.Errorf("%s: parent %p (root %p), pointer %q", tt.src, Parent(doc.Root, p), doc.Root, p.Pointer(doc.Root))
		}
		out, err := ApplyEdits(doc.Text.Bytes(), []Edit{RemoveMember(doc.Text, doc.Root, p)})
		if err != nil || string(out) != tt.want {
			t.Errorf("%s: RemoveMember(patch) = %s (%v), want %s", tt.src, out, err, tt.want)
		}
	}
}

// TestPathFindsEachNode asks Path for every node of documents with
// zero-width values (a missing value, a stray ':' before another
// element, an unclosed container at the end), where siblings share a
// boundary: it must tell them apart by identity, and find nothing for a
// node outside the tree.
func TestPathFindsEachNode(t *testing.T) {
	for _, src := range []string{
		`{"a": , "b": [:1, 2], "c": {"d": }}`,
		`[[], [[]], {"": [1, , 2]}]`,
		`{"a": [1, {"b": `,
		`{"patch": ["x", "y", ""], "comments": [{"id": "c"}, 7]}`,
	} {
		doc := Parse([]byte(src))
		nodes := 0
		walkPath(doc.Root, func(n *Node, path []*Node) {
			nodes++
			if got := Path(doc.Root, n); !slices.Equal(got, path) {
				t.Errorf("%s: %s %d-%d: Path gives %v, want %v", src, n.Kind, n.Start, n.End, got, path)
			}
		})
		if nodes < 5 {
			t.Errorf("%s: %d nodes, want a tree to search", src, nodes)
		}
		if stray := (&Node{Start: 1, End: 1}); Path(doc.Root, stray) != nil || stray.Pointer(doc.Root) != "" {
			t.Errorf("%s: a node outside the tree has a path", src)
		}
	}
}

// TestNodeSize keeps Node small: a large review holds many.
func TestNodeSize(t *testing.T) {
	if size := unsafe.Sizeof(Node{}); size > 80 {
		t.Errorf("Node is %d bytes, want at most 80", size)
	}
}
