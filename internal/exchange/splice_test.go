package exchange

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestParseEditedSplicesMatchParse applies chains of random edits to
// every golden review, and to its CRLF spelling, as the server does: to
// a text of pieces (Text.Replace), told the change. Whatever the edit,
// the document must be what a full parse of the same bytes gives, its
// mapper too; an edit inside a comment must have been spliced, its text
// left in pieces, and the earlier version's tree left as it was.
func TestParseEditedSplicesMatchParse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	steps := 10
	if testing.Short() {
		steps = 5
	}
	golden := goldenReviews(t)
	spliced, versions := 0, 0
	for _, name := range slices.Sorted(maps.Keys(golden)) { // the same edits every run
		for _, crlf := range []bool{false, true} {
			src := golden[name]
			if crlf {
				src = bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
			}
			prev := ParseText(NewText(src))
			for step := range steps {
				prev.Mapper() // built, so that the next version's is an edit of it
				text := prev.Text.Bytes()
				start, end, ins := randomReviewEdit(r, text)
				next := prev.Text.Replace(start, end, []byte(ins))
				ch := Change{Prefix: start, Suffix: len(text) - end}
				label := fmt.Sprintf("%s (crlf %v) step %d: %d-%d %q", name, crlf, step, start, end, ins)
				before := shape(prev.Root)
				_, _, splice := spliceValue(next, prev, ch.fit(len(text), next.Len()))
				got := ParseEdited(next, prev, ch)
				requireSameParse(t, got, label)
				requireSameMapper(t, got, label)
				if shape(prev.Root) != before {
					t.Fatalf("%s: the earlier version's tree changed", label)
				}
				if splice {
					spliced++
					if len(got.Text.pieces) != len(next.pieces) {
						t.Fatalf("%s: spliced, but the text was made one run", label)
					}
				}
				prev = got
				versions++
			}
		}
	}
	// Most random edits break the syntax or fall outside a comment, and
	// a document with a syntax error is never spliced until it is fixed.
	if spliced < versions/20 {
		t.Errorf("%d of %d versions were spliced; want the splice exercised", spliced, versions)
	}
}

// requireSameMapper fails unless got's mapper, an edit of the earlier
// version's, places offsets as a mapper of its bytes in one run does.
func requireSameMapper(t *testing.T, got *Document, what string) {
	t.Helper()
	flat := got.Text.Bytes()
	m, want := got.Mapper(), NewMapper(flat)
	if m.Lines() != want.Lines() {
		t.Fatalf("%s: mapper: %d lines, want %d", what, m.Lines(), want.Lines())
	}
	for off := 0; off <= len(flat); off += 1 + len(flat)/97 {
		if g, w := m.Position(off, UTF16), want.Position(off, UTF16); g != w {
			t.Fatalf("%s: mapper: Position(%d) = %v, want %v", what, off, g, w)
		}
	}
}

// TestSpliceReadsOnlyTheComment: typing in a comment's body of a large
// review reads that comment alone, and the document keeps the text in
// the pieces the edit made.
func TestSpliceReadsOnlyTheComment(t *testing.T) {
	src := bigReview(300, 15)
	prev := ParseText(NewText(src))
	at := bytes.Index(src, []byte(`"body": "`)) + len(`"body": "`)
	next := prev.Text.Replace(at, at, []byte("é"))
	d, r, ok := spliceValue(next, prev, Change{Prefix: at, Suffix: len(src) - at})
	if !ok {
		t.Fatal("an edit in a body was not spliced")
	}
	if c := prev.Review.Comments[0].Node; r.read > 2*countNodes(c) {
		t.Errorf("the splice read %d nodes, want the comment's %d", r.read, countNodes(c))
	}
	if len(d.Text.pieces) < 2 {
		t.Error("the spliced document's text is one run: it was copied")
	}
	if got, want := d.Review.Comments[0].Body, "é"+prev.Review.Comments[0].Body; got != want {
		t.Errorf("body: got %q, want %q", got, want)
	}
}

