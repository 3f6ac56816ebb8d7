package exchange

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// goldenReviews returns the reviews of the repository's examples, editor
// fixtures and testdata, by name, and a few generated ones.
func goldenReviews(t *testing.T) map[string][]byte {
	t.Helper()
	out := testreviews.Golden(t, "testdata/fmt/*.txtar")
	out["generated/small"] = reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 200, Comments: 12, Seed: 7})
	out["generated/bigReview"] = bigReview(300, 15)
	var compact bytes.Buffer
	if err := json.Compact(&compact, out["generated/small"]); err != nil {
		t.Fatal(err)
	}
	out["generated/small-compact"] = compact.Bytes()
	return out
}

// randomCommentEdit returns src after one random edit in a comment, and
// says which: a character typed or deleted in a body or an id, a date
// broken, an id duplicated, a comment deleted, any byte of a comment.
func randomCommentEdit(r *rand.Rand, src []byte) ([]byte, string) {
	doc := Parse(src)
	cs := doc.Review.Comments
	if len(cs) == 0 {
		return nil, ""
	}
	c := cs[r.IntN(len(cs))]
	splice := func(start, end int, text string) []byte {
		return append(append(append([]byte(nil), src[:start]...), text...), src[end:]...)
	}
	inside := func(n *Node) int { // an offset inside the string's quotes
		if n.End-n.Start < 2 {
			return n.Start
		}
		return n.Start + 1 + r.IntN(n.End-n.Start-1)
	}
	chars := []string{"x", "é", "😀", `"`, `\`, "<", "\\u003c", "\\ud800", " ", ","}
	pick := func(name string) *Node {
		if n := c.Member(name); n != nil && n.Kind == KindString && n.End-n.Start >= 2 {
			return n
		}
		return nil
	}
	switch r.IntN(9) {
	case 0, 1:
		if n := pick("body"); n != nil {
			ch := chars[r.IntN(len(chars))]
			at := inside(n)
			return splice(at, at, ch), "insert " + ch + " in a body"
		}
	case 2:
		if n := pick("body"); n != nil && n.End-n.Start > 2 {
			at := n.Start + 1 + r.IntN(n.End-n.Start-2)
			return splice(at, at+1, ""), "delete a byte of a body"
		}
	case 3:
		if n := pick("id"); n != nil {
			if r.IntN(2) == 0 && n.End-n.Start > 2 {
				return splice(n.End-2, n.End-1, ""), "delete a char of an id"
			}
			at := inside(n)
			return splice(at, at, string(rune('0'+r.IntN(10)))), "insert a char in an id"
		}
	case 4:
		if n := pick("at"); n != nil {
			return splice(n.Start+1, n.Start+5, "20x4"), "break a date"
		}
		if len(c.Replies) > 0 {
			if n := c.Replies[0].Node.Member("at"); n != nil && n.Kind == KindString && n.End-n.Start > 6 {
				return splice(n.Start+1, n.Start+5, "yest"), "break a reply's date"
			}
		}
	case 5:
		o := cs[r.IntN(len(cs))]
		if n, m := pick("id"), o.Member("id"); n != nil && m != nil {
			return splice(n.Start, n.End, string(src[m.Start:m.End])), "duplicate an id"
		}
	case 6:
		arr := doc.Root.Member("comments")
		start, end := c.Node.Start, c.Node.End
		i := int(c.Node.Index)
		switch {
		case i+1 < len(arr.Elems()):
			end = arr.Elems()[i+1].Start
		case i > 0:
			start = arr.Elems()[i-1].End
		}
		return splice(start, end, ""), "delete a comment"
	case 8:
		copied := string(src[c.Node.Start:c.Node.End]) + ", "
		return splice(c.Node.Start, c.Node.Start, copied), "copy a comment"
	case 7:
		// Any byte of the comment, anything: start_line, side, a key.
		at := c.Node.Start + r.IntN(c.Node.End-c.Node.Start)
		if r.IntN(2) == 0 {
			return splice(at, at+1, ""), fmt.Sprintf("delete byte %q", src[at])
		}
		ch := []string{"9", "-", "e", "a", "}", "[", "\"x\":1,"}[r.IntN(7)]
		return splice(at, at, ch), "insert " + ch + " in a comment"
	}
	return nil, ""
}

// TestCheckIncrementalCommentsMatchCheck applies chains of random edits to
// every golden review and requires CheckIncremental, from the previous
// version's result, to give exactly what Check gives.
func TestCheckIncrementalCommentsMatchCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 4))
	rounds := 3
	if testing.Short() {
		rounds = 1
	}
	reused := 0
	golden := goldenReviews(t)
	for _, name := range slices.Sorted(maps.Keys(golden)) { // the same edits every run
		src := golden[name]
		for range rounds {
			prevDoc := Parse(src)
			prev := Check(prevDoc)
			text := src
			var steps []string
			for range 6 {
				next, what := randomCommentEdit(r, text)
				if next == nil {
					continue
				}
				steps = append(steps, what)
				for _, incremental := range []bool{true, false} {
					var doc *Document
					if incremental {
						doc = parseIncremental(next, prevDoc)
					} else {
						doc = Parse(next)
					}
					got := CheckIncremental(doc, &prev)
					want := Check(doc)
					if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || !reflect.DeepEqual(got.AnchorInvalid, want.AnchorInvalid) {
						t.Fatalf("%s after %s:\n%s\ngot  %s\nwant %s", name, strings.Join(steps, ", "), next, dump(got), dump(want))
					}
					for _, rec := range got.comments {
						if rec.reused {
							reused++
						}
					}
					if incremental {
						prevDoc, prev, text = doc, got, next
					}
				}
			}
		}
	}
	if reused == 0 {
		t.Error("no comment was ever carried over: the test checks nothing of the reuse")
	}
}

func dump(r Result) string {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		fmt.Fprintf(&b, "\n  %v %s %q rel=%v fixes=%v", d.Range, d.Code, d.Message, d.Related, d.Fixes)
	}
	fmt.Fprintf(&b, "\n  anchor-invalid: %d", len(r.AnchorInvalid))
	return b.String()
}

// TestCheckIncrementalReusesUnchangedComments checks that a keystroke in
// one comment's body of a review with invalid comments carries the
// others' findings over, moved, and validates none of them again.
func TestCheckIncrementalReusesUnchangedComments(t *testing.T) {
	src := []byte(`{"leanreview_review": 1, "patch": [], "comments": [
  {"id": "c1", "path": "a", "side": "MIDDLE", "start_line": 0, "body": "one", "x": 1},
  {"id": "c2", "path": "a", "side": "RIGHT", "start_line": 1, "body": "two \u003c"},
  {"id": "c1", "path": "a", "side": "RIGHT", "start_line": 1e400, "body": "three", "at": "yesterday"}
]}`)
	prevDoc := Parse(src)
	prev := Check(prevDoc)
	at := bytes.Index(src, []byte(`"two`)) + 1
	next := append(append(append([]byte(nil), src[:at]...), "typed "...), src[at:]...)
	doc := parseIncremental(next, prevDoc)
	got := CheckIncremental(doc, &prev)
	if want := Check(doc); !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || !reflect.DeepEqual(got.AnchorInvalid, want.AnchorInvalid) {
		t.Fatalf("got %s\nwant %s", dump(got), dump(want))
	}
	var reused []int
	for _, rec := range got.comments {
		if rec.reused {
			reused = append(reused, rec.index)
		}
	}
	if !reflect.DeepEqual(reused, []int{0, 2}) {
		t.Errorf("carried over comments %v, want [0 2]", reused)
	}
	if len(got.AnchorInvalid) != 2 {
		t.Errorf("%d comments with an invalid anchor, want 2", len(got.AnchorInvalid))
	}
}

// TestCheckIncrementalIndexMatters: a comment spelt as before but at
// another index is checked again. Without an id, its messages name it by
// index; the non-object element is not among Review.Comments.
func TestCheckIncrementalIndexMatters(t *testing.T) {
	one := `{"path": "a", "side": "RIGHT", "start_line": 1, "body": "b", "x": 1}`
	src := []byte(`{"leanreview_review": 1, "patch": [], "comments": [` + one + `, 5, ` + one + `]}`)
	prevDoc := Parse(src)
	prev := Check(prevDoc)
	next := bytes.Replace(src, []byte("5, "), nil, 1)
	doc := parseIncremental(next, prevDoc)
	got := CheckIncremental(doc, &prev)
	if want := Check(doc); !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		t.Fatalf("got %s\nwant %s", dump(got), dump(want))
	}
}

