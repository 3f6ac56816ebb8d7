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
	// lines is the number of lines.
	lines int
	// cr says whether content may hold a carriage return, which makes a
	// line break of its own or with a line feed.
	cr bool
	// The checkpoints, in order, are those of shared then those of own.
	// shared is a prefix of an earlier version's, held in common (see
	// Edited): a mapper never changes its arrays once made.
	shared, own []checkpoint
	// marks, sorted by offset, are character boundaries every markStep
	// bytes or so inside long lines, with the columns before them: a
	// document written on one line (a minified review) would otherwise
	// cost a scan from its start per position.
	marks []mark
}

// checkpoint is the start of a line and its number. Line 0 is one; after
// it, the start of every checkpointLines-th line is, or sooner that of
// the first line starting checkpointBytes or more after the last one.
// The lines between two are found by scanning from the first, which
// reads less than checkpointBytes before it finds them all: a large
// review keeps one for eight lines, where a start per line took four
// bytes a line for as long as it is open. 32 bits, as content is at most
// MaxSource bytes.
type checkpoint struct {
	line, off int32
}

const (
	checkpointLines = 8
	checkpointBytes = 1 << 10
)

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
	m.cr = m.content.IndexByte(0, '\r') >= 0
	m.reserve(0, m.content.Len(), 1)
	m.own = append(m.own, checkpoint{})
	m.lines = m.scan(checkpoint{}, 0, 0, m.content.Len(), false) + 1
	m.trim()
	return m
}

// bytes returns the content's bytes [from, to), which the caller must
// not modify (see Text.Slice).
func (m *Mapper) bytes(from, to int) []byte { return m.content.Slice(from, to) }

// Edited returns the mapper of content, a later version of m's text that
// differs from it only where ch says (see Change). The checkpoints and
// marks before the change are kept, held in common with m; those wholly
// inside the unchanged suffix are m's, moved by the change in length;
// only the lines between are scanned. A keystroke near the top of a
// large review so costs a copy of the checkpoints, not a scan of the
// megabytes after it; a Change without a Suffix rescans from the change
// to the end.
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
	k := m.checkpointOfLine(keep) + 1 // the checkpoints kept
	switch {
	case k <= len(m.shared):
		n.shared = m.shared[:k:k]
	case len(m.shared) == 0:
		n.shared = m.own[:k:k]
	default:
		// Two arrays at most: the kept checkpoints become one.
		n.shared = slices.Concat(m.shared, m.own[:k-len(m.shared)])
	}
	j := sort.Search(len(m.marks), func(i int) bool { return int(m.marks[i].off) >= from })
	n.marks = m.marks[:j:j] // an append copies
	n.cr = m.cr || n.content.IndexByteIn(from, n.content.Len()-ch.Suffix, '\r') >= 0
	// The first of m's lines that starts after a byte of the suffix is a
	// line of content, moved: whether a line starts at an offset depends
	// on the byte before it and the one at it (or the end), the same in
	// both texts. So are the lines after it, and so their marks.
	suffixAt := m.content.Len() - ch.Suffix
	reuse := sort.Search(m.Lines(), func(i int) bool { return m.start(i) > suffixAt })
	last := n.checkpoint(k - 1)
	if ch.Suffix == 0 || reuse == m.Lines() {
		n.reserve(from, n.content.Len(), 0)
		n.lines = n.scan(last, keep, from, n.content.Len(), false) + 1
		n.trim()
		return n
	}
	delta := n.content.Len() - m.content.Len()
	to := m.start(reuse) + delta
	moved := len(m.shared) + len(m.own) - m.checkpointOfLine(reuse) - 1
	n.reserve(from, to, moved)
	at := n.scan(last, keep, from, to, true)
	n.lines = at + m.Lines() - reuse
	n.own = m.appendMoved(n.own, reuse, at-reuse, delta)
	n.marks = m.appendMovedMarks(n.marks, to-delta, delta)
	n.trim()
	return n
}

// reserve makes room in own for the checkpoints a scan of [from, to) may
// add, and more: counted first (Count is vectorised), so that they are
// allocated once, as they live as long as the document.
func (m *Mapper) reserve(from, to, more int) {
	breaks := 0
	m.content.Each(from, to, func(b []byte, _ int) bool {
		breaks += bytes.Count(b, []byte{'\n'})
		if m.cr {
			breaks += bytes.Count(b, []byte{'\r'})
		}
		return true
	})
	// A checkpoint for each eight lines or each kilobyte, at most.
	m.own = slices.Grow(m.own, breaks/checkpointLines+(to-from)/checkpointBytes+1+more)
}

// trim gives own memory of its size when reserve's bound left much of
// it unused.
func (m *Mapper) trim() {
	if cap(m.own)-len(m.own) > len(m.own)/8 {
		m.own = slices.Clone(m.own)
	}
}

// scan reads the lines from from, the start of line line, up to offset
// to: it appends the checkpoints the rule asks for after last (see
// checkpoint) and marks the long lines. It returns the number of the
// line holding to; when seam is set, to starts a line (an earlier
// version's, whose checkpoints follow) and is made a checkpoint.
func (m *Mapper) scan(last checkpoint, line, from, to int, seam bool) int {
	sc := scanner{m: m, last: last, line: line, start: from, to: to, seam: seam}
	if m.cr {
		for next := m.breakAfter(from, to); next >= 0 && sc.lineBreak(next); next = m.breakAfter(next, to) {
		}
	} else {
		// The common case, a line feed a line: IndexByte over each piece
		// is far faster than a call per line.
		m.content.Each(from, to, func(b []byte, at int) bool {
			for i := 0; ; {
				j := bytes.IndexByte(b[i:], '\n')
				if j < 0 {
					return true
				}
				i += j + 1
				sc.lineBreak(at + i)
			}
		})
	}
	if !seam && to-sc.start > markStep {
		m.markLine(sc.start, to) // the last line
	}
	return sc.line
}

