package exchange

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// patchLineReviews are reviews whose patch is spelt in every way the line
// table must follow: multi-line elements, escapes, CRLF inside elements,
// the string form, a trailing "" element, non-string elements.
var patchLineReviews = map[string]string{
	"multi-line elements":    `{"leanreview_review": 1, "title": "t", "summary": "s", "patch": ["diff --git a/x b/x\n--- a/x", "+++ b/x\n", "@@ -1,2 +1,2 @@\n a\n-b", "+c"], "comments": []}`,
	"escapes":                `{"leanreview_review": 1, "title": "t", "summary": "s \u00e9", "patch": ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-say \"hi\\\" \u00e9 😀 \ud83d\ude00", "+\tsay \u0022bye\u0022\\n", "+é\u00e9\nsecond 😀"], "comments": []}`,
	"CRLF inside elements":   `{"leanreview_review": 1, "title": "t", "summary": "s", "patch": ["--- a/x\r\n+++ b/x\r\n", "@@ -1 +1 @@\r", "-a\r\n+b\u000d\u000a c\r"], "comments": []}`,
	"string form":            `{"leanreview_review": 1, "title": "t", "summary": "s", "patch": "--- a/x\n+++ b/x\r\n@@ -1 +1 @@\n-\u00e9 \"q\"\n+😀\\\n", "comments": []}`,
	"string form CRLF":       "{\"leanreview_review\": 1, \"title\": \"t\",\r\n \"summary\": \"s\",\r\n \"patch\": \"--- a/x\\r\\n+++ b/x\\r\\n@@ -1 +1 @@\\r\\n-a\\r\\n+b\\r\\n\", \"comments\": []}",
	"trailing empty element": "{\n  \"leanreview_review\": 1,\n  \"title\": \"t\",\n  \"summary\": \"s\",\n  \"patch\": [\n    \"--- a/x\",\n    \"+++ b/x\",\n    \"@@ -1 +1 @@\",\n    \"-a\",\n    \"+b\",\n    \"\"\n  ],\n  \"comments\": []\n}\n",
	"non-string elements":    `{"leanreview_review": 1, "title": "t", "summary": "s", "patch": [null, "--- a/x", 3, "+++ b/x", {"x": ["y"]}, "@@ -1 +1 @@", ["-a"], "-a", true, "+b\nc", ""], "comments": []}`,
	"empty elements":         `{"leanreview_review": 1, "title": "", "summary": "", "patch": ["", "\n", "\r\n", "a\n\nb", "\n\n"], "comments": []}`,
}

// TestMovedPatchSharesLines edits the reviews before their patch, at
// random, and checks that a version whose patch was carried over shares
// the earlier version's line table, and that its lines read exactly as a
// fresh parse's: same ranges, texts, elements, nodes of its own tree.
func TestMovedPatchSharesLines(t *testing.T) {
	reviews := goldenReviews(t)
	for name, src := range patchLineReviews {
		reviews[name] = []byte(src)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range reviews {
			if !yield(name) {
				return
			}
		}
	})
	for _, name := range names {
		prev := Parse(reviews[name])
		if prev.Review.Patch.Node == nil || prev.Review.Patch.LineCount() == 0 {
			continue
		}
		// Each review draws its own edits, from its name: a golden
		// added elsewhere does not change them.
		h := fnv.New64a()
		h.Write([]byte(name))
		r := rand.New(rand.NewPCG(5, h.Sum64()))
		shared := 0
		for k := 0; k < 12; k++ {
			src, ch, what := editBeforePatch(r, prev)
			var got *Document
			if k%2 == 0 {
				got = ParseEdited(NewText(src), prev, ch)
			} else {
				got = parseIncremental(src, prev)
			}
			ctx := fmt.Sprintf("%s, edit %d (%s)", name, k, what)
			comparePatchLines(t, ctx, got, Parse(src))
			gp, pp := &got.Review.Patch, &prev.Review.Patch
			if _, ok := got.PatchCarried(); ok {
				shared++
				if !sharesLines(gp, pp) {
					t.Fatalf("%s: the carried over patch has lines %p table %p (%d), want the earlier version's %p %p (%d)", ctx, gp.lines, gp.table, gp.LineCount(), pp.lines, pp.table, pp.LineCount())
				}
			}
			if gp.Node != nil && gp.LineCount() > 0 {
				prev = got // the next edit builds on this version
			}
		}
		if shared == 0 {
			t.Errorf("%s: no edit carried the patch over: nothing checked", name)
		}
	}
}

// sharesLines reports whether a and b read their lines from the same
// memory, the line table or the element table from the same base.
func sharesLines(a, b *Patch) bool {
	if a.LineCount() != b.LineCount() || (a.table == nil) != (b.table == nil) || a.tableBase != b.tableBase {
		return false
	}
	switch {
	case a.LineCount() == 0:
		return true
	case a.table != nil:
		return &a.table[0] == &b.table[0]
	}
	return &a.lines[0] == &b.lines[0]
}