// TestReadEditedHoldsTheTextAsGiven: an edit the splice does not take (a
// quote typed in a body, which breaks the syntax) is read as one run,
// and the document still holds the text in the edit's pieces, shared with
// the next version; an edit inside the patch leaves it spanning pieces,
// and the document holds the run it read.
func TestReadEditedHoldsTheTextAsGiven(t *testing.T) {
	src := bigReview(300, 15)
	prev := ParseText(NewText(src))
	at := bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	for _, tc := range []struct {
		name   string
		at     int
		pieced bool
	}{
		{"a quote in a body", at, true},
		{"a quote in the patch", prev.Review.Patch.LineStart(5), false},
	} {
		next := prev.Text.Replace(tc.at, tc.at, []byte(`"`))
		ch := Change{Prefix: tc.at, Suffix: len(src) - tc.at}
		if _, _, ok := spliceValue(next, prev, ch); ok {
			t.Fatalf("%s: spliced", tc.name)
		}
		d := ParseEdited(next, prev, ch)
		requireSameParse(t, d, tc.name)
		if got := len(d.Text.pieces) > 1; got != tc.pieced {
			t.Errorf("%s: the document holds %d pieces, want pieced %v", tc.name, len(d.Text.pieces), tc.pieced)
		}
		if n := d.Review.Patch.Node; n.table() != nil && !d.Text.inOnePiece(n.Start, n.End) {
			t.Errorf("%s: the patch spans pieces of the text held", tc.name)
		}
	}
}

// TestSplicedCommentsShareTheirDecoding: a comment the edit left in place
// is the earlier version's decoded Comment too; the one edited is new.
func TestSplicedCommentsShareTheirDecoding(t *testing.T) {
	src := bigReview(300, 15)
	prev := ParseText(NewText(src))
	ps := prev.Review.Comments
	at := ps[len(ps)-1].Member("body").Start + 1
	d := ParseEdited(prev.Text.Replace(at, at, []byte("x")), prev, Change{Prefix: at, Suffix: len(src) - at})
	cs := d.Review.Comments
	if cs[0] != ps[0] || cs[len(cs)-2] != ps[len(ps)-2] {
		t.Error("a comment before the edit was decoded again")
	}
	if last := len(cs) - 1; cs[last] == ps[last] || cs[last].Body != "x"+ps[last].Body {
		t.Errorf("the edited comment: shared %v, body %q", cs[last] == ps[last], cs[last].Body)
	}
}

// TestSpliceTitle: typing in the title, before the patch and the
// comments, is spliced too: the title read again, the patch and the
// comments moved, the text left in pieces.
func TestSpliceTitle(t *testing.T) {
	src := bigReview(300, 15)
	prev := ParseText(NewText(src))
	prev.Mapper()
	summary := prev.Root.Member("title")
	if summary == nil || summary.Kind != KindString {
		t.Fatal("the review has no title string: nothing to check")
	}
	at := summary.Start + 1
	next := prev.Text.Replace(at, at, []byte("é"))
	ch := Change{Prefix: at, Suffix: len(src) - at}
	if _, _, ok := spliceValue(next, prev, ch); !ok {
		t.Fatal("an edit in the title was not spliced")
	}
	d := ParseEdited(next, prev, ch)
	requireSameParse(t, d, "title")
	requireSameMapper(t, d, "title")
	if d.Review.Title != "é"+prev.Review.Title || len(d.Text.pieces) < 2 {
		t.Errorf("title %q, %d pieces: want the typed title, the text in pieces", d.Review.Title, len(d.Text.pieces))
	}
	if delta, ok := d.PatchCarried(); !ok || delta != len("é") {
		t.Errorf("PatchCarried: got %d %v, want the patch moved by the edit", delta, ok)
	}
}