// scanner is the state of a scan: the last checkpoint and the line it
// is in.
type scanner struct {
	m         *Mapper
	last      checkpoint
	line      int
	start, to int
	seam      bool
}

// lineBreak takes the start of the next line, next, and says whether
// the scan goes on.
func (sc *scanner) lineBreak(next int) bool {
	m := sc.m
	if end := m.endBefore(sc.start, next); end-sc.start > markStep {
		m.markLine(sc.start, end)
	}
	sc.line, sc.start = sc.line+1, next
	atSeam := sc.seam && next == sc.to
	if atSeam || sc.line-int(sc.last.line) >= checkpointLines || next-int(sc.last.off) >= checkpointBytes {
		sc.last = checkpoint{line: int32(sc.line), off: int32(next)}
		m.own = append(m.own, sc.last)
	}
	return !atSeam
}

// breakAfter returns where the line break that ends the line at offset
// at, before offset to, ends: the next line's start; -1 if none does.
func (m *Mapper) breakAfter(at, to int) int {
	if !m.cr {
		if i := m.content.IndexByteIn(at, to, '\n'); i >= 0 {
			return i + 1
		}
		return -1
	}
	found := -1
	m.content.Each(at, to, func(b []byte, base int) bool {
		if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
			found = base + i
			return false
		}
		return true
	})
	switch {
	case found < 0:
		return -1
	case m.content.Byte(found) == '\r' && found+1 < m.content.Len() && m.content.Byte(found+1) == '\n':
		return found + 2 // \r\n is one line break
	}
	return found + 1
}

// endBefore returns the offset of the terminator of the line from start
// whose next line starts at next.
func (m *Mapper) endBefore(start, next int) int {
	end := next - 1
	if end > start && m.content.Byte(end) == '\n' && m.content.Byte(end-1) == '\r' {
		end--
	}
	return end
}

// appendMoved appends m's checkpoints of the lines after line i, moved
// by lines lines and delta bytes.
func (m *Mapper) appendMoved(cps []checkpoint, i, lines, delta int) []checkpoint {
	k := m.checkpointOfLine(i) + 1
	n := len(m.shared) + len(m.own)
	at := len(cps)
	cps = slices.Grow(cps, n-k)[:at+n-k] // sized first (see reserve): a loop of appends checks the capacity per line
	for j := k; j < n; j++ {
		cp := m.checkpoint(j)
		cps[at+j-k] = checkpoint{line: cp.line + int32(lines), off: cp.off + int32(delta)}
	}
	return cps
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
func (m *Mapper) Lines() int { return m.lines }

// checkpoint returns checkpoint k.
func (m *Mapper) checkpoint(k int) checkpoint {
	if k < len(m.shared) {
		return m.shared[k]
	}
	return m.own[k-len(m.shared)]
}

// checkpointOfLine returns the index of the last checkpoint at or
// before line i.
func (m *Mapper) checkpointOfLine(i int) int {
	return sort.Search(len(m.shared)+len(m.own), func(k int) bool { return int(m.checkpoint(k).line) > i }) - 1
}

// start returns the offset of line i's first byte.
func (m *Mapper) start(i int) int {
	k := m.checkpointOfLine(i)
	cp := m.checkpoint(k)
	off := int(cp.off)
	for l := int(cp.line); l < i; l++ {
		off = m.breakAfter(off, m.content.Len())
	}
	return off
}

// nextStart returns the start of line i+1, given that line i starts at
// start and checkpoint k is the last at or before it: the next
// checkpoint's, or found by scanning line i, which is then shorter than
// checkpointBytes.
func (m *Mapper) nextStart(k, i, start int) int {
	if k+1 < len(m.shared)+len(m.own) {
		if cp := m.checkpoint(k + 1); int(cp.line) == i+1 {
			return int(cp.off)
		}
	}
	return m.breakAfter(start, m.content.Len())
}

// startAfter returns the start of the line after line i, which starts
// at start, found by scanning line i; for the last line, one past the
// end of the content. It is the Cursor's step, in a walk that reads each
// line anyway; a lookup takes nextStart, which ends a long line at the
// next checkpoint instead of reading it.
func (m *Mapper) startAfter(i, start int) int {
	if i+1 >= m.Lines() {
		return m.content.Len() + 1
	}
	return m.breakAfter(start, m.content.Len())
}

// lineEnd returns the offset of line i's terminator (or of the end of input).
func (m *Mapper) lineEnd(i int) int {
	if i+1 >= m.Lines() {
		return m.content.Len()
	}
	start := m.start(i)
	return m.endBefore(start, m.nextStart(m.checkpointOfLine(i), i, start))
}

// Line returns the 0-based line holding offset.
func (m *Mapper) Line(offset int) int {
	k := sort.Search(len(m.shared)+len(m.own), func(k int) bool { return int(m.checkpoint(k).off) > offset }) - 1
	if k < 0 {
		return -1
	}
	cp := m.checkpoint(k)
	line, start := int(cp.line), int(cp.off)
	for line+1 < m.Lines() {
		next := m.nextStart(k, line, start)
		if next > offset {
			break
		}
		line, start = line+1, next
	}
	return line
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
