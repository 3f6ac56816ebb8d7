package exchange

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"unicode/utf8"
)

// Encoding is the unit in which a Position's Character counts.
type Encoding uint8

const (
	UTF16 Encoding = iota // the LSP default
	UTF8
	UTF32
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	}
	return "utf-16"
}

// Position is an LSP position: 0-based line and a 0-based column counted in
// the Mapper's encoding.
type Position struct {
	Line, Character int
}

// Mapper converts between byte offsets and positions for one text. It is
// the only place in the project that counts columns, so that every feature
// agrees on where a character is. Lines end at \n, \r\n or a lone \r, as
// the LSP specification says.
type Mapper struct {
	content Text
	// The starts of the lines, in order, are those of shared then those
	// of lines. shared is a prefix of an earlier version's, held in
	// common (see Edited): a mapper never changes its arrays once made.
	// They are 32 bits (content is at most MaxSource bytes): a large
	// review keeps one per line for as long as it is open.
	shared, lines []int32
	// marks, sorted by offset, are character boundaries every markStep
	// bytes or so inside long lines, with the columns before them: a
	// document written on one line (a minified review) would otherwise
	// cost a scan from its start per position.
	marks []mark
}

// mark is a character boundary inside a long line and the number of
// UTF-16 and UTF-32 units from the line's start to it.
type mark struct {
	off, u16, u32 int32
}

// markStep is the distance between marks, and so the most a position
// conversion scans.
const markStep = 512

// NewMapper indexes the line starts of content. Only its first MaxSource
// bytes are mapped, as the reader reads no more: past them, offsets clamp
// and lines are past the end.
func NewMapper(content []byte) *Mapper { return NewTextMapper(NewText(content)) }

// NewTextMapper is NewMapper of a Text.
func NewTextMapper(content Text) *Mapper {
	m := &Mapper{content: content.prefix(MaxSource)}
	m.index(0, m.content.Len(), nil, 0)
	return m
}

// bytes returns the content's bytes [from, to), which the caller must
// not modify (see Text.Slice).
func (m *Mapper) bytes(from, to int) []byte { return m.content.Slice(from, to) }

// Edited returns the mapper of content, a later version of m's text that
// differs from it only where ch says (see Change). The lines before the
// change keep their starts and marks, held in common with m; those wholly
// inside the unchanged suffix are m's, moved by the change in length; only
// the lines between are scanned. A keystroke near the top of a large
// review so costs a copy of the line table, not a scan of the megabytes
// after it; a Change without a Suffix rescans from the change to the end.
func (m *Mapper) Edited(content Text, ch Change) *Mapper {
	n := &Mapper{content: content.prefix(MaxSource)}
	if content.Len() > MaxSource || m.content.Len() >= MaxSource {
		ch.Suffix = 0 // a text cut short does not end with its suffix
	}
	ch = ch.fit(m.content.Len(), n.content.Len())
	// Rescan from the start of the last line that starts before the first
	// changed byte: its terminator may be that byte, or a \r before a \n
	// typed there.
	keep := max(m.Line(ch.Prefix), 0)
	if keep > 0 && m.start(keep) == ch.Prefix {
		keep--
	}
	from := m.start(keep)
	switch {
	case keep <= len(m.shared):
		n.shared = m.shared[:keep:keep]
	case len(m.shared) == 0:
		n.shared = m.lines[:keep:keep]
	default:
		// Two arrays at most: the kept lines become one.
		n.shared = slices.Concat(m.shared, m.lines[:keep-len(m.shared)])
	}
	j := sort.Search(len(m.marks), func(i int) bool { return int(m.marks[i].off) >= from })
	n.marks = m.marks[:j:j] // an append copies
	// The first of m's lines that starts after a byte of the suffix is a
	// line of content, moved: whether a line starts at an offset depends
	// on the byte before it and the one at it (or the end), the same in
	// both texts. So are the lines after it, and so their marks.
	suffixAt := m.content.Len() - ch.Suffix
	reuse := sort.Search(m.Lines(), func(i int) bool { return m.start(i) > suffixAt })
	if ch.Suffix == 0 || reuse == m.Lines() {
		n.index(from, n.content.Len(), nil, 0)
		return n
	}
	n.index(from, m.start(reuse)+n.content.Len()-m.content.Len(), m, reuse)
	return n
}

