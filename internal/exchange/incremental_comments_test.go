package exchange

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// reviewShape renders what decodeReview gives, pointers as JSON pointers.
func reviewShape(r Review) string {
	var b strings.Builder
	fmt.Fprintf(&b, "v%d %q %q|", r.Version, r.Title, r.Summary)
	for _, c := range r.Comments {
		fmt.Fprintf(&b, "%s %d-%d i%d %q %q %q %q %q %q %q %q %d %d|", c.Node.Pointer(r.Node), c.Node.Start, c.Node.End, c.Index,
			c.ID, c.Author, c.Path, c.Side, c.Body, c.State, c.Snippet, c.At, c.StartLine, c.EndLine)
		for _, rep := range c.Replies {
			fmt.Fprintf(&b, "  %s %q %q %q|", rep.Node.Pointer(r.Node), rep.Author, rep.Body, rep.At)
		}
	}
	return b.String()
}

// pointers lists every node's JSON pointer, in source order.
func pointers(root *Node) []string {
	var out []string
	walk(root, func(n *Node) { out = append(out, n.Pointer(root)) })
	return out
}

// requireSameParse fails unless got, parsed incrementally, is what Parse
// gives for its text: tree, parents and pointers, errors, patch, review.
func requireSameParse(t *testing.T, got *Document, what string) {
	t.Helper()
	want := Parse(got.Text.Bytes())
	checkTree(t, got.Text.Bytes(), got.Root, got.Syntax)
	switch {
	case shape(got.Root) != shape(want.Root):
		t.Fatalf("%s: trees differ:\ngot  %s\nwant %s", what, shape(got.Root), shape(want.Root))
	case !reflect.DeepEqual(got.Syntax, want.Syntax):
		t.Fatalf("%s: syntax errors: got %v, want %v", what, got.Syntax, want.Syntax)
	case patchShape(got.Review.Patch) != patchShape(want.Review.Patch):
		t.Fatalf("%s: patch lines differ", what)
	case !slices.Equal(pointers(got.Root), pointers(want.Root)):
		t.Fatalf("%s: pointers: got %v, want %v", what, pointers(got.Root), pointers(want.Root))
	case reviewShape(got.Review) != reviewShape(want.Review):
		t.Fatalf("%s: reviews differ:\ngot  %s\nwant %s", what, reviewShape(got.Review), reviewShape(want.Review))
	}
}

// randomReviewEdit returns an edit of src as an editor reports it: the
// range replaced and the text put there. It types, deletes and pastes in
// comment bodies and ids, between comments and before the patch, adds and
// removes comments, and breaks the syntax; escapes, emoji and line
// breaks in the spelling of the file included.
func randomReviewEdit(r *rand.Rand, src []byte) (start, end int, text string) {
	doc := Parse(src)
	any := func() (int, int, string) {
		at := r.IntN(len(src) + 1)
		return at, min(len(src), at+r.IntN(3)), []string{"", "x", `"`, "}", ",", "\n", "😀"}[r.IntN(7)]
	}
	typed := []string{"x", "é", "😀", `\n`, `\"`, `\u00e9`, `\ud83d\ude00`, " ", "\r\n"}
	cs := doc.Review.Comments
	if len(cs) == 0 || r.IntN(10) == 0 {
		return any()
	}
	c := cs[r.IntN(len(cs))]
	inString := func(name string) (int, bool) {
		n := c.Member(name)
		if n == nil || n.Kind != KindString || n.End-n.Start < 2 {
			return 0, false
		}
		return n.Start + 1 + r.IntN(n.End-n.Start-1), true
	}
	switch r.IntN(10) {
	case 0, 1, 2:
		if at, ok := inString([]string{"body", "body", "id", "path"}[r.IntN(4)]); ok {
			return at, at, typed[r.IntN(len(typed))]
		}
	case 3:
		if at, ok := inString("body"); ok && at < c.Member("body").End-1 {
			return at, at + 1, "" // a byte, possibly half a character
		}
	case 4: // paste part of another comment into a body
		o := cs[r.IntN(len(cs))].Node
		from := o.Start + r.IntN(o.End-o.Start)
		if at, ok := inString("body"); ok {
			return at, at, string(src[from:min(o.End, from+1+r.IntN(40))])
		}
	case 5: // between comments: spaces, a line, a stray comma
		return c.Node.End, c.Node.End, []string{" ", "\n  ", "\r\n", ",", ", {}"}[r.IntN(5)]
	case 6: // add a comment, a copy of this one
		return c.Node.Start, c.Node.Start, string(src[c.Node.Start:c.Node.End]) + ",\n  "
	case 7: // remove it with its comma
		arr, i := doc.Root.Member("comments").Elems(), int(c.Node.Index)
		if i+1 < len(arr) {
			return c.Node.Start, arr[i+1].Start, ""
		}
		if i > 0 {
			return arr[i-1].End, c.Node.End, ""
		}
	case 8: // break it: its closing brace or a quote
		if r.IntN(2) == 0 {
			return c.Node.End - 1, c.Node.End, ""
		}
		if at, ok := inString("body"); ok {
			return at, at, `"`
		}
	case 9: // before the patch
		if n := doc.Root.Member("title"); n != nil && n.Kind == KindString && n.End-n.Start >= 2 {
			return n.End - 1, n.End - 1, typed[r.IntN(len(typed))]
		}
	}
	return any()
}

