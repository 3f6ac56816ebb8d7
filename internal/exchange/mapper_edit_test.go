package exchange

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// editPieces are what the random edits type: every line terminator,
// characters of each UTF-8 length, an invalid byte, and runs long enough
// to give their line marks.
var editPieces = []string{
	"a", "xyz", " ", "\"", "\n", "\r", "\r\n", "\n\r", "é", "中", "😀", "é😀", "\xff",
	strings.Repeat("x", markStep+3), strings.Repeat("é😀中", markStep/8),
}

// randomEdit replaces a few bytes of text with a few random pieces at a
// random place, often at either end or between the two bytes of a \r\n.
// It returns the new text and the edit's own Change, which may say less
// than is true (a deleted byte may be typed again).
func randomEdit(r *rand.Rand, text []byte) ([]byte, Change) {
	at := r.IntN(len(text) + 1)
	switch r.IntN(8) {
	case 0:
		at = 0
	case 1:
		at = len(text)
	case 2:
		// Inside the first \r\n after a random place, or the first one.
		if i := bytes.Index(text[at:], []byte("\r\n")); i >= 0 {
			at += i + 1
		} else if i := bytes.Index(text, []byte("\r\n")); i >= 0 {
			at = i + 1
		}
	}
	end := min(len(text), at+[]int{0, 0, 1, 1, 2, 4, 9}[r.IntN(7)])
	if r.IntN(8) == 0 {
		at = max(0, at-r.IntN(3)) // deletes before the place too
	}
	var typed []byte
	for range r.IntN(3) {
		typed = append(typed, editPieces[r.IntN(len(editPieces))]...)
	}
	next := slices.Concat(text[:at], typed, text[end:])
	return next, Change{Prefix: at, Suffix: len(text) - end}
}

// randomText is generated text of n pieces, with short lines in between.
func randomText(r *rand.Rand, n int) []byte {
	var b []byte
	for range n {
		b = append(b, editPieces[r.IntN(len(editPieces))]...)
		if r.IntN(3) == 0 {
			b = append(b, "\"+line\",\n"...)
		}
	}
	return b
}

// TestMapperEditedChange edits golden reviews and generated texts
// thousands of times, each version's mapper updated from the one before
// with the Change of the edit (as an editor says it, or as ChangeBetween
// finds it, or less), and requires each to be the mapper NewMapper makes
// of the new text: the same tables, and the same answer to every
// question on the lines around the edit and at random places elsewhere.
func TestMapperEditedChange(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	texts := goldenReviews(t)
	for i := range 4 {
		texts[fmt.Sprint("random/", i)] = randomText(r, 20+40*i)
	}
	texts["random/empty"] = nil
	edits := 100
	if testing.Short() {
		edits = 30
	}
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		text := texts[name]
		m := NewMapper(text)
		for i := range edits {
			next, edit := randomEdit(r, text)
			ch := edit
			switch r.IntN(4) {
			case 0:
				ch = ChangeBetween(NewText(text), NewText(next)) // all that is true
			case 1:
				ch = ch.Then(Change{Prefix: r.IntN(ch.Prefix + 1), Suffix: r.IntN(ch.Suffix + 1)}) // less
			}
			got := m.Edited(NewText(next), ch)
			want := NewMapper(next)
			where := fmt.Sprintf("%s, edit %d (%+v) to %.80q", name, i, ch, next)
			sameTables(t, where, got, want)
			sameAnswers(t, where, got, want, r, edit.Prefix, len(next)-edit.Suffix)
			// The version before, which shares arrays with the new one, is unchanged.
			sameTables(t, where+" (the version before)", m, NewMapper(text))
			text, m = next, got
		}
	}
}

// TestMapperEditedLineEnds edits line terminators, told all that is
// unchanged: a \r\n split or joined, a \n typed or deleted after a \r or
// before the suffix, the first and the last byte.
func TestMapperEditedLineEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range [][2]string{
		{"a\rb\nc", "a\r\nb\nc"}, {"a\r\nb\nc", "a\rb\nc"}, {"a\r\nb\nc", "a\nb\nc"},
		{"a\r\nb", "a\rx\nb"}, {"a\rx\nb", "a\r\nb"}, {"a\r", "a\r\n"}, {"a\r\n", "a\r"},
		{"\nab\n", "\r\nab\n"}, {"\r\nab\n", "\nab\n"}, {"ab\n\ncd", "ab\r\n\ncd"},
		{"x\ny\r", "x\ny\r\n"}, {"x\ny", "x\ny\r"}, {"😀\r\n😀", "😀\r😀\n😀"}, {"", "\r\n"}, {"\r\n", ""},
	} {
		old, text := []byte(tc[0]), []byte(tc[1])
		ch := ChangeBetween(NewText(old), NewText(text))
		where := fmt.Sprintf("%q to %q (%+v)", old, text, ch)
		got, want := NewMapper(old).Edited(NewText(text), ch), NewMapper(text)
		sameTables(t, where, got, want)
		sameAnswers(t, where, got, want, r, ch.Prefix, len(text)-ch.Suffix)
	}
}