// index sets the starts of the lines from offset from, the start of a
// line, on: those found up to offset to, then, when old is not nil, those
// of old's lines from its line reuse on, which starts at to, moved by the
// change in length; and it adds the marks of the long lines among them.
func (m *Mapper) index(from, to int, old *Mapper, reuse int) {
	// Counted first (Count is vectorised) so that the array is allocated
	// once at its size: it lives as long as the document.
	n, cr := 0, false
	m.content.Each(from, to, func(b []byte, _ int) bool {
		n += bytes.Count(b, []byte{'\n'})
		cr = cr || bytes.IndexByte(b, '\r') >= 0
		return true
	})
	moved := 0
	if old != nil {
		moved = old.Lines() - reuse - 1 // the scan finds the first, at to
	}
	starts := make([]int32, 1, 1+n+moved)
	starts[0] = int32(from)
	starts = m.appendStarts(starts, from, to, cr)
	scanned := len(starts)
	if old != nil {
		starts = old.appendMoved(starts, reuse+1, m.content.Len()-old.content.Len())
		scanned-- // the line at to is old's
	}
	m.lines = starts
	for i := range scanned {
		if start, end := int(starts[i]), m.lineEnd(len(m.shared)+i); end-start > markStep {
			m.markLine(start, end)
		}
	}
	if old != nil {
		m.marks = old.appendMovedMarks(m.marks, int(old.start(reuse)), m.content.Len()-old.content.Len())
	}
}

// appendStarts appends the starts of the lines after offset from, the
// start of a line, up to offset to. The last may be to. cr says whether
// a carriage return may end a line there.
func (m *Mapper) appendStarts(starts []int32, from, to int, cr bool) []int32 {
	afterCR := false // from starts a line: no \r\n spans it
	m.content.Each(from, to, func(b []byte, at int) bool {
		if !cr {
			// The common case: IndexByte is vectorised, far faster than
			// a byte loop on a multi-megabyte review.
			for i := 0; ; {
				j := bytes.IndexByte(b[i:], '\n')
				if j < 0 {
					return true
				}
				i += j + 1
				starts = append(starts, int32(at+i))
			}
		}
		for i, c := range b {
			switch {
			case c == '\n' && afterCR:
				starts[len(starts)-1]++ // a \r\n is one line break, which may span pieces
			case c == '\n' || c == '\r':
				starts = append(starts, int32(at+i+1))
			}
			afterCR = c == '\r'
		}
		return true
	})
	return starts
}

// appendMoved appends the starts of m's lines from line i on, moved by
// delta bytes.
func (m *Mapper) appendMoved(starts []int32, i int, delta int) []int32 {
	d := int32(delta)
	for _, part := range [2][]int32{m.shared, m.lines} {
		if i >= len(part) {
			i -= len(part)
			continue
		}
		// Sized first: a loop of appends checks the capacity per line.
		at := len(starts)
		starts = slices.Grow(starts, len(part)-i)[:at+len(part)-i]
		for k, s := range part[i:] {
			starts[at+k] = s + d
		}
		i = 0
	}
	return starts
}

// appendMovedMarks appends m's marks after offset from, moved by delta
// bytes: a mark's columns count from its line's start, which moves with it.
func (m *Mapper) appendMovedMarks(marks []mark, from, delta int) []mark {
	j := sort.Search(len(m.marks), func(i int) bool { return int(m.marks[i].off) > from })
	for _, mk := range m.marks[j:] {
		mk.off += int32(delta)
		marks = append(marks, mk)
	}
	return marks
}

// markLine adds the marks of the line [start, end), counting characters
// as columns does.
func (m *Mapper) markLine(start, end int) {
	u16, u32, last := 0, 0, start
	for i := start; i < end; {
		// A run of the line at a time, ending at a character boundary: a
		// line may span pieces of the text.
		w := m.bytes(i, min(end, i+scanRun))
		at := i
		for j := 0; j < len(w); {
			if !utf8.FullRune(w[j:]) && at+len(w) < end {
				break // a character cut by the run: the next run starts at it
			}
			if c := w[j]; c < utf8.RuneSelf {
				j++
				u16++
			} else {
				r, size := utf8.DecodeRune(w[j:])
				j += size
				u16++
				if r >= 0x10000 {
					u16++
				}
			}
			u32++
			i = at + j
			if i-last >= markStep && i < end {
				m.marks = append(m.marks, mark{off: int32(i), u16: int32(u16), u32: int32(u32)})
				last = i
			}
		}
	}
}

