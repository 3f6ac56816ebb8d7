package exchange

// The reader's scalars: numbers, strings and their escapes.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// where formats an offset as "line N" for messages about distant openers.
func (r *reader) where(off int) string {
	if r.lines == nil {
		r.lines = NewMapper(r.src)
	}
	return "line " + strconv.Itoa(r.lines.Line(off)+1)
}

// number reads a number by JSON's grammar (jsontext.Number), and the
// word bytes that follow it, so that "12abc" or "1.e5" is one bad token,
// not two.
func (r *reader) number(n *Node) {
	end, valid := jsontext.Number(r.src, r.pos)
	for end < len(r.src) && isWordByte(r.src[end]) {
		valid = false
		end++
	}
	r.pos, n.End = end, end
	if !valid {
		n.Kind = KindInvalid
		r.fail(n.Start, n.End, fmt.Sprintf("invalid number %q", r.src[n.Start:n.End]))
	}
}

// stringValue reads a string starting at the opening quote. An unterminated
// string ends at the end of its line: JSON strings cannot hold raw line
// breaks, so this is where the writer most likely forgot the quote.
//
// A string without a backslash decodes to its source bytes exactly (raw
// control characters and invalid UTF-8 are kept as they are, and
// reported). The value is copied into the reader's string blocks (see
// keep), or, for a reader that peeks, left in r.peeked.
func (r *reader) stringValue(n *Node) {
	s := r.src
	start := r.pos
	i := start + 1
	i = jsontext.PlainASCII(s, i) // fast path: plain ASCII without escapes
	if i < len(s) && s[i] == '"' {
		n.Str = r.plain(start+1, i)
		r.pos = i + 1
		n.Start, n.End, n.Closed = start, r.pos, true
		return
	}
	// Once an escape has been met, the value is decoded into r.scratch;
	// run is where the source bytes not yet copied there begin, so that
	// the text between escapes is copied in one piece.
	run := start + 1
	end := -1 // where the content ends, before the closing quote if any
	for end < 0 {
		if i >= len(s) {
			r.fail(start, i, "unterminated string")
			end = i
			break
		}
		c := s[i]
		switch {
		case c == '"':
			end = i
			i++
			n.Closed = true
			continue
		case c == '\n' || c == '\r':
			r.fail(start, i, "unterminated string (a raw line break cannot appear inside a JSON string; write \\n)")
			end = i
			continue
		case c < 0x20:
			r.fail(i, i+1, fmt.Sprintf("raw control character U+%04X inside a string; write it as an escape", c))
			i++ // kept as it is
			continue
		case c >= 0x80:
			ru, size := utf8.DecodeRune(s[i:])
			if ru == utf8.RuneError && size == 1 {
				r.fail(i, i+1, fmt.Sprintf("invalid UTF-8 byte 0x%02x inside a string", c))
			}
			i += size // kept as it is
			continue
		case c != '\\':
			i = jsontext.PlainASCII(s, i+1)
			continue
		}
		if !n.Escape {
			n.Escape = true
			r.scratch = r.scratch[:0]
		}
		r.scratch = append(r.scratch, s[run:i]...)
		i, run = r.escape(i)
	}
	r.pos = i
	n.Start, n.End = start, i
	if !n.Escape {
		n.Str = r.plain(start+1, end)
		return
	}
	r.scratch = append(r.scratch, s[run:end]...)
	n.lineFeed = bytes.IndexByte(r.scratch, '\n') >= 0
	n.Str = r.keep(r.scratch)
}

// plain returns the unescaped string content src[start:end] as keep does.
func (r *reader) plain(start, end int) string {
	if end <= start {
		r.peeked = r.src[start:start]
		return ""
	}
	return r.keep(r.src[start:end])
}

// strBlock is the size of the blocks strings are copied into: one
// allocation per block instead of one per string, and none of the size
// class rounding of small allocations.
const strBlock = 64 << 10

// keep returns b as a string in the reader's string blocks. A reader that
// peeks keeps b in r.peeked instead, to be looked at before the next
// value is read, and returns "".
func (r *reader) keep(b []byte) string {
	if r.peek {
		r.peeked = b
		return ""
	}
	return r.strs.keep(b)
}

// stringBlocks copies strings into blocks: one allocation per block
// instead of one per string. A strings.Builder never changes the bytes it
// has handed out, so the strings of one block share its memory. A copy of
// a stringBlocks shares its block until either starts another.
type stringBlocks struct{ b *strings.Builder }

// keep copies b into the block, or a new one when it is full, and returns
// the copy.
func (s *stringBlocks) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > strBlock/8 {
		return string(b) // a large one would waste the rest of a block
	}
	at := s.roomFor(len(b))
	s.b.Write(b)
	return s.b.String()[at:]
}

// keepString is keep for a string.
func (s *stringBlocks) keepString(str string) string {
	if len(str) == 0 || len(str) > strBlock/8 {
		return strings.Clone(str)
	}
	at := s.roomFor(len(str))
	s.b.WriteString(str)
	return s.b.String()[at:]
}

// blockLen returns the room keepString takes for str in a block: none
// for one it gives an allocation of its own.
func blockLen(str string) int {
	if len(str) > strBlock/8 {
		return 0
	}
	return len(str)
}

// reserve starts a block of exactly n bytes, for a caller that knows
// what it will keep.
func (s *stringBlocks) reserve(n int) {
	if n > 0 {
		s.b = new(strings.Builder)
		s.b.Grow(n)
	}
}

// roomFor makes room for n more bytes in the block, starting a new one
// when it is full, and returns where they go. Blocks grow from small, for
// a reader that keeps few strings.
func (s *stringBlocks) roomFor(n int) int {
	if s.b == nil || s.b.Cap()-s.b.Len() < n {
		size := 256
		if s.b != nil {
			size = s.b.Cap() * 2
		}
		s.b = new(strings.Builder)
		s.b.Grow(min(strBlock, max(size, 2*n)))
	}
	return s.b.Len()
}

// escape decodes the escape at s[i] (a backslash) into r.scratch and
// returns the offset after it and where the next run of source bytes to
// copy begins. An invalid one is reported and read as encoding/json
// would not: a \u escape as written, any other the character without its
// backslash.
func (r *reader) escape(i int) (next, run int) {
	s := r.src
	if i+1 >= len(s) || s[i+1] == '\n' || s[i+1] == '\r' {
		// A backslash cannot escape the end of the input or of the line:
		// drop it and let the next round report the string as
		// unterminated there.
		return i + 1, i + 1
	}
	var size int
	if r.scratch, size = jsontext.AppendEscape(r.scratch, s[i:]); size > 0 {
		return i + size, i + size
	}
	if s[i+1] == 'u' {
		end := i + 2
		for end < len(s) && end < i+6 && isHex(s[end]) {
			end++
		}
		r.fail(i, end, "invalid \\u escape: expected four hexadecimal digits")
		return end, i // kept as written
	}
	_, size = utf8.DecodeRune(s[i+1:])
	r.fail(i, i+1+size, fmt.Sprintf("invalid escape %q", s[i:i+1+size]))
	return i + 1 + size, i + 1 // the character, without its backslash
}

func isHex(c byte) bool {
	_, ok := jsontext.HexDigit(c)
	return ok
}