// sameTables fails unless got and want hold the same text, lines and marks.
func sameTables(t *testing.T, where string, got, want *Mapper) {
	t.Helper()
	if !bytes.Equal(got.content.Bytes(), want.content.Bytes()) || got.Lines() != want.Lines() {
		t.Fatalf("%s: got %d lines of %d bytes, want %d lines of %d bytes", where, got.Lines(), got.content.Len(), want.Lines(), want.content.Len())
	}
	if g, w := got.starts(), want.starts(); !slices.Equal(g, w) {
		t.Fatalf("%s: got line starts %v, want %v", where, g, w)
	}
	if err := checkpointsBound(got); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if !slices.Equal(got.marks, want.marks) {
		t.Fatalf("%s: got marks %v, want %v", where, got.marks, want.marks)
	}
}

// sameAnswers fails unless got and want map alike, in every encoding,
// the offsets around from and to and around the marks near them, random ones
// elsewhere, and the positions at, after and past the ends of the lines
// around.
func sameAnswers(t *testing.T, where string, got, want *Mapper, r *rand.Rand, from, to int) {
	t.Helper()
	n := want.content.Len()
	offsets := []int{-1, 0, n, n + 1}
	for _, at := range []int{from, to} {
		for o := max(0, at-6); o <= min(n, at+6); o++ {
			offsets = append(offsets, o)
		}
	}
	for _, mk := range want.marks {
		if o := int(mk.off); o > from-2*markStep && o < to+2*markStep {
			offsets = append(offsets, o-1, o, o+1)
		}
	}
	for range 8 {
		offsets = append(offsets, r.IntN(n+1))
	}
	for _, o := range offsets {
		if g, w := got.Line(o), want.Line(o); g != w {
			t.Fatalf("%s: Line(%d) = %d, want %d", where, o, g, w)
		}
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			p := want.Position(o, enc)
			if g := got.Position(o, enc); g != p {
				t.Fatalf("%s: Position(%d, %v) = %v, want %v", where, o, enc, g, p)
			}
			if err := sameOffset(got, want, p, enc); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		}
	}
	lines := []int{0, want.Lines() - 1, want.Lines(), want.Lines() + 1, r.IntN(want.Lines())}
	for l := max(0, want.Line(from)-1); l <= min(want.Line(to)+1, want.Lines()-1); l++ {
		lines = append(lines, l)
	}
	for _, l := range lines {
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			width := 0
			if l < want.Lines() {
				width = want.Position(want.lineEnd(l), enc).Character
			}
			for _, c := range []int{0, width, width + 1} {
				if err := sameOffset(got, want, Position{Line: l, Character: c}, enc); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
		}
	}
}

// sameOffset says how got and want map p differently, if they do.
func sameOffset(got, want *Mapper, p Position, enc Encoding) error {
	g, gerr := got.Offset(p, enc)
	w, werr := want.Offset(p, enc)
	if g != w || (gerr == nil) != (werr == nil) {
		return fmt.Errorf("Offset(%v, %v) = %d, %v, want %d, %v", p, enc, g, gerr, w, werr)
	}
	return nil
}