// scanRun is how many bytes of a line a scan reads at a time.
const scanRun = 4 << 10

// markBefore returns the last mark in [start, offset], or a mark at
// start with no columns when there is none.
func (m *Mapper) markBefore(start, offset int) mark {
	j := sort.Search(len(m.marks), func(j int) bool { return int(m.marks[j].off) > offset }) - 1
	if j < 0 || int(m.marks[j].off) < start {
		return mark{off: int32(start)}
	}
	return m.marks[j]
}

// units returns mk's column count in enc (UTF-16 or UTF-32).
func (mk mark) units(enc Encoding) int {
	if enc == UTF16 {
		return int(mk.u16)
	}
	return int(mk.u32)
}

// Lines returns the number of lines (a final line break opens an empty last line).
func (m *Mapper) Lines() int { return len(m.shared) + len(m.lines) }

// start returns the offset of line i's first byte.
func (m *Mapper) start(i int) int {
	if i < len(m.shared) {
		return int(m.shared[i])
	}
	return int(m.lines[i-len(m.shared)])
}

// lineEnd returns the offset of line i's terminator (or of the end of input).
func (m *Mapper) lineEnd(i int) int {
	if i+1 >= m.Lines() {
		return m.content.Len()
	}
	end := m.start(i+1) - 1
	if end > m.start(i) && m.content.Byte(end) == '\n' && m.content.Byte(end-1) == '\r' {
		end--
	}
	return end
}

// Line returns the 0-based line holding offset.
func (m *Mapper) Line(offset int) int {
	if len(m.lines) == 0 || offset < int(m.lines[0]) {
		return sort.Search(len(m.shared), func(i int) bool { return int(m.shared[i]) > offset }) - 1
	}
	return len(m.shared) + sort.Search(len(m.lines), func(i int) bool { return int(m.lines[i]) > offset }) - 1
}

// Position converts a byte offset, clamped to the content, to a position.
// An offset inside a line terminator or a multi-byte character maps to the
// position of that terminator or character.
func (m *Mapper) Position(offset int, enc Encoding) Position {
	offset = max(0, min(offset, m.content.Len()))
	line := m.Line(offset)
	start, end := m.start(line), m.lineEnd(line)
	offset = min(offset, end)
	if enc == UTF8 {
		return Position{Line: line, Character: m.charStart(start, end, offset) - start}
	}
	mk := m.markBefore(start, offset)
	return Position{Line: line, Character: mk.units(enc) + m.columnsTo(int(mk.off), end, offset, enc)}
}

// charStart returns the start of the character that offset, in the line
// [start, end), falls in (see charStart), reading the few bytes around it.
func (m *Mapper) charStart(start, end, offset int) int {
	from := max(start, offset-utf8.UTFMax)
	return from + charStart(m.bytes(from, min(end, offset+utf8.UTFMax)), offset-from)
}

// columnsTo counts the units of the characters from offset at, a
// character boundary of a line ending at end, up to offset upto (see
// columns), reading those bytes and the character that may cross upto.
func (m *Mapper) columnsTo(at, end, upto int, enc Encoding) int {
	return columns(m.bytes(at, min(end, upto+utf8.UTFMax)), upto-at, enc)
}

// columns counts the units, in enc, of the characters of line that end at
// or before upto. An invalid byte counts as one unit, as it would once
// replaced by U+FFFD.
func columns(line []byte, upto int, enc Encoding) int {
	if enc == UTF8 {
		return charStart(line, upto)
	}
	n, _ := advance(line, upto, enc)
	return n
}

