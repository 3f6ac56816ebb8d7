package exchange

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// shape renders a tree with every range, for comparing two parses.
func shape(n *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		fmt.Fprintf(&b, "%s %d-%d k%d-%d %q %q %v i%d %v%v%v%v%v|", n.Kind, n.Start, n.End, n.KeyStart(), n.KeyEnd(), n.Name, n.Str, n.Closed,
			n.Index, n.Bool, n.Escape, n.keyEscape, n.lineFeed, n.onlyStrings)
		for _, m := range n.Members() {
			walk(m)
		}
		for _, e := range n.Elems() {
			walk(e)
		}
	}
	walk(n)
	return b.String()
}

func patchShape(p Patch) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %v|", p.Form, p.TrailingEmpty != nil)
	for i := range p.LineCount() {
		fmt.Fprintf(&b, "%q %d %d-%d %v|", p.LineText(i), p.LineElem(i), p.LineStart(i), p.LineEnd(i), p.LineShared(i))
	}
	return b.String()
}

func TestParseIncrementalMatchesParse(t *testing.T) {
	base, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	text := string(base)
	edits := []struct{ name, from, to string }{
		{"comment body", "return it instead", "return it now"},
		{"title before the patch", `"auth refactor"`, `"auth 😀 refactor, longer"`},
		{"inside the patch", "defer cancel(ctx)", "defer cancel()"},
		{"break the syntax after the patch", `"state": "active",`, `"state": "active"`},
		{"break the syntax before the patch", `"summary": "Two issues, one blocking.",`, `"summary": "Two issues`},
		{"rename the patch member", `"patch": [`, `"patc": [`},
		{"delete the comments", text[strings.Index(text, `"comments"`) : len(text)-2], `"comments": []`},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			next := strings.Replace(text, e.from, e.to, 1)
			prev := Parse([]byte(text))
			got := parseIncremental([]byte(next), prev)
			want := Parse([]byte(next))
			checkTree(t, []byte(next), got.Root, got.Syntax)
			if shape(got.Root) != shape(want.Root) {
				t.Errorf("trees differ:\ngot  %s\nwant %s", shape(got.Root), shape(want.Root))
			}
			if !reflect.DeepEqual(got.Syntax, want.Syntax) {
				t.Errorf("syntax errors: got %v, want %v", got.Syntax, want.Syntax)
			}
			if patchShape(got.Review.Patch) != patchShape(want.Review.Patch) {
				t.Errorf("patch lines:\ngot  %s\nwant %s", patchShape(got.Review.Patch), patchShape(want.Review.Patch))
			}
			if len(got.Review.Comments) != len(want.Review.Comments) {
				t.Errorf("comments: got %d, want %d", len(got.Review.Comments), len(want.Review.Comments))
			}
		})
	}
}

func TestParseIncrementalRandomEdits(t *testing.T) {
	base, _ := os.ReadFile("../../examples/auth.review.json")
	r := rand.New(rand.NewPCG(1, 2))
	text := string(base)
	prev := Parse([]byte(text))
	for i := 0; i < 2000; i++ {
		at := r.IntN(len(text) + 1)
		end := min(len(text), at+r.IntN(4))
		ins := []string{"", "x", `"`, ",", "]", "😀", "\n", `\n`}[r.IntN(8)]
		next := text[:at] + ins + text[end:]
		got := parseIncremental([]byte(next), prev)
		want := Parse([]byte(next))
		checkTree(t, []byte(next), got.Root, got.Syntax)
		if shape(got.Root) != shape(want.Root) || patchShape(got.Review.Patch) != patchShape(want.Review.Patch) || !reflect.DeepEqual(got.Syntax, want.Syntax) {
			t.Fatalf("edit %d (%d-%d %q): incremental parse differs from a full parse of\n%s", i, at, end, ins, next)
		}
		text, prev = next, got
		if i%50 == 0 {
			text, prev = string(base), Parse(base) // start over now and then
		}
	}
}