// TestMapperEditedReusesSuffix edits the first line of a text and says
// that the rest is unchanged although it is not: the edited mapper must
// repeat the old lines and marks of the rest, moved, which it could not
// have found by scanning the new text. NewMapper finds other ones.
func TestMapperEditedReusesSuffix(t *testing.T) {
	oldRest := "same line\n" + strings.Repeat("line\n", 100) + strings.Repeat("😀", markStep) + "\r\n" + strings.Repeat("a\r", 50)
	newRest := "same line\n" + strings.Repeat("li\nne", 100) + strings.Repeat("abcd", markStep) + "\n\r" + strings.Repeat("\n\nb", 50)[:100]
	if len(oldRest) != len(newRest) {
		t.Fatalf("the rests are %d and %d bytes, want equal lengths", len(oldRest), len(newRest))
	}
	old := NewMapper([]byte("head\n" + oldRest))
	text := []byte("head, edited\n" + newRest)
	got := old.Edited(NewText(text), Change{Prefix: 4, Suffix: len(oldRest)})

	// What the old mapper says of its rest, moved by the 8 bytes typed:
	// the start of its first line after a byte of the rest (line 2, as
	// the rest starts line 1), its checkpoints after it, and its marks.
	want := []checkpoint{{}, {line: 2, off: int32(old.start(2) + 8)}}
	for _, cp := range checkpoints(old)[1:] {
		want = append(want, checkpoint{line: cp.line, off: cp.off + 8})
	}
	var marks []mark
	for _, mk := range old.marks {
		marks = append(marks, mark{off: mk.off + 8, u16: mk.u16, u32: mk.u32})
	}
	if g := checkpoints(got); !slices.Equal(g, want) || !slices.Equal(got.marks, marks) || got.Lines() != old.Lines() {
		t.Fatalf("reused: got checkpoints %v marks %v of %d lines, want %v %v of %d", g, got.marks, got.Lines(), want, marks, old.Lines())
	}
	if fresh := NewMapper(text); slices.Equal(checkpoints(fresh), want) || slices.Equal(fresh.marks, marks) {
		t.Fatalf("NewMapper finds the same checkpoints and marks in the new rest: the test shows nothing")
	}
}

// TestParseEditedMapper edits a review through ParseEdited, in the patch,
// around it and in the comments, and requires each version's mapper, made
// from the one before, to be the one NewMapper makes of its text.
func TestParseEditedMapper(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	prev := Parse(reviewgen.Generate(reviewgen.Config{Files: 2, DiffLines: 60, Comments: 6, Seed: 3}))
	prev.Mapper()
	for i := range 300 {
		next, ch := randomEdit(r, prev.Text.Bytes())
		d := ParseEdited(NewText(next), prev, ch)
		sameTables(t, fmt.Sprintf("edit %d (%+v)", i, ch), d.Mapper(), NewMapper(next))
		prev = d
	}
}

// TestParseEditedMapperTakesSuffix types a byte in a review's patch and
// after it, and says that more is unchanged than is: the mapper of the
// parse takes the old line that starts what it was told is the same,
// moved, as a checkpoint, so the parse passed the suffix on.
func TestParseEditedMapperTakesSuffix(t *testing.T) {
	// The rests are as long, with their line feeds in other places.
	const oldRest, newRest = "\n \n \n}", "\n\n  \n}"
	for _, before := range []string{`{"patch": ["+a`, `{"patch": ["+a"], "n": `} {
		after := strings.Repeat(`"]`, strings.Count(before, `"`)%2) // closes the patch if open
		old := before + "1" + after + oldRest
		prev := Parse([]byte(old))
		prev.Mapper()
		text := []byte(before + "12" + after + newRest)
		d := ParseEdited(NewText(text), prev, Change{Prefix: len(before) + 1, Suffix: len(after + oldRest)})
		want := []checkpoint{{}, {line: 1, off: int32(NewMapper([]byte(old)).start(1) + 1)}}
		if got := checkpoints(d.Mapper()); !slices.Equal(got, want) || slices.Equal(got, checkpoints(NewMapper(text))) {
			t.Errorf("%q: got checkpoints %v, want %v (the old line 1, moved)", text, got, want)
		}
	}
}

// BenchmarkMapperEdited updates the mapper of the 8 MB generated review
// for one byte typed in its summary, near the top, and in its last
// comment, near the end: told the whole Change, and told only the prefix
// (the scan to the end that edited did before it took the suffix).
func BenchmarkMapperEdited(b *testing.B) {
	src := generatedOnce()
	const summary, body = `"summary": "`, `"body": "`
	places := map[string]int{
		"summary": bytes.Index(src, []byte(summary)) + len(summary),
		"last":    bytes.LastIndex(src, []byte(body)) + len(body),
	}
	m := NewMapper(src)
	for _, place := range []string{"summary", "last"} {
		at := places[place]
		next := slices.Concat(src[:at], []byte("x"), src[at:])
		for _, tc := range []struct {
			name string
			ch   Change
		}{
			{"change", Change{Prefix: at, Suffix: len(src) - at}},
			{"prefix-only", Change{Prefix: at}},
		} {
			b.Run(place+"/"+tc.name, func(b *testing.B) {
				for b.Loop() {
					m.Edited(NewText(next), tc.ch)
				}
			})
		}
	}
}
