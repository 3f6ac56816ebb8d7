package exchange

import (
	"bytes"
	"strings"
	"testing"
	"unsafe"
)

// inSource reports whether s's bytes lie inside src's.
func inSource(s string, src []byte) bool {
	if s == "" {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(src))
}

// TestStringsAreViews checks that strings without escapes, members names
// included and whatever else they hold, share the source's memory, and
// that escaped ones are decoded into memory of their own.
func TestStringsAreViews(t *testing.T) {
	src := []byte("{\"plain\": \"abc\", \"utf8\": \"é😀\", \"ctl\": \"a\tb\", \"bad\": \"\xff\", \"open\": \"no end\n" +
		`, "esc\n": "a\"b", "uni": "\u00e9x", "bad\q": "x\qy", "short\u12": "z\u12"}`)
	root, _ := ParseJSON(src)
	for _, m := range root.Members() {
		keyEscaped := strings.Contains(string(src[m.KeyStart():m.KeyEnd()]), `\`)
		if inSource(m.Name, src) == keyEscaped {
			t.Errorf("member name %q: escaped %v, but view %v", m.Name, keyEscaped, !keyEscaped)
		}
		if m.Str != "" && inSource(m.Str, src) == m.Escape {
			t.Errorf("member %q = %q: escaped %v, but view %v", m.Name, m.Str, m.Escape, !m.Escape)
		}
	}
	want := map[string]string{"plain": "abc", "utf8": "é😀", "ctl": "a\tb", "bad": "\xff", "open": "no end",
		"esc\n": `a"b`, "uni": "éx", "badq": "xqy", "short\\u12": `z\u12`}
	for name, v := range want {
		if got := root.Member(name); got == nil || got.Str != v {
			t.Errorf("member %q: got %v, want %q", name, got, v)
		}
	}
}

// TestPatchStringsAreCopies checks that the strings of the root's patch
// member, nested ones included, do not share the source's memory: later
// versions carry the patch's nodes over, and must not keep this source.
func TestPatchStringsAreCopies(t *testing.T) {
	src := []byte(`{"title": "t", "patch": ["a", {"k": "v", "k2": "w"}, "b\tc", "d"], "x": {"patch": "p"}}`)
	root, _ := ParseJSON(src)
	walk(root.Member("patch"), func(n *Node) {
		if inSource(n.Name, src) || inSource(n.Str, src) {
			t.Errorf("%s: %q %q share the source", n.Pointer(), n.Name, n.Str)
		}
	})
	if s := root.Member("title").Str; !inSource(s, src) {
		t.Errorf("title %q: want a view", s)
	}
	if s := root.Member("x").Member("patch").Str; !inSource(s, src) {
		t.Errorf("/x/patch %q: want a view", s)
	}
}

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
		out, err := ApplyEdits(doc.Src, []Edit{RemoveMember(doc.Src, p)})
		if err != nil || string(out) != tt.want {
			t.Errorf("%s: RemoveMember(patch) = %s (%v), want %s", tt.src, out, err, tt.want)
		}
	}
}

// TestNodeSize keeps Node small: a large review holds over 100,000.
func TestNodeSize(t *testing.T) {
	if size := unsafe.Sizeof(Node{}); size > 88 {
		t.Errorf("Node is %d bytes, want at most 88", size)
	}
}

// TestCommentShortMembersAreCopies checks that the members other packages
// keep across versions (the anchor package keeps the path) are not views
// of the source, while the long ones are.
func TestCommentShortMembersAreCopies(t *testing.T) {
	src := []byte(`{"leanreview_review": 1, "patch": [], "comments": [{"id": "c1", "author": "a", "path": "p.go", "side": "RIGHT",
		"start_line": 1, "body": "long body", "state": "active", "snippet": "x := 1", "at": "2024-01-01T00:00:00Z"}]}`)
	c := Parse(src).Review.Comments[0]
	for name, s := range map[string]string{"id": c.ID, "author": c.Author, "path": c.Path, "side": c.Side, "state": c.State, "at": c.At} {
		if s == "" || inSource(s, src) {
			t.Errorf("%s %q: want a copy", name, s)
		}
	}
	if !inSource(c.Body, src) || !inSource(c.Snippet, src) {
		t.Errorf("body %q, snippet %q: want views", c.Body, c.Snippet)
	}
}

// TestPlainASCII compares the eight-bytes-at-a-time scan with a byte loop
// on every alignment of strings that put each kind of byte everywhere.
func TestPlainASCII(t *testing.T) {
	naive := func(s []byte, i int) int {
		for ; i < len(s); i++ {
			if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
				return i
			}
		}
		return i
	}
	for _, special := range []byte{'"', '\\', 0, 0x1f, '\n', 0x80, 0xff, 0xc3} {
		for _, fill := range []byte{'a', ' ', 0x21, 0x7f, '!', '#', '[', ']', 0x5b, 0x5d} {
			for n := 0; n < 20; n++ {
				for at := 0; at <= n; at++ {
					s := bytes.Repeat([]byte{fill}, n)
					if at < n {
						s[at] = special
					}
					for from := 0; from <= n; from++ {
						if got, want := plainASCII(s, from), naive(s, from); got != want {
							t.Fatalf("plainASCII(%q, %d) = %d, want %d", s, from, got, want)
						}
					}
				}
			}
		}
	}
}