// advance is columns in UTF-16 or UTF-32 that also returns where the last
// character it counts ends: a boundary a later count can start from. A
// run of ASCII, most of a review, counts a unit a byte, so it is read
// eight bytes at a time; only the other bytes are decoded.
func advance(line []byte, upto int, enc Encoding) (n, i int) {
	for i < upto {
		for upto-i >= 16 && (load64(line, i)|load64(line, i+8))&highBits == 0 {
			n, i = n+16, i+16
		}
		for upto-i >= 8 && load64(line, i)&highBits == 0 {
			n, i = n+8, i+8
		}
		for i < upto && line[i] < utf8.RuneSelf {
			n, i = n+1, i+1
		}
		if i == upto {
			break
		}
		r, size := utf8.DecodeRune(line[i:])
		if i+size > upto {
			break
		}
		i += size
		n++
		if enc == UTF16 && r >= 0x10000 {
			n++ // a surrogate pair
		}
	}
	return n, i
}

// highBits has the top bit of each byte of a word set: a word of ASCII
// has none of them.
const highBits = 0x8080808080808080

// load64 reads the eight bytes of b from i, the first the lowest.
func load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

// Offset converts a position to a byte offset. A character past the end
// of its line clamps to the line's end, as the LSP specification asks;
// a line past the end of the content is an error.
func (m *Mapper) Offset(p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("invalid position %d:%d", p.Line, p.Character)
	}
	if p.Line >= m.Lines() {
		if p.Line == m.Lines() && p.Character == 0 {
			return m.content.Len(), nil
		}
		return 0, fmt.Errorf("line %d is past the end of the document (%d lines)", p.Line+1, m.Lines())
	}
	start, end := m.start(p.Line), m.lineEnd(p.Line)
	if enc == UTF8 {
		return m.charStart(start, end, start+min(p.Character, end-start)), nil
	}
	// Start from the last mark of the line at or before the character:
	// no earlier boundary can be the answer.
	lo := sort.Search(len(m.marks), func(j int) bool { return int(m.marks[j].off) >= start })
	hi := sort.Search(len(m.marks), func(j int) bool { return int(m.marks[j].off) >= end })
	k := lo + sort.Search(hi-lo, func(j int) bool { return m.marks[lo+j].units(enc) > p.Character }) - 1
	mk := mark{off: int32(start)}
	if k >= lo {
		mk = m.marks[k]
	}
	units := mk.units(enc)
	for i := int(mk.off); i < end; {
		// A run at a time, as markLine reads: the scan from the mark
		// before the character is a run or less.
		w, at := m.bytes(i, min(end, i+scanRun)), i
		for j := 0; j < len(w); {
			if units >= p.Character {
				return at + j, nil
			}
			if !utf8.FullRune(w[j:]) && at+len(w) < end {
				break // the next run starts at this character
			}
			r, size := utf8.DecodeRune(w[j:])
			if enc == UTF16 && r >= 0x10000 {
				units += 2
				if units > p.Character {
					return at + j, nil // inside a surrogate pair: the character's start
				}
			} else {
				units++
			}
			j += size
			i = at + j
		}
	}
	return end, nil
}

// Range converts a byte range to a pair of positions.
func (m *Mapper) Range(start, end int, enc Encoding) (Position, Position) {
	return m.Position(start, enc), m.Position(end, enc)
}

// LineCol returns the 1-based line and 1-based byte column of offset, the
// convention of compilers' `file:line:col` messages that editors jump to.
func (m *Mapper) LineCol(offset int) (int, int) {
	p := m.Position(offset, UTF8)
	return p.Line + 1, p.Character + 1
}

// charStart moves i back to the start of the character of line it falls
// in, so that no position splits a UTF-8 sequence. An invalid byte is a
// character of its own.
func charStart(line []byte, i int) int {
	for j := i; j >= 0 && j > i-utf8.UTFMax && j < len(line); j-- {
		if !utf8.RuneStart(line[j]) {
			continue
		}
		if r, size := utf8.DecodeRune(line[j:]); j+size > i && !(r == utf8.RuneError && size == 1) {
			return j
		}
		break
	}
	return i
}

// Width returns how many units of enc the text [start, end) of one line
// spans: a token's length, without looking its line up again.
func (m *Mapper) Width(start, end int, enc Encoding) int {
	start, end = max(0, min(start, m.content.Len())), max(0, min(end, m.content.Len()))
	if end <= start {
		return 0
	}
	return columns(m.bytes(start, end), end-start, enc)
}
