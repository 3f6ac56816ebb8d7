package exchange

// The reader's scalars: numbers, strings and their escapes.

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// where formats an offset as "line N" for messages about distant openers.
func (r *reader) where(off int) string {
	if r.lines == nil {
		r.lines = NewMapper(r.src)
	}
	return "line " + strconv.Itoa(r.lines.Line(off)+1)
}

func (r *reader) number(n *Node) {
	s := r.src
	i := r.pos
	valid := true
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '0' {
		i++
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			valid = false
			digits()
		}
	} else if digits() == 0 {
		valid = false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			valid = false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			valid = false
		}
	}
	// Swallow trailing word bytes so "12abc" is one bad token, not two.
	for i < len(s) && isWordByte(s[i]) {
		valid = false
		i++
	}
	r.pos = i
	n.End = i
	if !valid {
		n.Kind = KindInvalid
		r.fail(n.Start, n.End, fmt.Sprintf("invalid number %q", s[n.Start:n.End]))
	}
}

// stringValue reads a string starting at the opening quote. An unterminated
// string ends at the end of its line: JSON strings cannot hold raw line
// breaks, so this is where the writer most likely forgot the quote.
func (r *reader) stringValue(n *Node) {
	s := r.src
	start := r.pos
	i := start + 1
	// Fast path: plain ASCII without escapes.
	for i < len(s) {
		c := s[i]
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		i++
	}
	if i < len(s) && s[i] == '"' {
		n.Str = string(s[start+1 : i])
		r.pos = i + 1
		n.Start, n.End, n.Closed = start, r.pos, true
		return
	}
	var b []byte
	b = append(b, s[start+1:i]...)
	for {
		if i >= len(s) {
			r.fail(start, i, "unterminated string")
			break
		}
		c := s[i]
		if c == '"' {
			i++
			n.Closed = true
			break
		}
		if c == '\n' || c == '\r' {
			r.fail(start, i, "unterminated string (a raw line break cannot appear inside a JSON string; write \\n)")
			break
		}
		if c < 0x20 {
			r.fail(i, i+1, fmt.Sprintf("raw control character U+%04X inside a string; write it as an escape", c))
			b = append(b, c)
			i++
			continue
		}
		if c >= 0x80 {
			ru, size := utf8.DecodeRune(s[i:])
			if ru == utf8.RuneError && size == 1 {
				r.fail(i, i+1, fmt.Sprintf("invalid UTF-8 byte 0x%02x inside a string", c))
			}
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		n.Escape = true
		if i+1 >= len(s) || s[i+1] == '\n' || s[i+1] == '\r' {
			// A backslash cannot escape the end of the input or of the
			// line: drop it and let the next round report the string as
			// unterminated there.
			i++
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
			i += 2
		case 'b':
			b = append(b, '\b')
			i += 2
		case 'f':
			b = append(b, '\f')
			i += 2
		case 'n':
			b = append(b, '\n')
			i += 2
		case 'r':
			b = append(b, '\r')
			i += 2
		case 't':
			b = append(b, '\t')
			i += 2
		case 'u':
			ru, size := decodeUnicodeEscape(s[i:])
			if size == 0 {
				end := i + 2
				for end < len(s) && end < i+6 && isHex(s[end]) {
					end++
				}
				r.fail(i, end, "invalid \\u escape: expected four hexadecimal digits")
				b = append(b, s[i:end]...)
				i = end
				continue
			}
			b = utf8.AppendRune(b, ru)
			i += size
		default:
			_, size := utf8.DecodeRune(s[i+1:])
			r.fail(i, i+1+size, fmt.Sprintf("invalid escape %q", s[i:i+1+size]))
			b = append(b, s[i+1:i+1+size]...)
			i += 1 + size
		}
	}
	r.pos = i
	n.Start, n.End = start, i
	n.Str = string(b)
}

// decodeUnicodeEscape decodes \uXXXX at the start of s, joining a surrogate
// pair when a second escape follows. size is 0 when s has no valid escape.
// A lone surrogate decodes to U+FFFD, as encoding/json does.
func decodeUnicodeEscape(s []byte) (rune, int) {
	r1, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r1) {
		if r2, ok := hex4(s[6:]); ok && len(s) >= 12 {
			if ru := utf16.DecodeRune(r1, r2); ru != utf8.RuneError {
				return ru, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r1, 6
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var v rune
	for _, c := range s[2:6] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