// TestParseEditedWithTheEditorsChange parses as the language server
// does: told where each edit was, not comparing the texts, and across
// one to three edits at a time (versions a debounce skipped), so that
// the change it gets says less than a comparison would.
func TestParseEditedWithTheEditorsChange(t *testing.T) {
	base, _ := os.ReadFile("../../examples/auth.review.json")
	r := rand.New(rand.NewPCG(3, 4))
	text := string(base)
	prev := Parse([]byte(text))
	shared := 0
	for i := 0; i < 1500; i++ {
		next, ch := text, Change{Prefix: len(text), Suffix: len(text)}
		for range 1 + r.IntN(3) {
			at := r.IntN(len(next) + 1)
			end := min(len(next), at+r.IntN(4))
			ins := []string{"", "x", `"`, ",", "]", "😀", "\n", `\u00e9`}[r.IntN(8)]
			ch = ch.Then(Change{Prefix: at, Suffix: len(next) - end})
			next = next[:at] + ins + next[end:]
		}
		src := []byte(next)
		got := ParseEdited(NewText(src), prev, ch)
		want := Parse(src)
		checkTree(t, src, got.Root, got.Syntax)
		if shape(got.Root) != shape(want.Root) || patchShape(got.Review.Patch) != patchShape(want.Review.Patch) || !reflect.DeepEqual(got.Syntax, want.Syntax) {
			t.Fatalf("edit %d (change %+v): parse differs from a full parse of\n%s", i, ch, next)
		}
		if _, ok := got.PatchCarried(); ok {
			old, cur := prev.Review.Patch.Node, got.Review.Patch.Node
			if string(prev.Text.Bytes()[old.Start:old.End]) != string(src[cur.Start:cur.End]) {
				t.Fatalf("edit %d: the patch was carried over, but it is spelt differently", i)
			}
			shared++
		}
		if c, ok := got.editOf(prev); !ok || c != ch.fit(len(prev.Text.Bytes()), len(src)) {
			t.Fatalf("edit %d: editOf(prev) = %+v, %v; want %+v, true", i, c, ok, ch)
		}
		if _, ok := got.editOf(got); ok {
			t.Fatalf("edit %d: editOf(itself) answered; want only the document it was parsed from", i)
		}
		text, prev = next, got
		if i%50 == 0 {
			text, prev = string(base), Parse(base)
		}
	}
	if shared < 10 {
		t.Errorf("the patch was carried over %d times in 1500 edits; want the property exercised", shared)
	}
}

// TestParseEditedAtThePatchsEdges edits every byte about the patch's
// start and end, where the change decides whether the patch is reused or
// moved, and requires a full parse's tree.
func TestParseEditedAtThePatchsEdges(t *testing.T) {
	base, _ := os.ReadFile("../../examples/auth.review.json")
	prev := Parse(base)
	p := prev.Review.Patch.Node
	for _, edge := range []int{p.Start, p.End} {
		for at := max(0, edge-6); at <= min(len(base), edge+6); at++ {
			for _, e := range []struct {
				del int
				ins string
			}{{0, "x"}, {1, ""}, {1, "y"}, {0, " "}, {2, ""}} {
				end := min(len(base), at+e.del)
				src := append(append(append([]byte{}, base[:at]...), e.ins...), base[end:]...)
				got := ParseEdited(NewText(src), prev, Change{Prefix: at, Suffix: len(base) - end})
				want := Parse(src)
				if shape(got.Root) != shape(want.Root) || patchShape(got.Review.Patch) != patchShape(want.Review.Patch) || !reflect.DeepEqual(got.Syntax, want.Syntax) {
					t.Fatalf("edit at %d (patch %d-%d), %d deleted, %q inserted: parse differs from a full parse", at, p.Start, p.End, e.del, e.ins)
				}
			}
		}
	}
}

func TestChangeFitsBothTexts(t *testing.T) {
	for _, tc := range []struct {
		ch   Change
		a, b int
		want Change
	}{
		{Change{5, 5}, 6, 8, Change{5, 1}},
		{Change{10, 0}, 4, 9, Change{4, 0}},
		{Change{-1, 3}, 4, 4, Change{0, 3}},
		{Change{2, 2}, 10, 10, Change{2, 2}},
	} {
		if got := tc.ch.fit(tc.a, tc.b); got != tc.want {
			t.Errorf("%+v.fit(%d, %d) = %+v, want %+v", tc.ch, tc.a, tc.b, got, tc.want)
		}
	}
}

func diagShape(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %d-%d %s %v|", d.Code, d.Range.Start, d.Range.End, d.Message, d.Fixes)
	}
	return b.String()
}

