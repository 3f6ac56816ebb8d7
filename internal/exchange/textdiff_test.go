package exchange

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkEditBoundaries asserts that edits are sorted, do not overlap, stay
// within before, and that no boundary, before or after the edit is applied,
// falls inside a UTF-8 sequence or a CRLF pair.
func checkEditBoundaries(t testing.TB, before, after []byte, edits []Edit) {
	t.Helper()
	last := -1
	for i, e := range edits {
		if e.Start < 0 || e.End > len(before) || e.Start > e.End {
			t.Errorf("edit %d [%d,%d) is outside the %d-byte text", i, e.Start, e.End, len(before))
			continue
		}
		if e.Start < last || e.Start == last && i > 0 {
			t.Errorf("edit %d [%d,%d) overlaps or touches the previous one ending at %d", i, e.Start, e.End, last)
		}
		last = e.End
		if e.Start == e.End && e.NewText == "" {
			t.Errorf("edit %d at %d does nothing", i, e.Start)
		}
		for _, off := range []int{e.Start, e.End} {
			if off > 0 && off < len(before) && !utf8.RuneStart(before[off]) {
				t.Errorf("edit %d [%d,%d): offset %d splits a UTF-8 sequence", i, e.Start, e.End, off)
			}
			if off > 0 && off < len(before) && before[off-1] == '\r' && before[off] == '\n' {
				t.Errorf("edit %d [%d,%d): offset %d splits a CRLF pair", i, e.Start, e.End, off)
			}
		}
		if utf8.Valid(after) && !utf8.ValidString(e.NewText) {
			t.Errorf("edit %d inserts a broken UTF-8 sequence: %q", i, e.NewText)
		}
		if e.NewText != "" {
			if e.Start > 0 && before[e.Start-1] == '\r' && e.NewText[0] == '\n' {
				t.Errorf("edit %d [%d,%d) %q completes a CRLF pair it does not hold", i, e.Start, e.End, e.NewText)
			}
			if e.End < len(before) && before[e.End] == '\n' && e.NewText[len(e.NewText)-1] == '\r' {
				t.Errorf("edit %d [%d,%d) %q starts a CRLF pair it does not hold", i, e.Start, e.End, e.NewText)
			}
		}
	}
}

func applyDiff(t testing.TB, before, after string) []Edit {
	t.Helper()
	edits := Diff([]byte(before), []byte(after))
	got, err := ApplyEdits([]byte(before), edits)
	if err != nil {
		t.Fatalf("ApplyEdits: %v (edits %+v)", err, edits)
	}
	if string(got) != after {
		t.Fatalf("ApplyEdits(before, Diff(before, after)) = %q, want %q (edits %+v)", got, after, edits)
	}
	checkEditBoundaries(t, []byte(before), []byte(after), edits)
	return edits
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          []Edit // nil: only check count and size
		maxEdits      int
	}{
		{name: "equal", before: "a\nb\n", after: "a\nb\n", want: []Edit{}},
		{name: "both empty", want: []Edit{}},
		{name: "from empty", before: "", after: "x\ny\n", want: []Edit{{0, 0, "x\ny\n"}}},
		{name: "to empty", before: "x\ny\n", after: "", want: []Edit{{0, 4, ""}}},
		{name: "one line changed", before: "one\ntwo\nthree\nfour\n", after: "one\ntwo\nTHREE\nfour\n", want: []Edit{{8, 13, "THREE"}}},
		{name: "inside a line", before: "  \"body\": \"old text\",\n", after: "  \"body\": \"new text\",\n", want: []Edit{{11, 14, "new"}}},
		{name: "insert a line", before: "a\nc\n", after: "a\nb\nc\n", want: []Edit{{2, 2, "b\n"}}},
		{name: "delete a line", before: "a\nb\nc\n", after: "a\nc\n", want: []Edit{{2, 4, ""}}},
		{name: "add final newline", before: "a\nb", after: "a\nb\n", want: []Edit{{3, 3, "\n"}}},
		{name: "drop final newline", before: "a\nb\n", after: "a\nb", want: []Edit{{3, 4, ""}}},
		{name: "two separate changes", before: "a\nb\nc\nd\ne\n", after: "A\nb\nc\nd\nE\n", want: []Edit{{0, 1, "A"}, {8, 9, "E"}}},
		{name: "reindent", before: "{\n\"a\": 1\n}\n", after: "{\n  \"a\": 1\n}\n", want: []Edit{{2, 2, "  "}}},
		{name: "one line to many", before: "{\"a\": 1, \"b\": 2}\n", after: "{\n  \"a\": 1,\n  \"b\": 2\n}\n", maxEdits: 1},

		// UTF-8: é (C3 A9) and è (C3 A8) share their first byte; the edit
		// must take the whole character.
		{name: "utf8 shared lead byte", before: "café\n", after: "cafè\n", want: []Edit{{3, 5, "è"}}},
		{name: "emoji sharing three bytes", before: "x😀y\n", after: "x😁y\n", want: []Edit{{1, 5, "😁"}}},
		{name: "utf8 shared tail byte", before: "aé\n", after: "aê\n", want: []Edit{{1, 3, "ê"}}},
		{name: "ascii to multibyte", before: "a-b\n", after: "a—b\n", want: []Edit{{1, 2, "—"}}},
		{name: "multibyte suffix shared", before: "xé\n", after: "yé\n", want: []Edit{{0, 1, "y"}}},

		// CRLF: an edit never lands between \r and \n.
		{name: "crlf to lf", before: "a\r\nb\r\n", after: "a\nb\n", maxEdits: 2},
		{name: "lf to crlf", before: "a\nb\n", after: "a\r\nb\r\n", maxEdits: 2},
		{name: "crlf line changed", before: "a\r\nb\r\nc\r\n", after: "a\r\nB\r\nc\r\n", want: []Edit{{3, 4, "B"}}},
		{name: "insert before lf of crlf", before: "ab\r\n", after: "ab\rX\n", want: []Edit{{2, 4, "\rX\n"}}},
		{name: "cr becomes crlf", before: "a\rb\n", after: "a\r\nb\n", want: []Edit{{1, 2, "\r\n"}}},
		{name: "crlf inserted line", before: "a\r\nc\r\n", after: "a\r\nb\r\nc\r\n", want: []Edit{{3, 3, "b\r\n"}}},
		{name: "lone cr", before: "x\ry\n", after: "x\rz\n", want: []Edit{{2, 3, "z"}}},
		{name: "no final newline crlf", before: "a\r", after: "a\r\n", want: []Edit{{1, 2, "\r\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := applyDiff(t, tt.before, tt.after)
			if tt.want != nil {
				if len(got) != len(tt.want) {
					t.Fatalf("got %+v, want %+v", got, tt.want)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Errorf("edit %d: got %+v, want %+v", i, got[i], tt.want[i])
					}
				}
			}
			if tt.maxEdits > 0 && len(got) > tt.maxEdits {
				t.Errorf("got %d edits, want at most %d: %+v", len(got), tt.maxEdits, got)
			}
		})
	}
}

