package exchange

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// mixed holds one character of each UTF-8 length on its first line:
//
//	offset:  0   1-2  3-5  6-9  10  11
//	         a   é    中   😀   b   \n
const mixed = "aé中😀b\nz"

func TestMapperPosition(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		offset int
		enc    Encoding
		want   Position
	}{
		// ASCII.
		{"ascii start", "abc\ndef", 0, UTF16, Position{0, 0}},
		{"ascii middle", "abc\ndef", 2, UTF16, Position{0, 2}},
		{"ascii line end", "abc\ndef", 3, UTF16, Position{0, 3}},
		{"ascii second line", "abc\ndef", 5, UTF16, Position{1, 1}},
		{"ascii end of input", "abc\ndef", 7, UTF16, Position{1, 3}},
		{"ascii utf-8", "abc\ndef", 5, UTF8, Position{1, 1}},
		{"ascii utf-32", "abc\ndef", 5, UTF32, Position{1, 1}},

		// Each character length in each encoding.
		{"after a utf16", mixed, 1, UTF16, Position{0, 1}},
		{"after é utf16", mixed, 3, UTF16, Position{0, 2}},
		{"after 中 utf16", mixed, 6, UTF16, Position{0, 3}},
		{"after 😀 utf16", mixed, 10, UTF16, Position{0, 5}},
		{"line end utf16", mixed, 11, UTF16, Position{0, 6}},
		{"after é utf8", mixed, 3, UTF8, Position{0, 3}},
		{"after 中 utf8", mixed, 6, UTF8, Position{0, 6}},
		{"after 😀 utf8", mixed, 10, UTF8, Position{0, 10}},
		{"line end utf8", mixed, 11, UTF8, Position{0, 11}},
		{"after é utf32", mixed, 3, UTF32, Position{0, 2}},
		{"after 中 utf32", mixed, 6, UTF32, Position{0, 3}},
		{"after 😀 utf32", mixed, 10, UTF32, Position{0, 4}},
		{"line end utf32", mixed, 11, UTF32, Position{0, 5}},
		{"next line", mixed, 12, UTF16, Position{1, 0}},
		{"end", mixed, 13, UTF16, Position{1, 1}},

		// Inside a multi-byte character: that character's start.
		{"inside é utf16", mixed, 2, UTF16, Position{0, 1}},
		{"inside é utf8", mixed, 2, UTF8, Position{0, 1}},
		{"inside é utf32", mixed, 2, UTF32, Position{0, 1}},
		{"inside é at line start utf8", "é\nx", 1, UTF8, Position{0, 0}},
		{"inside 😀 at second line start utf8", "a\n😀", 4, UTF8, Position{1, 0}},
		{"inside 中 byte 2 utf16", mixed, 4, UTF16, Position{0, 2}},
		{"inside 中 byte 3 utf8", mixed, 5, UTF8, Position{0, 3}},
		{"inside 中 utf32", mixed, 5, UTF32, Position{0, 2}},
		{"inside 😀 byte 2 utf16", mixed, 7, UTF16, Position{0, 3}},
		{"inside 😀 byte 4 utf16", mixed, 9, UTF16, Position{0, 3}},
		{"inside 😀 byte 3 utf8", mixed, 8, UTF8, Position{0, 6}},
		{"inside 😀 utf32", mixed, 9, UTF32, Position{0, 3}},

		// Line terminators.
		{"crlf before cr", "ab\r\ncd", 2, UTF16, Position{0, 2}},
		{"crlf inside pair", "ab\r\ncd", 3, UTF16, Position{0, 2}},
		{"crlf inside pair utf8", "ab\r\ncd", 3, UTF8, Position{0, 2}},
		{"crlf next line", "ab\r\ncd", 4, UTF16, Position{1, 0}},
		{"crlf end", "ab\r\ncd", 6, UTF16, Position{1, 2}},
		{"lone cr", "ab\rcd", 2, UTF16, Position{0, 2}},
		{"lone cr next line", "ab\rcd", 3, UTF16, Position{1, 0}},
		{"cr cr lf", "a\r\r\nb", 2, UTF16, Position{1, 0}},
		{"cr cr lf inside pair", "a\r\r\nb", 3, UTF16, Position{1, 0}},
		{"cr cr lf last line", "a\r\r\nb", 4, UTF16, Position{2, 0}},
		{"lf cr", "a\n\rb", 2, UTF16, Position{1, 0}},
		{"lf cr last line", "a\n\rb", 3, UTF16, Position{2, 0}},
		{"empty lines", "\n\n\n", 2, UTF16, Position{2, 0}},
		{"final newline end", "ab\n", 3, UTF16, Position{1, 0}},
		{"no final newline end", "ab", 2, UTF16, Position{0, 2}},

		// Invalid UTF-8: one unit per byte in every encoding.
		{"invalid byte utf16", "a\xffb", 2, UTF16, Position{0, 2}},
		{"invalid byte utf8", "a\xffb", 2, UTF8, Position{0, 2}},
		{"invalid byte utf32", "a\xffb", 2, UTF32, Position{0, 2}},
		{"truncated 中 utf16", "\xe4\xb8a", 2, UTF16, Position{0, 2}},
		{"truncated 中 inside utf16", "\xe4\xb8a", 1, UTF16, Position{0, 1}},
		{"truncated 中 inside utf8", "\xe4\xb8a", 1, UTF8, Position{0, 1}},
		{"truncated 中 inside utf32", "\xe4\xb8a", 1, UTF32, Position{0, 1}},
		{"truncated 😀 utf16", "\xf0\x9f\x98a", 3, UTF16, Position{0, 3}},
		{"stray continuation utf8", "a\x80\x80", 2, UTF8, Position{0, 2}},
		{"encoded surrogate utf16", "\xed\xa0\x80a", 3, UTF16, Position{0, 3}},
		{"invalid then valid utf16", "\xff😀a", 5, UTF16, Position{0, 3}},

		// Clamping and the empty document.
		{"negative offset", "abc", -5, UTF16, Position{0, 0}},
		{"past the end", "abc", 99, UTF16, Position{0, 3}},
		{"empty document", "", 0, UTF16, Position{0, 0}},
		{"empty document past end", "", 3, UTF8, Position{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewMapper([]byte(tt.text)).Position(tt.offset, tt.enc)
			if got != tt.want {
				t.Errorf("Position(%q, %d, %v) = %v, want %v", tt.text, tt.offset, tt.enc, got, tt.want)
			}
		})
	}
}

