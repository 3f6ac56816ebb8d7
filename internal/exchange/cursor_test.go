package exchange

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// refPositions is Position of every offset of text the plain way, the
// reference of the fast paths: lines found by reading the text from its
// start, columns counted a character at a time from the line's start,
// with no mark.
func refPositions(text []byte, enc Encoding) []Position {
	out := make([]Position, 0, len(text)+1)
	line, start := 0, 0
	for o := 0; o <= len(text); o++ {
		if o > 0 && (text[o-1] == '\n' || text[o-1] == '\r' && (o == len(text) || text[o] != '\n')) {
			line, start = line+1, o
		}
		end := start
		for end < len(text) && text[end] != '\n' && text[end] != '\r' {
			end++
		}
		out = append(out, Position{Line: line, Character: refColumns(text[start:end], min(o, end)-start, enc)})
	}
	return out
}

// refColumns counts the units of the characters of line that end at or
// before upto, decoding each.
func refColumns(line []byte, upto int, enc Encoding) int {
	n := 0
	for i := 0; i < upto; {
		r, size := utf8.DecodeRune(line[i:])
		if i+size > upto {
			break
		}
		switch {
		case enc == UTF8:
			n += size
		case enc == UTF16 && r >= 0x10000:
			n += 2
		default:
			n++
		}
		i += size
	}
	return n
}

// tokenText generates a text of lines made of pieces a review holds:
// ASCII runs of every length around a word, JSON escapes, raw non-ASCII
// characters, invalid and cut-short sequences, every line terminator, and
// lines long enough to get marks.
func tokenText(r *rand.Rand) []byte {
	pieces := []string{
		`\t`, `\"`, `\u00e9`, `\ud83d\ude00`, `\\`, "é", "中", "😀", "\U0010FFFF",
		"\xff", "\xc3", "\xe4\xb8", "\xf0\x9f\x98", "\xed\xa0\x80", "\xed\x9f\xbf", "\xe0\x80\x80", "\xe0\xa0\x80", "\xc0\xaf", "\xc2\x80", "\xdf\xbf", "\xef\xbf\xbd",
		"\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf0\x8f\xbf\xbf", "\xe1\x80", "\x80\x80",
		"\n", "\r\n", "\r", "\r\r\n", "\t",
	}
	var b strings.Builder
	for b.Len() < 6000 {
		switch k := r.IntN(10); {
		case k < 5:
			n := r.IntN(40)
			if r.IntN(20) == 0 {
				n = markStep + r.IntN(3*markStep) // a long run, past marks
			}
			for range n {
				b.WriteByte(byte(' ' + r.IntN(95)))
			}
		default:
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	return []byte(b.String())
}

// TestFastColumnsMatchReference compares Position, Width and a Cursor fed
// ascending offsets (with now and then a step back or a jump) against the
// plain reference, in every encoding, on generated texts.
func TestFastColumnsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 34))
	for round := range 12 {
		text := tokenText(r)
		m := NewMapper(text)
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			where := fmt.Sprintf("text %d, %v", round, enc)
			ref := refPositions(text, enc)
			for o := -1; o <= len(text)+1; o++ {
				if got, want := m.Position(o, enc), ref[max(0, min(o, len(text)))]; got != want {
					t.Fatalf("%s: Position(%d): got %v, want %v", where, o, got, want)
				}
			}
			cur := m.Cursor(enc)
			for o := 0; o <= len(text); {
				if got, want := cur.Position(o), ref[o]; got != want {
					t.Fatalf("%s: Cursor.Position(%d): got %v, want %v", where, o, got, want)
				}
				switch k := r.IntN(40); {
				case k == 0:
					o = r.IntN(len(text) + 1) // anywhere, back or far
				case k == 1:
					o = max(0, o-r.IntN(30))
				case k == 2:
					o += r.IntN(4 * markStep)
				default:
					o += r.IntN(12)
				}
			}
			for range 2000 {
				a := r.IntN(len(text) + 1)
				b := min(len(text), a+r.IntN(2*markStep))
				if got, want := m.Width(a, b, enc), refColumns(text[a:b], b-a, enc); got != want {
					t.Fatalf("%s: Width(%d, %d) of %q: got %d, want %d", where, a, b, text[a:b], got, want)
				}
			}
		}
	}
}

// TestAdvanceRuns counts runs of ASCII of every length with the first
// other byte at every place, around the 8 and 16 byte steps, with and
// without room after the line, in a line cut where a count stops and
// where it does not.
func TestAdvanceRuns(t *testing.T) {
	for n := range 40 {
		for at := 0; at <= n; at++ {
			for _, tail := range []string{"", "é", "xxxxxxxxxxxxxxxxxxxx"} {
				text := []byte(strings.Repeat("x", n) + tail)
				if at < n {
					copy(text[at:], "😀")
				}
				for upto := 0; upto <= n; upto++ {
					for _, line := range [][]byte{text[:n:n], text[:n], text} {
						for _, enc := range []Encoding{UTF16, UTF32} {
							got, _ := advance(line, upto, enc)
							if want := refColumns(line, upto, enc); got != want {
								t.Fatalf("%q (length %d, capacity %d) to %d in %v: got %d, want %d", line, len(line), cap(line), upto, enc, got, want)
							}
						}
					}
				}
			}
		}
	}
}
