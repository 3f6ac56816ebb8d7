package exchange

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomEdits applies n random replacements to a text and to a flat copy
// of its bytes, calling check after each with both. Edits cluster, as
// typing does, and now and then jump; some are large enough to cross
// pieces.
func randomEdits(t *testing.T, seed uint64, start string, n int, check func(step int, got Text, want []byte)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	alphabet := []string{"x", "é", "😀", "\r", "\n", "\r\n", `"`, "\\", "ab", strings.Repeat("long run ", 600)}
	got, want := NewText([]byte(start)), []byte(start)
	at := len(want) / 2
	for step := range n {
		if rng.IntN(8) == 0 {
			at = rng.IntN(len(want) + 1)
		}
		at = min(at, len(want))
		end := at
		if rng.IntN(3) == 0 {
			end = min(len(want), at+rng.IntN(40))
		}
		if rng.IntN(50) == 0 {
			end = min(len(want), at+rng.IntN(20000))
		}
		with := alphabet[rng.IntN(len(alphabet))]
		if rng.IntN(4) == 0 {
			with = ""
		}
		got = got.Replace(at, end, []byte(with))
		want = append(append(append([]byte(nil), want[:at]...), with...), want[end:]...)
		at += len(with)
		check(step, got, want)
	}
}

func TestTextReplaceMatchesFlat(t *testing.T) {
	base := strings.Repeat("line of the review, with a tab\t and é\n", 3000)
	for seed := range uint64(6) {
		randomEdits(t, seed, base, 400, func(step int, got Text, want []byte) {
			if got.Len() != len(want) {
				t.Fatalf("seed %d step %d: Len %d, want %d", seed, step, got.Len(), len(want))
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("seed %d step %d: bytes differ", seed, step)
			}
			if len(got.pieces) > maxPieces {
				t.Fatalf("seed %d step %d: %d pieces, want at most %d", seed, step, len(got.pieces), maxPieces)
			}
			at := 0
			for i, p := range got.pieces {
				if p.at != at || len(p.b) == 0 {
					t.Fatalf("seed %d step %d: piece %d at %d (%d bytes), want at %d and not empty", seed, step, i, p.at, len(p.b), at)
				}
				at += len(p.b)
			}
			rng := rand.New(rand.NewPCG(seed, uint64(step)))
			for range 20 {
				from := rng.IntN(len(want) + 1)
				to := min(len(want), from+rng.IntN(9000))
				if !bytes.Equal(got.Slice(from, to), want[from:to]) {
					t.Fatalf("seed %d step %d: Slice(%d, %d) differs", seed, step, from, to)
				}
				if from < len(want) && got.Byte(from) != want[from] {
					t.Fatalf("seed %d step %d: Byte(%d) = %q, want %q", seed, step, from, got.Byte(from), want[from])
				}
				if g, w := got.IndexByteIn(from, to, '\n'), bytes.IndexByte(want[from:to], '\n'); g != w+from && !(w < 0 && g < 0) {
					t.Fatalf("seed %d step %d: IndexByteIn(%d, %d) = %d, want %d", seed, step, from, to, g, w+from)
				}
				if g, w := got.lastLineBreak(to), bytes.LastIndexAny(want[:to], "\n\r"); g != w {
					t.Fatalf("seed %d step %d: lastLineBreak(%d) = %d, want %d", seed, step, to, g, w)
				}
			}
		})
	}
}

// TestTextReplaceShares: typing in one place keeps the bytes around it
// as views of the earlier text, and copies only the neighbourhood.
func TestTextReplaceShares(t *testing.T) {
	orig := []byte(strings.Repeat("0123456789", 100_000))
	text := NewText(orig)
	at := 500_000
	for i := range 50 {
		text = text.Replace(at+i, at+i, []byte("x"))
	}
	if n := len(text.pieces); n != 3 {
		t.Fatalf("typing in one place made %d pieces, want 3", n)
	}
	first, last := text.pieces[0], text.pieces[2]
	if &first.b[0] != &orig[0] || &last.b[len(last.b)-1] != &orig[len(orig)-1] {
		t.Error("the bytes before and after the typing are not the earlier text's")
	}
	if mid := len(text.pieces[1].b); mid > 2*smallPiece+50 {
		t.Errorf("the typed piece holds %d bytes, want the neighbourhood only", mid)
	}
}

// TestTextEqual compares ranges of texts cut differently.
func TestTextEqual(t *testing.T) {
	flat := []byte(strings.Repeat("abcdefghij", 2000))
	a := NewText(flat)
	// The same bytes, replaced by themselves: cut into pieces.
	b := NewText(append([]byte(nil), flat...)).Replace(7000, 7001, []byte("a")).Replace(12345, 12346, []byte("f"))
	if len(b.pieces) < 2 {
		t.Fatal("the second text is one piece: nothing to compare across")
	}
	for _, r := range [][2]int{{0, 20000}, {6990, 7010}, {100, 12400}, {12345, 12346}} {
		if !a.Equal(r[0], r[1], b, r[0]) {
			t.Errorf("Equal(%d, %d): got false, want true", r[0], r[1])
		}
	}
	c := b.Replace(9000, 9001, []byte("X"))
	if c.Equal(8000, 10000, a, 8000) || !c.Equal(9001, 10000, a, 9001) {
		t.Error("Equal does not see the one byte changed")
	}
	if a.Equal(19990, 20000, b, 19995) {
		t.Error("Equal of a range past the other text's end: got true")
	}
}

// TestMapperOfPiecesMatchesFlat: positions over a text of many pieces,
// with line breaks, \r\n and characters cut where the pieces meet, are
// those over the same bytes in one.
func TestMapperOfPiecesMatchesFlat(t *testing.T) {
	base := strings.Repeat("a line é 😀 with\r\nmore\rand more\n", 400) + strings.Repeat("long😀", 600)
	for seed := range uint64(4) {
		randomEdits(t, seed, base, 60, func(step int, got Text, want []byte) {
			if step%6 != 0 {
				return
			}
			pm, fm := NewTextMapper(got), NewMapper(want)
			if pm.Lines() != fm.Lines() {
				t.Fatalf("seed %d step %d: %d lines, want %d", seed, step, pm.Lines(), fm.Lines())
			}
			rng := rand.New(rand.NewPCG(seed, uint64(step)))
			for range 200 {
				off := rng.IntN(len(want) + 1)
				for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
					p, w := pm.Position(off, enc), fm.Position(off, enc)
					if p != w {
						t.Fatalf("seed %d step %d: Position(%d, %v) = %v, want %v", seed, step, off, enc, p, w)
					}
					po, err1 := pm.Offset(w, enc)
					fo, err2 := fm.Offset(w, enc)
					if po != fo || (err1 == nil) != (err2 == nil) {
						t.Fatalf("seed %d step %d: Offset(%v, %v) = %d, want %d", seed, step, w, enc, po, fo)
					}
				}
				end := min(len(want), off+rng.IntN(30))
				if g, w := pm.Width(off, end, UTF16), fm.Width(off, end, UTF16); g != w {
					t.Fatalf("seed %d step %d: Width(%d, %d) = %d, want %d", seed, step, off, end, g, w)
				}
			}
			pc, fc := pm.Cursor(UTF16), fm.Cursor(UTF16)
			for off := 0; off < len(want); off += 1 + rng.IntN(90) {
				if g, w := pc.Position(off), fc.Position(off); g != w {
					t.Fatalf("seed %d step %d: cursor Position(%d) = %v, want %v", seed, step, off, g, w)
				}
			}
		})
	}
}