func TestCheckIncrementalMatchesCheck(t *testing.T) {
	base := `{"leanreview_review": 1, "title": "a \u003c b", "patch": ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-if a \u003c b \u0026\u0026 c", "+if a \u003e b"], "comments": [{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "\u0026 so"}]}`
	edits := []struct{ from, to string }{
		{`"title": "a \u003c b"`, `"title": "a \u003c\u003c b 😀"`}, // before the patch: it moves
		{`"body": "\u0026 so"`, `"body": "\u0026 so \u003e"`},      // after it
		{`-if a`, `-if b`}, // inside it: no reuse
	}
	// The spelling of the patch's array form (multi-line elements, a
	// trailing empty one), laid out one element per line.
	multi := "{\n  \"leanreview_review\": 1,\n  \"title\": \"t\",\n  \"patch\": [\n    \"diff --git a/x b/x\\n--- a/x\",\n    \"+++ b/x\\n\",\n" +
		"    \"@@ -1 +1 @@\",\n    \"-a\",\n    \"+b\",\n    \"\"\n  ],\n  \"comments\": [{\"id\": \"c1\", \"body\": \"so\"}]\n}\n"
	for _, e := range []struct{ from, to string }{{`"title": "t"`, `"title": "tt"`}, {`"body": "so"`, `"body": "so!"`}} {
		edits = append(edits, struct{ from, to string }{e.from, e.to})
	}
	for i, e := range edits {
		src := base
		if i >= 3 {
			src = multi
		}
		prevDoc := Parse([]byte(src))
		prevRes := Check(prevDoc)
		next := []byte(strings.Replace(src, e.from, e.to, 1))
		if string(next) == src {
			t.Fatalf("edit %q does not apply", e.to)
		}
		doc := parseIncremental(next, prevDoc)
		got := CheckIncremental(doc, &prevRes)
		want := Check(Parse(next))
		if diagShape(got.Diagnostics) != diagShape(want.Diagnostics) {
			t.Errorf("edit %q: incremental check differs:\ngot  %s\nwant %s", e.to, diagShape(got.Diagnostics), diagShape(want.Diagnostics))
		}
	}
}

// TestParseIncrementalSharesTheUnmovedPatch: an edit after the patch takes
// its nodes and lines as they are (no copy, nothing allocated for them),
// and leaves the earlier version's tree as it was, for the
// requests that still read it.
func TestParseIncrementalSharesTheUnmovedPatch(t *testing.T) {
	base, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	prev := Parse(base)
	before := shape(prev.Root)
	next := []byte(strings.Replace(string(base), "return it instead", "return it now", 1))
	got := parseIncremental(next, prev)
	gn, pn := got.Review.Patch.Node, prev.Review.Patch.Node
	if gn.table() == nil || pn.table() == nil || &gn.table().table[0] != &pn.table().table[0] || !sharesLines(&got.Review.Patch, &prev.Review.Patch) || got.Review.Patch.Origin() != prev.Review.Patch.Origin() {
		t.Fatalf("an edit after the patch copied it: got lazy %v lines shared %v, want the table and lines shared", gn.table() != nil, sharesLines(&got.Review.Patch, &prev.Review.Patch))
	}
	if &gn.table().src.b[0] != &next[gn.table().src.at] {
		t.Error("the carried over patch decodes from another version's text, want its own")
	}
	if delta, ok := got.PatchCarried(); !ok || delta != 0 {
		t.Errorf("PatchCarried: got %d %v, want the earlier patch unmoved", delta, ok)
	}
	if shape(prev.Root) != before {
		t.Error("parsing the new version changed the earlier version's tree")
	}
	checkTree(t, base, prev.Root, prev.Syntax)
	if p := got.Review.Patch.LineNode(3).Pointer(got.Root); p != "/patch/3" {
		t.Errorf("pointer of a shared patch line: got %q, want /patch/3", p)
	}

	// Moved by an edit before it, the patch is a copy at the new offsets.
	moved := parseIncremental([]byte(strings.Replace(string(base), `"auth refactor"`, `"auth refactor!"`, 1)), prev)
	if moved.Review.Patch.Node == prev.Review.Patch.Node || moved.Review.Patch.Node.Start != prev.Review.Patch.Node.Start+1 {
		t.Errorf("an edit before the patch: got node %p at %d, want a copy at %d", moved.Review.Patch.Node, moved.Review.Patch.Node.Start, prev.Review.Patch.Node.Start+1)
	}
}