func TestMapperOffset(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		pos     Position
		enc     Encoding
		want    int
		wantErr bool
	}{
		{"ascii", "abc\ndef", Position{1, 2}, UTF16, 6, false},
		{"ascii line start", "abc\ndef", Position{1, 0}, UTF8, 4, false},
		{"ascii line end", "abc\ndef", Position{0, 3}, UTF32, 3, false},

		{"utf16 after é", mixed, Position{0, 2}, UTF16, 3, false},
		{"utf16 after 中", mixed, Position{0, 3}, UTF16, 6, false},
		{"utf16 after 😀", mixed, Position{0, 5}, UTF16, 10, false},
		{"utf16 inside 😀 surrogate pair", mixed, Position{0, 4}, UTF16, 6, false},
		{"utf16 line end", mixed, Position{0, 6}, UTF16, 11, false},
		{"utf8 after é", mixed, Position{0, 3}, UTF8, 3, false},
		{"utf8 inside é", mixed, Position{0, 2}, UTF8, 1, false},
		{"utf8 inside 中", mixed, Position{0, 5}, UTF8, 3, false},
		{"utf8 inside é at line start", "é\nx", Position{0, 1}, UTF8, 0, false},
		{"utf8 inside 😀 at line start", "a\n😀", Position{1, 3}, UTF8, 2, false},
		{"utf8 inside 😀", mixed, Position{0, 9}, UTF8, 6, false},
		{"utf8 after 😀", mixed, Position{0, 10}, UTF8, 10, false},
		{"utf32 after é", mixed, Position{0, 2}, UTF32, 3, false},
		{"utf32 after 中", mixed, Position{0, 3}, UTF32, 6, false},
		{"utf32 after 😀", mixed, Position{0, 4}, UTF32, 10, false},
		{"utf32 line end", mixed, Position{0, 5}, UTF32, 11, false},

		// Past the end of a line clamps to the line's end, before its terminator.
		{"clamp lf", "ab\ncd", Position{0, 10}, UTF16, 2, false},
		{"clamp crlf", "ab\r\ncd", Position{0, 10}, UTF16, 2, false},
		{"clamp crlf utf8", "ab\r\ncd", Position{0, 3}, UTF8, 2, false},
		{"clamp lone cr", "ab\rcd", Position{0, 10}, UTF32, 2, false},
		{"clamp last line", "ab\ncd", Position{1, 10}, UTF16, 5, false},
		{"clamp multibyte utf16", "é😀\n", Position{0, 99}, UTF16, 6, false},
		{"crlf second line", "ab\r\ncd", Position{1, 1}, UTF16, 5, false},
		{"lone cr second line", "ab\rcd", Position{1, 1}, UTF16, 4, false},
		{"empty crlf line", "a\r\n\r\nb", Position{1, 5}, UTF16, 3, false},

		// The position just after the last line, character 0, is the end.
		{"line after last with final newline", "ab\n", Position{1, 0}, UTF16, 3, false},
		{"line after last", "ab", Position{1, 0}, UTF16, 2, false},
		{"line after last, character 1", "ab", Position{1, 1}, UTF16, 0, true},
		{"two lines past", "ab\n", Position{3, 0}, UTF16, 0, true},
		{"negative line", "ab", Position{-1, 0}, UTF16, 0, true},
		{"negative character", "ab", Position{0, -1}, UTF16, 0, true},

		// Invalid UTF-8: one unit per byte.
		{"invalid byte utf16", "a\xffb", Position{0, 2}, UTF16, 2, false},
		{"invalid byte utf8", "a\xffb", Position{0, 2}, UTF8, 2, false},
		{"invalid byte utf32", "a\xffb", Position{0, 2}, UTF32, 2, false},
		{"truncated 中 utf16", "\xe4\xb8a", Position{0, 1}, UTF16, 1, false},
		{"truncated 中 utf8", "\xe4\xb8a", Position{0, 1}, UTF8, 1, false},
		{"truncated 😀 utf32", "\xf0\x9f\x98a", Position{0, 3}, UTF32, 3, false},

		{"empty document", "", Position{0, 0}, UTF16, 0, false},
		{"empty document clamp", "", Position{0, 4}, UTF8, 0, false},
		{"empty document line 1", "", Position{1, 0}, UTF16, 0, false},
		{"empty document line 2", "", Position{2, 0}, UTF16, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewMapper([]byte(tt.text)).Offset(tt.pos, tt.enc)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Offset(%q, %v, %v) error = %v, want error %v", tt.text, tt.pos, tt.enc, err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("Offset(%q, %v, %v) = %d, want %d", tt.text, tt.pos, tt.enc, got, tt.want)
			}
		})
	}
}

