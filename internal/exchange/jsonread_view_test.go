package exchange

import (
	"testing"
	"unsafe"
)

// TestPatchParentIsStandIn checks that the patch node's Parent is a
// childless stand-in for the root (so that versions sharing the patch do
// not keep one another's trees), that paths and ownership still read the
// same, and that removing the patch member still removes its comma.
func TestPatchParentIsStandIn(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`{"a": 1, "patch": ["x"], "b": 2}`, `{"a": 1, "b": 2}`},
		{`{"a": 1, "patch": ["x"]}`, `{"a": 1}`},
		{`{"patch": "x"}`, `{}`},
	} {
		doc := Parse([]byte(tt.src))
		p := doc.Root.Member("patch")
		if p.Parent == doc.Root || p.Parent.Kind != KindObject || p.Parent.Parent != nil || len(p.Parent.Members()) != 0 {
			t.Fatalf("%s: patch.Parent = %+v, want a childless stand-in", tt.src, p.Parent)
		}
		if p.Parent.Start != doc.Root.Start || p.Parent.End != doc.Root.End || !p.IsMember() || p.Pointer() != "/patch" {
			t.Errorf("%s: stand-in %d-%d, pointer %q", tt.src, p.Parent.Start, p.Parent.End, p.Pointer())
		}
		out, err := ApplyEdits(doc.Text.Bytes(), []Edit{RemoveMember(doc.Text, p)})
		if err != nil || string(out) != tt.want {
			t.Errorf("%s: RemoveMember(patch) = %s (%v), want %s", tt.src, out, err, tt.want)
		}
	}
}

// TestNodeSize keeps Node small: a large review holds many.
func TestNodeSize(t *testing.T) {
	if size := unsafe.Sizeof(Node{}); size > 112 {
		t.Errorf("Node is %d bytes, want at most 112", size)
	}
}