// TestParseEditedCommentsMatchParse applies chains of random edits to
// every golden review, and to its CRLF spelling, told the change as the
// server is (one to three edits at a time, and now and then a return to
// an earlier version, which fixes what was broken), and requires what a
// full parse gives. The comments left whole are copied from the earlier
// version: that must have happened, and left that version as it was.
func TestParseEditedCommentsMatchParse(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 8))
	steps := 8
	if testing.Short() {
		steps = 4
	}
	golden := goldenReviews(t)
	copied, versions := 0, 0
	for _, name := range slices.Sorted(maps.Keys(golden)) { // the same edits every run
		for _, crlf := range []bool{false, true} {
			src := golden[name]
			if crlf {
				src = bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
			}
			prev := Parse(src)
			var history [][]byte
			took := 0
			for step := range steps {
				text := prev.Text.Bytes()
				next, ch := text, Change{Prefix: len(text), Suffix: len(text)}
				what := ""
				if len(history) > 2 && r.IntN(8) == 0 {
					next = history[r.IntN(len(history))]
					ch, what = ChangeBetween(NewText(text), NewText(next)), "back to an earlier version"
				} else {
					for range 1 + r.IntN(3) {
						start, end, ins := randomReviewEdit(r, next)
						ch = ch.Then(Change{Prefix: start, Suffix: len(next) - end})
						next = append(append(append([]byte(nil), next[:start]...), ins...), next[end:]...)
						what += fmt.Sprintf(" %d-%d %q", start, end, ins)
					}
				}
				before := shape(prev.Root)
				got, rd := readEdited(NewText(next), prev, ch.fit(len(text), len(next)))
				label := fmt.Sprintf("%s (crlf %v) step %d:%s", name, crlf, step, what)
				requireSameParse(t, got, label)
				if shape(prev.Root) != before {
					t.Fatalf("%s: the earlier version's tree changed", label)
				}
				if rd.took > 0 {
					took++
				}
				history = append(history, text)
				prev = got
			}
			copied += took
			versions += steps
		}
	}
	if copied < versions/8 {
		t.Errorf("%d of %d versions took comments from the one before; want the copies exercised", copied, versions)
	}
}

// TestParseEditedReadsOnlyTheEditedComment counts the nodes the reader
// makes: an edit in a comment reads that comment and the root's small
// members again, and copies the other comments, also when the edit moves
// them (in the first comment, in the title) or when the patch must be
// read again (an edit inside it).
func TestParseEditedReadsOnlyTheEditedComment(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 200, Comments: 12, Seed: 7})
	prev := Parse(src)
	cs := prev.Review.Comments
	body := func(c *Comment) int { return c.Member("body").Start + 1 }
	title := prev.Root.Member("title")
	patch := prev.Review.Patch.Node
	for _, tc := range []struct {
		name   string
		at     int
		edited int // the comment read again, -1 for none
	}{
		{"last comment", body(cs[len(cs)-1]), len(cs) - 1},
		{"first comment", body(cs[0]), 0},
		{"a comment between", body(cs[5]), 5},
		{"title", title.Start + 1, -1},
		{"patch", patch.Elems()[3].Start + 1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := append(append(append([]byte(nil), src[:tc.at]...), 'x'), src[tc.at:]...)
			got, r := readEdited(NewText(next), prev, Change{Prefix: tc.at, Suffix: len(src) - tc.at})
			requireSameParse(t, got, tc.name)
			want := countNodes(got.Root) // all of them, less what was not read:
			if got.Review.Patch.Node != nil && tc.name != "patch" {
				want -= countNodes(got.Review.Patch.Node)
			} else if got.Review.Patch.Node != nil {
				want -= len(got.Review.Patch.Node.Elems()) // read into its table, not as nodes
			}
			for i, c := range got.Review.Comments {
				if i != tc.edited {
					want -= countNodes(c.Node)
				}
			}
			if r.read != want {
				t.Errorf("read %d nodes, want %d", r.read, want)
			}
		})
	}
}

// TestParseEditedPastTheErrorLimit: once the reader stops listing syntax
// errors, an earlier version's subtree may hold errors it did not list,
// which a later version, with fewer errors before, lists: such subtrees
// are read again, comments as the patch.
func TestParseEditedPastTheErrorLimit(t *testing.T) {
	junk := strings.Repeat(",", maxSyntaxErrors+10)
	for _, tc := range []struct{ name, src string }{
		{"comment", `{"title": [` + junk + `], "patch": [], "comments": [{"id": "c1" "body": "b"}]}`},
		{"patch", `{"title": [` + junk + `], "patch": ["a" "b"], "comments": []}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			prev := Parse(src)
			if len(prev.Syntax) != maxSyntaxErrors {
				t.Fatalf("got %d errors, want the limit, %d", len(prev.Syntax), maxSyntaxErrors)
			}
			at := bytes.IndexByte(src, ',')
			next := append(append([]byte(nil), src[:at]...), src[at+len(junk):]...) // the junk fixed
			requireSameParse(t, ParseEdited(NewText(next), prev, Change{Prefix: at, Suffix: len(src) - at - len(junk)}), "junk removed")
		})
	}
}