// TestDiffOneLineChange checks the promise the formatter relies on: a
// change to one line of a long text is one edit within that line.
func TestDiffOneLineChange(t *testing.T) {
	var lines []string
	for i := range 2000 {
		lines = append(lines, fmt.Sprintf("    \"line %d: é 😀 \\\"quoted\\\"\",", i))
	}
	before := strings.Join(lines, "\n") + "\n"
	for _, at := range []int{0, 1, 999, 1998, 1999} {
		changed := append([]string(nil), lines...)
		changed[at] = strings.Replace(changed[at], "quoted", "QUOTED", 1)
		after := strings.Join(changed, "\n") + "\n"
		edits := applyDiff(t, before, after)
		if len(edits) != 1 {
			t.Fatalf("line %d: got %d edits, want 1: %+v", at, len(edits), edits)
		}
		if e := edits[0]; e.End-e.Start != len("quoted") || e.NewText != "QUOTED" {
			t.Errorf("line %d: got %+v, want the six changed bytes", at, e)
		}
	}
}

// TestDiffRandom diffs random texts built from a small pool of lines (so
// that they share many lines), with CRLF, multi-byte text and missing
// final newlines.
func TestDiffRandom(t *testing.T) {
	pool := []string{"a\n", "b\n", "c\r\n", "{\n", "}\n", "  \"é\": 1,\n", "😀\n", "😁\n", "\r\n", "\n", "x\r", "ab", "é", "\xff\n"}
	gen := func(r *rand.Rand, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pool[r.IntN(len(pool))])
		}
		return b.String()
	}
	mutate := func(r *rand.Rand, s string) string {
		b := []byte(s)
		for range r.IntN(6) {
			at := 0
			if len(b) > 0 {
				at = r.IntN(len(b) + 1)
			}
			switch r.IntN(3) {
			case 0: // insert some lines
				b = append(b[:at], append([]byte(gen(r, r.IntN(3)+1)), b[at:]...)...)
			case 1: // delete a stretch
				end := min(len(b), at+r.IntN(12))
				b = append(b[:at], b[end:]...)
			default: // replace a byte
				if at < len(b) {
					b[at] = "xé\r\n"[r.IntN(5)]
				}
			}
		}
		return string(b)
	}
	for seed := range 2000 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		before := gen(r, r.IntN(40))
		after := mutate(r, before)
		edits := applyDiff(t, before, after)
		if t.Failed() {
			t.Fatalf("seed %d: before %q after %q edits %+v", seed, before, after, edits)
		}
		// Never more edits than changed lines, and never more text than
		// both sides hold.
		size := 0
		for _, e := range edits {
			size += e.End - e.Start + len(e.NewText)
		}
		if size > len(before)+len(after) {
			t.Fatalf("seed %d: edits move %d bytes, more than the %d of both texts", seed, size, len(before)+len(after))
		}
	}
}