func TestMapperLines(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 1},
		{"a", 1},
		{"a\n", 2},
		{"a\r\n", 2},
		{"a\r", 2},
		{"a\r\r\n", 3},
		{"a\n\r", 3},
		{"\n\n", 3},
		{"a\nb\r\nc\rd", 4},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := NewMapper([]byte(tt.text)).Lines(); got != tt.want {
				t.Errorf("Lines(%q) = %d, want %d", tt.text, got, tt.want)
			}
		})
	}
}

func TestMapperLineCol(t *testing.T) {
	tests := []struct {
		text           string
		offset         int
		line, col      int
		wantLineOfByte int
	}{
		{"abc", 0, 1, 1, 0},
		{"ab\ncd", 4, 2, 2, 1},
		{"é\nx", 2, 1, 3, 0},
		{"é\nx", 1, 1, 1, 0}, // inside é: its start
		{"a\r\nb", 2, 1, 2, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.text, "@", tt.offset), func(t *testing.T) {
			m := NewMapper([]byte(tt.text))
			line, col := m.LineCol(tt.offset)
			if line != tt.line || col != tt.col {
				t.Errorf("LineCol(%q, %d) = %d:%d, want %d:%d", tt.text, tt.offset, line, col, tt.line, tt.col)
			}
			if got := m.Line(tt.offset); got != tt.wantLineOfByte {
				t.Errorf("Line(%q, %d) = %d, want %d", tt.text, tt.offset, got, tt.wantLineOfByte)
			}
		})
	}
}