// checkKeptLines requires the lines of p, an array, made from the element
// table or kept, to be those decodePatch keeps for an array whose elements
// are nodes.
func checkKeptLines(t *testing.T, ctx string, p *Patch) {
	t.Helper()
	if p.Form != PatchArray {
		return
	}
	var want []PatchLine
	elems := p.Node.Elems()
	if p.TrailingEmpty != nil {
		elems = elems[:len(elems)-1]
	}
	for i, e := range elems {
		if e.Kind == KindString {
			want = appendElem(want, p.src, e, i, p.Node.Start)
		}
	}
	if p.LineCount() != len(want) {
		t.Fatalf("%s: %d lines, want %d", ctx, p.LineCount(), len(want))
	}
	for i, w := range want {
		var g PatchLine
		g.elem, g.textStart, g.textEnd = p.lineValue(i)
		g.start, g.end = p.lineSource(i)
		if g != w {
			t.Fatalf("%s: line %d is %+v, want %+v", ctx, i, g, w)
		}
	}
}

// TestPatchLinesFromTable: a patch of one line per element is read from
// its element table, keeps no line table, and reads as the lines kept for
// its elements would, fresh or carried over; the other patches keep theirs.
func TestPatchLinesFromTable(t *testing.T) {
	reviews := goldenReviews(t)
	for name, src := range patchLineReviews {
		reviews[name] = []byte(src)
	}
	reviews["generated"] = reviewgen.Generate(reviewgen.Config{DiffLines: 2000, Comments: 40, Seed: 7})
	reviews["unclosed element"] = []byte(`{"leanreview_review": 1, "patch": ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "+a`)
	fromTable := 0
	for name, src := range reviews {
		d := Parse(src)
		p := &d.Review.Patch
		oneLine := p.Node != nil && p.Node.table() != nil &&
			!slices.ContainsFunc(p.Node.table().table, func(e stringElem) bool { return e.lineFeed() || e.carriage() || !e.closed() })
		if oneLine != (p.table != nil) || p.table != nil && p.lines != nil {
			t.Errorf("%s: one line per element in a table %v, got lines kept %v, table %v", name, oneLine, p.lines != nil, p.table != nil)
		}
		if p.table != nil {
			fromTable++
		}
		checkKeptLines(t, name, p)
		if p.Node == nil {
			continue
		}
		at := p.Node.Start
		next := append(append(append([]byte(nil), src[:at]...), "  "...), src[at:]...)
		got := ParseEdited(NewText(next), d, Change{Prefix: at, Suffix: len(src) - at})
		if _, ok := got.PatchCarried(); ok && !sharesLines(&got.Review.Patch, p) {
			t.Errorf("%s: the carried over patch does not share its lines", name)
		}
		checkKeptLines(t, name+", moved", &got.Review.Patch)
		comparePatchLines(t, name+", moved", got, Parse(next))
	}
	if fromTable == 0 {
		t.Error("no patch read its lines from the table")
	}
}

// editBeforePatch returns prev's text after a random edit before its
// patch: mostly a character typed or deleted in the title or the summary
// (which moves the patch, or not for a replacement of the same length),
// else any byte before the patch replaced by anything.
func editBeforePatch(r *rand.Rand, prev *Document) ([]byte, Change, string) {
	old := prev.Text.Bytes()
	splice := func(start, end int, text string) ([]byte, Change) {
		src := append(append(append([]byte(nil), old[:start]...), text...), old[end:]...)
		return src, Change{Prefix: start, Suffix: len(old) - end}
	}
	chars := []string{"x", "é", "😀", `\"`, `\\`, `\u00e9`, `\n`, " "}
	var strs []*Node
	for _, name := range []string{"title", "summary"} {
		if n := prev.Root.Member(name); n != nil && n.Kind == KindString && n.Closed && n.End <= prev.Review.Patch.Node.Start {
			strs = append(strs, n)
		}
	}
	switch k := r.IntN(6); {
	case k < 4 && len(strs) > 0:
		n := strs[r.IntN(len(strs))]
		ch := chars[r.IntN(len(chars))]
		if k == 3 && n.End-n.Start > 2 && !n.Escape {
			at := n.Start + 1 + r.IntN(n.End-n.Start-2)
			src, c := splice(at, at+1, "")
			return src, c, "delete a byte of " + n.Name
		}
		at := n.Start + 1 // escapes make other offsets unsafe to type at
		if !n.Escape {
			at += r.IntN(n.End - n.Start - 1)
		}
		src, c := splice(at, at, ch)
		return src, c, "insert " + ch + " in " + n.Name
	case k == 4:
		at := prev.Review.Patch.Node.Start
		src, c := splice(at, at, strings.Repeat(" ", 1+r.IntN(3)))
		return src, c, "spaces before the patch"
	}
	at := r.IntN(prev.Review.Patch.Node.Start)
	ch := []string{"x", "", "\n", `"`, "{", "]", "é"}[r.IntN(7)]
	src, c := splice(at, at+r.IntN(2), ch)
	return src, c, fmt.Sprintf("replace at %d by %q", at, ch)
}