// TestDiffLarge diffs big inputs: scattered changes stay small edits; a
// total rewrite falls back to coarse edits, still correct (applyDiff
// checks each result). BenchmarkDiffLarge times them.
func TestDiffLarge(t *testing.T) {
	var lines []string
	for i := range 100_000 {
		lines = append(lines, fmt.Sprintf("    \"+\\tline %d of a long patch\",\n", i))
	}
	before := strings.Join(lines, "")

	t.Run("scattered", func(t *testing.T) {
		changed := append([]string(nil), lines...)
		for i := 5; i < len(changed); i += 10_000 {
			changed[i] = "    \"changed\",\n"
		}
		if edits := applyDiff(t, before, strings.Join(changed, "")); len(edits) != 10 {
			t.Errorf("got %d edits, want 10", len(edits))
		}
	})
	t.Run("everything", func(t *testing.T) {
		after := strings.ReplaceAll(before, "    ", "  ")
		after = strings.ReplaceAll(after, "line", "LINE")
		applyDiff(t, before, after)
	})
	t.Run("one line to many", func(t *testing.T) {
		one := strings.ReplaceAll(before, "\n", " ")
		if edits := applyDiff(t, one, before); len(edits) != 1 {
			t.Errorf("got %d edits, want 1", len(edits))
		}
	})
	t.Run("interleaved", func(t *testing.T) {
		// Every other line differs: D is about N, far past the budget in
		// the Myers search; the result must still be correct.
		changed := append([]string(nil), lines...)
		for i := 0; i < len(changed); i += 2 {
			changed[i] = fmt.Sprintf("x%d\n", i)
		}
		applyDiff(t, before, strings.Join(changed, ""))
	})
}

// TestFormatEditsCRLFDocument formats a document saved with CRLF line
// ends: the result is canonical (LF) and no edit splits a CRLF pair.
func TestFormatEditsCRLFDocument(t *testing.T) {
	src := []byte(strings.ReplaceAll(`{
  "leanreview_review": 1,
  "title": "crlf é",
  "patch": [
    "--- a/f",
    "+++ b/f"
  ],
  "comments": []
}
`, "\n", "\r\n"))
	doc := Parse(src)
	edits, err := FormatEdits(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := mustFormat(t, src)
	if bytes.Contains(want, []byte("\r")) {
		t.Errorf("canonical output holds a carriage return: %q", want)
	}
	got, err := ApplyEdits(src, edits)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("applied (err %v): got %q, want %q", err, got, want)
	}
	checkEditBoundaries(t, src, want, edits)
}

func BenchmarkDiffScattered(b *testing.B) {
	var before, after strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&before, "    \"+\\tline %d of a long patch\",\n", i)
		if i%1000 == 7 {
			fmt.Fprintf(&after, "    \"changed %d\",\n", i)
		} else {
			fmt.Fprintf(&after, "    \"+\\tline %d of a long patch\",\n", i)
		}
	}
	x, y := []byte(before.String()), []byte(after.String())
	b.SetBytes(int64(len(x)))
	for b.Loop() {
		Diff(x, y)
	}
}

// TestDiffLinesMinimal compares the line search with a textbook LCS on
// small random sequences: the hunks must change no more lines than needed.
func TestDiffLinesMinimal(t *testing.T) {
	worse := 0
	for seed := range 3000 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		gen := func() []int32 {
			s := make([]int32, r.IntN(30))
			for i := range s {
				s[i] = int32(r.IntN(4))
			}
			return s
		}
		a, b := gen(), gen()
		d := &lineDiff{a: a, b: b, budget: diffBudget}
		d.compare(0, len(a), 0, len(b))
		changed := 0
		ai, bi := 0, 0
		for _, h := range d.hunks {
			// Between hunks the lines must be equal.
			for ai < h.a0 {
				if bi >= h.b0 || a[ai] != b[bi] {
					t.Fatalf("seed %d: unchanged stretch differs before hunk %+v", seed, h)
				}
				ai, bi = ai+1, bi+1
			}
			if bi != h.b0 {
				t.Fatalf("seed %d: hunk %+v out of step (b at %d)", seed, h, bi)
			}
			changed += h.a1 - h.a0 + h.b1 - h.b0
			ai, bi = h.a1, h.b1
		}
		if len(a)-ai != len(b)-bi || !slices.Equal(a[ai:], b[bi:]) {
			t.Fatalf("seed %d: tails differ after the last hunk", seed)
		}
		if want := len(a) + len(b) - 2*lcsLength(a, b); changed > want {
			worse++
			t.Logf("seed %d: %d lines changed, optimum %d", seed, changed, want)
		}
	}
	if worse > 0 {
		t.Errorf("%d of 3000 diffs change more lines than needed", worse)
	}
}

func lcsLength(a, b []int32) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