func TestMapperRange(t *testing.T) {
	m := NewMapper([]byte(mixed))
	start, end := m.Range(3, 10, UTF16)
	if want := (Position{0, 2}); start != want {
		t.Errorf("Range start = %v, want %v", start, want)
	}
	if want := (Position{0, 5}); end != want {
		t.Errorf("Range end = %v, want %v", end, want)
	}
}

// boundaries returns the offsets of text at which a position can sit: the
// start of every character (an invalid byte is a character), of every line
// terminator, and the end. The \n of a \r\n pair is not one.
func boundaries(text []byte) []int {
	var out []int
	for i := 0; i < len(text); {
		out = append(out, i)
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i += 2
			continue
		}
		_, size := utf8.DecodeRune(text[i:])
		i += size
	}
	return append(out, len(text))
}

var roundTripTexts = []string{
	"",
	"abc",
	"abc\n",
	mixed,
	"😀😀\r\n中\ré\n\n",
	"a\r\r\n\n\rb",
	"\xff\xe4\xb8a\xf0\x9f\x98\n\x80😀",
	"\xed\xa0\x80\xc3",
	"tab\there\u2028next",
	"{\n  \"patch\": [\"+é 😀\"]\r\n}",
}

func TestMapperRoundTrip(t *testing.T) {
	for _, text := range roundTripTexts {
		m := NewMapper([]byte(text))
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			for _, o := range boundaries([]byte(text)) {
				p := m.Position(o, enc)
				got, err := m.Offset(p, enc)
				if err != nil || got != o {
					t.Errorf("%q %v: Offset(Position(%d) = %v) = %d, %v, want %d", text, enc, o, p, got, err, o)
				}
			}
		}
	}
}

func TestEncodingString(t *testing.T) {
	for enc, want := range map[Encoding]string{UTF16: "utf-16", UTF8: "utf-8", UTF32: "utf-32"} {
		if got := enc.String(); got != want {
			t.Errorf("Encoding(%d).String() = %q, want %q", enc, got, want)
		}
	}
}

func ExampleMapper_Position() {
	m := NewMapper([]byte("é😀x"))
	fmt.Println(m.Position(6, UTF16), m.Position(6, UTF8), m.Position(6, UTF32))
	// Output: {0 3} {0 6} {0 2}
}

func TestWidth(t *testing.T) {
	m := NewMapper([]byte("a😀é\tb"))
	for _, tt := range []struct {
		start, end int
		enc        Encoding
		want       int
	}{
		{0, 9, UTF16, 6}, {0, 9, UTF8, 9}, {0, 9, UTF32, 5}, {1, 5, UTF16, 2}, {5, 5, UTF16, 0}, {7, 3, UTF8, 0}, {0, 99, UTF8, 9},
	} {
		t.Run(fmt.Sprint(tt.start, "-", tt.end, "/", tt.enc), func(t *testing.T) {
			if got := m.Width(tt.start, tt.end, tt.enc); got != tt.want {
				t.Errorf("Width(%d, %d, %v): got %d, want %d", tt.start, tt.end, tt.enc, got, tt.want)
			}
		})
	}
}

