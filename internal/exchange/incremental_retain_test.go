package exchange

import (
	"bytes"
	"os"
	"runtime"
	"testing"
	"weak"
)

// TestSharedPatchKeepsNoEarlierVersion checks that a version sharing an
// earlier version's patch does not keep that version's tree or text
// alive: through the patch's Parent, a block of nodes or strings shared
// with the rest of its tree, or a view of its text.
func TestSharedPatchKeepsNoEarlierVersion(t *testing.T) {
	base, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.LastIndex(base, []byte(`"body": "`)) + len(`"body": "`)
	v1 := append([]byte(nil), base...)
	prev := Parse(v1)
	v2 := append(append(append([]byte(nil), base[:at]...), 'x'), base[at:]...)
	next := ParseIncremental(v2, prev)
	if next.Review.Patch.Node != prev.Review.Patch.Node {
		t.Fatal("the patch is not shared: nothing to check")
	}
	wsrc, wroot, wdoc := weak.Make(&v1[0]), weak.Make(prev.Root), weak.Make(prev)
	prev, v1 = nil, nil
	runtime.GC()
	runtime.GC()
	if wsrc.Value() != nil || wroot.Value() != nil || wdoc.Value() != nil {
		t.Errorf("the earlier version is still alive: text %v, root %v, document %v", wsrc.Value() != nil, wroot.Value() != nil, wdoc.Value() != nil)
	}
	runtime.KeepAlive(next)
}