// TestCheckIncrementalKeepsNoEarlierVersion: the findings carried over
// keep nothing of the earlier version's text alive.
func TestCheckIncrementalKeepsNoEarlierVersion(t *testing.T) {
	base := []byte(`{"leanreview_review": 1, "patch": [], "comments": [
  {"id": "c1", "path": "a", "side": "MIDDLE", "start_line": 1e400, "body": "one \u003c", "x": 1},
  {"path": "a", "side": "RIGHT", "start_line": 1, "body": "two", "at": "yesterday", "y": 2}
]}`)
	v1 := append([]byte(nil), base...)
	prevDoc := Parse(v1)
	prev := Check(prevDoc)
	at := bytes.Index(base, []byte(`"one`)) + 1 // the second comment moves
	v2 := append(append(append([]byte(nil), base[:at]...), 'x'), base[at:]...)
	next := CheckIncremental(Parse(v2), &prev)
	moved := 0
	for _, rec := range next.comments {
		if rec.reused {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("nothing carried over: nothing to check")
	}
	wsrc := weak.Make(&v1[0])
	prevDoc, prev, v1 = nil, Result{}, nil
	runtime.GC()
	runtime.GC()
	if wsrc.Value() != nil {
		t.Error("the earlier version's text is still alive")
	}
	runtime.KeepAlive(next)
}

// TestDiagnosticMovedCopiesWhatItMoves: every range moves, the original
// is untouched (versions share it), and nil stays nil.
func TestDiagnosticMovedCopiesWhatItMoves(t *testing.T) {
	d := Diagnostic{Range: Range{10, 12}, Code: "c",
		Related: []Related{{Range: Range{20, 21}, Message: "r"}},
		Fixes:   []Fix{{Title: "f", Edits: []Edit{{Start: 30, End: 31, NewText: "x"}}}}}
	got := MovedBy([]Diagnostic{d}, 5)[0]
	want := Diagnostic{Range: Range{15, 17}, Code: "c",
		Related: []Related{{Range: Range{25, 26}, Message: "r"}},
		Fixes:   []Fix{{Title: "f", Edits: []Edit{{Start: 35, End: 36, NewText: "x"}}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("moved by 5: got %+v, want %+v", got, want)
	}
	if d.Related[0].Range != (Range{20, 21}) || d.Fixes[0].Edits[0].Start != 30 {
		t.Errorf("the original changed: %+v", d)
	}
	if bare := (Diagnostic{Range: Range{1, 2}}).Moved(func(r Range) Range { return r }); bare.Related != nil || bare.Fixes != nil {
		t.Errorf("nil slices came back as %#v and %#v", bare.Related, bare.Fixes)
	}
}