// TestMapperLongLines checks the marks that long lines get against the
// same Mapper without them, which counts every column from the line's
// start: both must agree on every offset and every character.
func TestMapperLongLines(t *testing.T) {
	texts := []string{
		strings.Repeat("aé中😀\xff\xe4\xb8b", 300),
		strings.Repeat("x", 3*markStep) + "\r\n" + strings.Repeat("😀", markStep) + "\r" + strings.Repeat("é\xf0\x9f\x98", 400) + "\n",
		strings.Repeat(`"+line é",`, 200) + "\n" + strings.Repeat("a", markStep+1),
	}
	for ti, text := range texts {
		m := NewMapper([]byte(text))
		if len(m.marks) == 0 {
			t.Fatalf("text %d: no marks, want some on its long lines", ti)
		}
		plain := *m
		plain.marks = nil
		for _, enc := range []Encoding{UTF16, UTF32} {
			for o := 0; o <= len(text); o++ {
				if got, want := m.Position(o, enc), plain.Position(o, enc); got != want {
					t.Fatalf("text %d %v: Position(%d) = %v, want %v", ti, enc, o, got, want)
				}
			}
			for line := 0; line < m.Lines(); line++ {
				width := plain.Position(plain.lineEnd(line), enc).Character
				for c := 0; c <= width+1; c++ {
					p := Position{Line: line, Character: c}
					got, err := m.Offset(p, enc)
					want, _ := plain.Offset(p, enc)
					if err != nil || got != want {
						t.Fatalf("text %d %v: Offset(%v) = %d, %v, want %d", ti, enc, p, got, err, want)
					}
				}
			}
		}
	}
}

// TestMapperLongLine maps positions in a document written on one line
// both ways; BenchmarkMapperLongLine times it.
func TestMapperLongLine(t *testing.T) {
	text := []byte(strings.Repeat(`"+some diff line é",`, 400_000)) // 8 MB
	m := NewMapper(text)
	for i := range 2000 {
		off := i * len(text) / 2000
		p := m.Position(off, UTF16)
		got, err := m.Offset(p, UTF16)
		if err != nil || got != off {
			t.Fatalf("Offset(Position(%d)) = %d, %v; want %d", off, got, err, off)
		}
	}
}

