package exchange

import (
	"bytes"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestExportedTypesAreSafeToCopy copies a value of each exported type that
// holds pointers, including the patch node whose elements are made from
// a table when first asked for, and uses the copy as the original is used:
// the copy must read the same, and the original must not change. Run with
// -race, which checks pointer conversions too.
func TestExportedTypesAreSafeToCopy(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 2, DiffLines: 40, Comments: 4, Seed: 7})
	doc := Parse(src)
	patch := doc.Review.Patch.Node
	if patch.table() == nil {
		t.Fatal("the patch is not kept in a table: nothing to check")
	}
	at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
	next := append(append(append([]byte(nil), src[:at]...), 'x'), src[at:]...)
	moved := ParseEdited(NewText(next), doc, Change{Prefix: at, Suffix: len(src) - at})

	for name, n := range map[string]*Node{"patch": patch, "moved patch": moved.Review.Patch.Node, "root": doc.Root, "comment": doc.Review.Comments[0].Node} {
		c := *n
		got, want := c.Elems(), n.Elems()
		if len(got) != len(want) || len(c.Members()) != len(n.Members()) {
			t.Fatalf("%s: a copy has %d elements, %d members; want %d, %d", name, len(got), len(c.Members()), len(want), len(n.Members()))
		}
		for i := range got {
			if got[i].Str != want[i].Str || NodeRange(got[i]) != NodeRange(want[i]) {
				t.Fatalf("%s element %d: got %q at %v, want %q at %v", name, i, got[i].Str, NodeRange(got[i]), want[i].Str, NodeRange(want[i]))
			}
		}
	}

	d := *moved
	if d.Mapper().Lines() != moved.Mapper().Lines() || d.Review.Title != moved.Review.Title {
		t.Fatalf("a copy of the document: %d lines, title %q; want %d, %q", d.Mapper().Lines(), d.Review.Title, moved.Mapper().Lines(), moved.Review.Title)
	}
	if ch, ok := d.editOf(doc); !ok || ch.Prefix != at {
		t.Fatalf("a copy of the document: editOf = %+v, %v; want the edit at %d", ch, ok, at)
	}

	p := moved.Review.Patch
	pc := p
	lr := p.NewLineReader()
	for i := range p.LineCount() {
		lrc := *lr
		if pc.LineText(i) != p.LineText(i) || lrc.Text(i) != lr.Text(i) || string(lrc.Peek(i)) != p.LineText(i) {
			t.Fatalf("line %d: copies of the patch and its reader read %q and %q, want %q", i, pc.LineText(i), lrc.Text(i), p.LineText(i))
		}
	}
	m := moved.Mapper()
	mc := *m
	cur := m.Cursor(UTF16)
	cc := cur
	for _, off := range []int{0, at, len(next) / 2, len(next)} {
		if mc.Position(off, UTF16) != m.Position(off, UTF16) || cc.Position(off) != m.Position(off, UTF16) {
			t.Fatalf("offset %d: copies of the mapper and its cursor give %v and %v, want %v", off, mc.Position(off, UTF16), cc.Position(off), m.Position(off, UTF16))
		}
	}

	r := Check(moved)
	rc := r
	if len(rc.Diagnostics) != len(r.Diagnostics) || len(CheckIncremental(moved, &rc).Diagnostics) != len(r.Diagnostics) {
		t.Fatalf("a copy of the check's result: %d diagnostics, want %d", len(rc.Diagnostics), len(r.Diagnostics))
	}
}
