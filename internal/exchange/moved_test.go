package exchange

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestMovedPatchMatchesAFreshParse types before and after the patch,
// at random, and checks each version's tree, its elements asked for
// after the edits that moved it, against a fresh parse: offsets,
// parents and pointers.
func TestMovedPatchMatchesAFreshParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, multi := range []bool{false, true} {
		src := reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 120, Comments: 4, Seed: 2})
		if multi { // a multi-line element and a trailing empty one
			src = bytes.Replace(src, []byte(`",`+"\n"), []byte(`\n+x",`+"\n"), 1)
			src = bytes.Replace(src, []byte("\"\n  ],"), []byte("\",\n    \"\"\n  ],"), 1)
		}
		doc := Parse(src)
		for step := range 60 {
			// Inside the title or the summary, before the patch; now and
			// then in the last body, after it.
			field := []string{`"title": "`, `"summary": "`, `"title": "`, `"body": "`}[rng.IntN(4)]
			from := bytes.Index(src, []byte(field)) + len(field)
			if field == `"body": "` {
				from = bytes.LastIndex(src, []byte(field)) + len(field)
			}
			at := from + rng.IntN(bytes.IndexByte(src[from:], '"')+1)
			ins := []string{"x", "é", "", "\\n", "😀"}[rng.IntN(5)]
			del := 0
			if ins == "" && at < len(src) && src[at] >= 'a' && src[at] <= 'z' {
				del = 1
			}
			next := append(append(append([]byte{}, src[:at]...), ins...), src[at+del:]...)
			got := ParseEdited(NewText(next), doc, Change{Prefix: at, Suffix: len(src) - at - del})
			src, doc = next, got
			if step%3 != 0 {
				continue // elements asked for only now and then: chains of moves
			}
			want := Parse(src)
			if shape(got.Root) != shape(want.Root) || patchShape(got.Review.Patch) != patchShape(want.Review.Patch) {
				t.Fatalf("step %d (multi %v): edit at %d: the tree differs from a fresh parse", step, multi, at)
			}
			gp, wp := got.Review.Patch.Node, want.Review.Patch.Node
			if gp.Pointer(got.Root) != wp.Pointer(want.Root) {
				t.Fatalf("step %d: patch pointer %q, want %q", step, gp.Pointer(got.Root), wp.Pointer(want.Root))
			}
			for i, e := range gp.Elems() {
				if p := Parent(got.Root, e); p != gp || e.Pointer(got.Root) != wp.Elems()[i].Pointer(want.Root) {
					t.Fatalf("step %d: element %d has parent %p (patch %p), pointer %q; want the patch and %q", step, i, p, gp, e.Pointer(got.Root), wp.Elems()[i].Pointer(want.Root))
				}
			}
		}
	}
}

// TestMovedPatchCopiesOnce: a moved patch's elements are made the first
// time they are asked for, once, however many ask at the same time; a
// copy of the moved node (a patch respelt) is an ordinary tree, and a
// patch moved twice shares the table read, moved once.
func TestMovedPatchCopiesOnce(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 2, DiffLines: 60, Comments: 2, Seed: 4})
	doc := Parse(src)
	shifted := func(n int) []byte { return append([]byte(strings.Repeat(" ", n)), src...) }
	moved := newMovedNode(doc.Review.Patch.Node, 4, window{b: shifted(4)}) // "new " typed before it
	var wg sync.WaitGroup
	firsts := make([]*Node, 8)
	for i := range firsts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			firsts[i] = moved.Elems()[0]
		}()
	}
	wg.Wait()
	for _, f := range firsts {
		if f != firsts[0] {
			t.Fatalf("got elements %p and %p: copied more than once", f, firsts[0])
		}
	}
	if e, w := moved.Elems()[0], doc.Review.Patch.Node.Elems()[0]; e.Start != w.Start+4 || e.Str != w.Str {
		t.Fatalf("first element at %d %q, want %d %q", e.Start, e.Str, w.Start+4, w.Str)
	}
	// The next version moves the patch while a request of this one makes
	// its elements: the move must not read what the making writes.
	fresh := newMovedNode(doc.Review.Patch.Node, 2, window{b: shifted(2)})
	var race sync.WaitGroup
	race.Add(2)
	go func() { defer race.Done(); fresh.Elems() }()
	go func() { defer race.Done(); newMovedNode(fresh, 1, window{b: shifted(3)}) }()
	race.Wait()
	clone := cloneShifted(moved, 0)
	if clone.table() != nil || shape(clone) != shape(moved) {
		t.Fatalf("a copy of a moved node: lazy %v, same shape %v; want an ordinary copy", clone.table() != nil, shape(clone) == shape(moved))
	}
	read, again := doc.Review.Patch.Node.table(), newMovedNode(moved, -4, window{b: src}).table()
	if again == nil || again.delta != 0 || &again.table[0] != &read.table[0] {
		t.Fatalf("moved twice: %+v, want the table read, moved by 0", again)
	}
}