// TestMapperEditedMatchesNewMapper updates a mapper through random edits
// of texts with every line terminator and long lines of wide characters,
// told only where each edit starts (the rest is scanned again), and
// checks that it indexes the new text as a fresh mapper does.
func TestMapperEditedMatchesNewMapper(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "é", "😀", "\n", "\r", "\r\n", strings.Repeat("x", 300), strings.Repeat("é😀", 200)}
	random := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	// A line feed typed or deleted just after a carriage return changes
	// where the line before the edit ends.
	for _, tc := range [][2]string{{"a\rb", "a\r\nb"}, {"a\r\nb", "a\rb"}, {"a\r", "a\r\n"}, {"\r\n", "\rx\n"}} {
		prefix := 0
		for prefix < min(len(tc[0]), len(tc[1])) && tc[0][prefix] == tc[1][prefix] {
			prefix++
		}
		got, want := NewMapper([]byte(tc[0])).Edited(NewText([]byte(tc[1])), Change{Prefix: prefix}), NewMapper([]byte(tc[1]))
		if !slices.Equal(got.starts(), want.starts()) {
			t.Errorf("%q to %q: got lines %v, want %v", tc[0], tc[1], got.starts(), want.starts())
		}
	}
	text := random(60)
	m := NewMapper([]byte(text))
	for i := range 3000 {
		at := r.IntN(len(text) + 1)
		end := min(len(text), at+r.IntN(8))
		next := text[:at] + random(r.IntN(3)) + text[end:]
		prefix := 0
		for prefix < min(len(text), len(next)) && text[prefix] == next[prefix] {
			prefix++
		}
		got, want := m.Edited(NewText([]byte(next)), Change{Prefix: prefix}), NewMapper([]byte(next))
		if !slices.Equal(got.starts(), want.starts()) || !slices.Equal(got.marks, want.marks) {
			t.Fatalf("edit %d at %d of %q:\ngot  lines %v marks %v\nwant lines %v marks %v", i, at, next, got.starts(), got.marks, want.starts(), want.marks)
		}
		for range 10 {
			o := r.IntN(len(next) + 2)
			for _, enc := range []Encoding{UTF16, UTF8} {
				p := got.Position(o, enc)
				if w := want.Position(o, enc); p != w || got.Line(o) != want.Line(o) {
					t.Fatalf("edit %d: offset %d is at %v (line %d), want %v (line %d)", i, o, p, got.Line(o), w, want.Line(o))
				}
				if g, err := got.Offset(p, enc); err != nil || g != mustOffset(want, p, enc) {
					t.Fatalf("edit %d: position %v is at %d (%v)", i, p, g, err)
				}
			}
		}
		// The earlier version's mapper, which shares arrays with the new
		// one, is unchanged.
		if old := NewMapper([]byte(text)); !slices.Equal(m.starts(), old.starts()) || !slices.Equal(m.marks, old.marks) {
			t.Fatalf("edit %d at %d of %q changed the mapper of the text before it", i, at, next)
		}
		text, m = next, got
		if i%100 == 0 {
			text = random(60)
			m = NewMapper([]byte(text))
		}
	}
}

// starts returns the starts of m's lines.
func (m *Mapper) starts() []int {
	starts := make([]int, m.Lines())
	for i := range starts {
		starts[i] = m.start(i)
	}
	return starts
}

// checkpoints returns m's checkpoints.
func checkpoints(m *Mapper) []checkpoint { return slices.Concat(m.shared, m.own) }

// checkpointsBound says where m's checkpoints leave more lines, or more
// bytes of line starts, between two than a scan from the first may read.
func checkpointsBound(m *Mapper) error {
	cps := checkpoints(m)
	if len(cps) == 0 || cps[0] != (checkpoint{}) {
		return fmt.Errorf("checkpoints %v do not start with line 0", cps)
	}
	for k, cp := range cps {
		endLine, endOff := m.Lines(), m.content.Len()+1
		if k+1 < len(cps) {
			endLine, endOff = int(cps[k+1].line), int(cps[k+1].off)
		}
		if endLine-int(cp.line) > checkpointLines || endLine <= int(cp.line) || endOff <= int(cp.off) {
			return fmt.Errorf("checkpoint %d %v: the next at line %d, offset %d", k, cp, endLine, endOff)
		}
		if last := endLine - 1; last > int(cp.line) && m.start(last)-int(cp.off) >= checkpointBytes {
			return fmt.Errorf("checkpoint %d %v: line %d starts %d bytes after it", k, cp, last, m.start(last)-int(cp.off))
		}
	}
	return nil
}

func mustOffset(m *Mapper, p Position, enc Encoding) int {
	o, err := m.Offset(p, enc)
	if err != nil {
		panic(err)
	}
	return o
}

// BenchmarkNewMapper indexes an 8 MB text of 64-byte lines, the shape of
// a large review, and reports the bytes its line table keeps per line.
func BenchmarkNewMapper(b *testing.B) {
	text := []byte(strings.Repeat(`      "+	if err := load(ctx, cfg); err != nil { return err }",`+"\n", 1<<17))
	var m *Mapper
	for b.Loop() {
		m = NewMapper(text)
	}
	b.ReportMetric(float64((cap(m.shared)+cap(m.own))*8)/float64(m.Lines()), "table-B/line")
}