// comparePatchLines requires got's patch lines to read as want's, got's
// nodes being its own tree's.
func comparePatchLines(t *testing.T, ctx string, got, want *Document) {
	t.Helper()
	gp, wp := &got.Review.Patch, &want.Review.Patch
	if gp.Form != wp.Form || gp.LineCount() != wp.LineCount() {
		t.Fatalf("%s: got form %d with %d lines, want %d with %d", ctx, gp.Form, gp.LineCount(), wp.Form, wp.LineCount())
	}
	// A moved patch's trailing element is a copy of its own (Patch.element),
	// which Path finds in the patch all the same.
	if (gp.TrailingEmpty == nil) != (wp.TrailingEmpty == nil) || gp.TrailingEmpty != nil &&
		(NodeRange(gp.TrailingEmpty) != NodeRange(wp.TrailingEmpty) || Parent(got.Root, gp.TrailingEmpty) != got.Root.Member("patch") ||
			gp.TrailingEmpty.Pointer(got.Root) != wp.TrailingEmpty.Pointer(want.Root)) {
		t.Fatalf("%s: trailing empty element %v, want %v in the document's own tree", ctx, gp.TrailingEmpty, wp.TrailingEmpty)
	}
	own := got.Root.Member("patch")
	lr := gp.NewLineReader()
	for i := range gp.LineCount() {
		checkLineReaders(t, gp, lr, i)
		g := fmt.Sprintf("%d-%d %q elem %d shared %v node %v", gp.LineStart(i), gp.LineEnd(i), gp.LineText(i), gp.LineElem(i), gp.LineShared(i), NodeRange(gp.LineNode(i)))
		w := fmt.Sprintf("%d-%d %q elem %d shared %v node %v", wp.LineStart(i), wp.LineEnd(i), wp.LineText(i), wp.LineElem(i), wp.LineShared(i), NodeRange(wp.LineNode(i)))
		if g != w {
			t.Fatalf("%s: line %d: got %s, want %s", ctx, i, g, w)
		}
		n := own
		if gp.Form == PatchArray {
			n = own.Elems()[gp.LineElem(i)]
		}
		if gp.LineLen(i) != len(gp.LineText(i)) {
			t.Fatalf("%s: line %d: LineLen %d, want the length of %q", ctx, i, gp.LineLen(i), gp.LineText(i))
		}
		if gp.LineNode(i) != n {
			t.Fatalf("%s: line %d: node %p is not the document's own %s", ctx, i, gp.LineNode(i), n.Pointer(got.Root))
		}
	}
}

// checkLineReaders requires that what reads part of line i of p without
// LineText (LineHead, a LineReader's Text and Peek) agrees with it, and
// that the line's text is in its node's value.
func checkLineReaders(t *testing.T, p *Patch, lr *LineReader, i int) {
	t.Helper()
	text := p.LineText(i)
	head, ok := p.LineHead(i)
	if ok != (text != "") || ok && head != text[0] {
		t.Fatalf("line %d %q: LineHead %q %v, want its first byte", i, text, head, ok)
	}
	if peek := lr.Peek(i); string(peek) != text {
		t.Fatalf("line %d: Peek %q, want %q", i, peek, text)
	}
	if got := lr.Text(i); got != text {
		t.Fatalf("line %d: LineReader.Text %q, want %q", i, got, text)
	}
	if n := p.LineNode(i); !strings.Contains(n.Str, text) {
		t.Fatalf("line %d %q: not in its node's value %q", i, text, n.Str)
	}
}

// TestParsedPatchKeepsNoText: beside the text, which is the caller's, a
// parsed document keeps its table's copy of the patch's text (see
// lazyElems) and less than the text's size again. The patch's lines are
// not kept decoded (stringElem).
func TestParsedPatchKeepsNoText(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{DiffLines: 20000, Comments: 400, DriftedFraction: 0.3, Seed: 3})
	kept := uint64(math.MaxUint64)
	for range 3 { // the least of three: the heap may grow for other reasons
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		doc := Parse(src)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(doc)
		if after.HeapAlloc > before.HeapAlloc {
			kept = min(kept, after.HeapAlloc-before.HeapAlloc)
		}
	}
	if ratio := float64(kept) / float64(len(src)); ratio > 2.25 {
		t.Errorf("a parsed document of a %d-byte text keeps %d bytes beside it (%.2f times the text), want at most 2.25 times", len(src), kept, ratio)
	}
}