// TestEditBeforeThePatchCopiesNoElement types in the summary of reviews
// whose patch has multi-line elements and a trailing empty one, parses
// and checks each version as the server does, and requires that none
// made the moved patch's elements; its lines' texts and flags are still
// a fresh parse's.
func TestEditBeforeThePatchCopiesNoElement(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 120, Comments: 6, Seed: 5})
	src = bytes.Replace(src, []byte(`",`+"\n"), []byte(`\n+x",`+"\n"), 1)
	src = bytes.Replace(src, []byte("\"\n  ],"), []byte("\",\n    \"\"\n  ],"), 1)
	doc := Parse(src)
	check := Check(doc)
	if doc.Review.Patch.TrailingEmpty == nil {
		t.Fatal("the review has no trailing empty element: the replacement is out of date")
	}
	for k := range 5 {
		at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
		next := append(append(append([]byte{}, src[:at]...), "é"[:2*(k%2)+0]+"x"...), src[at:]...)
		got := ParseEdited(NewText(next), doc, Change{Prefix: at, Suffix: len(src) - at})
		check = CheckIncremental(got, &check)
		p := got.Review.Patch
		if l := p.Node.table(); l == nil || l.made != nil {
			t.Fatalf("edit %d: the patch is %+v; want a table, no element made", k, l)
		}
		wantDoc := Parse(next)
		want := wantDoc.Review.Patch
		for i := range p.LineCount() {
			if p.LineText(i) != want.LineText(i) || p.LineShared(i) != want.LineShared(i) || p.LineStart(i) != want.LineStart(i) ||
				p.LineElemRange(i) != NodeRange(want.LineNode(i)) {
				t.Fatalf("edit %d, line %d: got %q shared %v at %d, want %q %v at %d", k, i, p.LineText(i), p.LineShared(i), p.LineStart(i), want.LineText(i), want.LineShared(i), want.LineStart(i))
			}
		}
		if g, w := NodeRange(p.TrailingEmpty), NodeRange(want.TrailingEmpty); g != w || p.TrailingEmpty.Pointer(got.Root) != want.TrailingEmpty.Pointer(wantDoc.Root) {
			t.Fatalf("edit %d: trailing empty element at %v %s, want %v %s", k, g, p.TrailingEmpty.Pointer(got.Root), w, want.TrailingEmpty.Pointer(wantDoc.Root))
		}
		if p.Node.table().made != nil {
			t.Fatalf("edit %d: reading the lines made the elements", k)
		}
		src, doc = next, got
	}
}

// TestPatchElementTheTableCannotHold reads a patch with one element
// whose escapes add more than 16 bits to its value: the array is then
// read as nodes, with the values, ranges and errors of the table's.
func TestPatchElementTheTableCannotHold(t *testing.T) {
	escaped := strings.Repeat(`\u00e9`, 20000)
	for _, tc := range []struct {
		name, line string
		table      bool
	}{
		{"escapes", "+" + escaped, false},
		{"escapes and \\q", "+" + escaped + `\q`, false},
		{"escapes it can hold", "+" + escaped[:6*10000] + `\q`, true},
		{"invalid UTF-8", "+" + strings.Repeat("\xff", 8), true},
	} {
		head := `{"version": "1", "patch": ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", `
		src := []byte(head + `"` + tc.line + `"], "comments": []}`)
		doc := Parse(src)
		p := doc.Review.Patch
		if table := p.Node.table() != nil; table != tc.table {
			t.Errorf("%s: read as a table %v, want %v", tc.name, table, tc.table)
		}
		var want Node
		r := reader{src: src, pos: len(head)}
		r.stringValue(&want)
		n := p.Node.Elems()[4]
		if n.Str != want.Str || NodeRange(n) != NodeRange(&want) || p.LineText(4) != want.Str {
			t.Errorf("%s: element of %d bytes at %v, line of %d; want %d at %v", tc.name, len(n.Str), NodeRange(n), len(p.LineText(4)), len(want.Str), NodeRange(&want))
		}
		if got, want := len(doc.Syntax), len(r.errs); got != want {
			t.Errorf("%s: %d syntax errors, want %d", tc.name, got, want)
		}
	}
}
