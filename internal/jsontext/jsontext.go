// Package jsontext is the project's one JSON scanner: the scan over a
// string's plain bytes and the decoding of its escapes, the spelling of a
// string's content (AppendStringContent, its inverse), white space, the
// grammar of numbers and literals, the nesting of objects and arrays, and
// a strict skip over a whole value. The transport's streamed envelope
// check and the strict reader of didOpen's and didChange's params are
// built on it; so is the document reader (package exchange), which must
// go on past errors and report each: it steps from value to value with
// its own recovery, and reads every string, number, literal and run of
// white space here.
package jsontext

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// Eight bytes at a time: every byte 0x01 and every byte 0x80.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Plain returns the offset of the first byte of b from i on that a string
// cannot hold as it is: a quote, a backslash or a control character. Most
// of a review's text is plain, so it is read eight bytes at a time.
func Plain(b []byte, i int) int { return scan(b, i, false) }

// PlainASCII is Plain that stops at a byte of a multi-byte character too,
// for a reader that checks the encoding.
func PlainASCII(b []byte, i int) int { return scan(b, i, true) }

func scan(b []byte, i int, ascii bool) int {
	var high uint64 // keeps the high bits of x, which flag bytes from 0x80, when ascii
	if ascii {
		high = highs
	}
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i : i+8])
		// A byte below n sets its high bit in (x - n*ones) &^ x, and a
		// zero byte of x^(c*ones) is a byte equal to c. Borrows can only
		// flag bytes after a real match: the lowest flag is the first
		// byte to stop at. In a review's text that is every dozen bytes
		// or so (each quote, backslash and line break of the file is an
		// escape in its JSON), so it is found from the flags, not by
		// reading the word again byte by byte.
		if m := (x&high | (x-0x20*ones)&^x | hasZero(x^('"'*ones)) | hasZero(x^('\\'*ones))) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 || ascii && c >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

func hasZero(x uint64) uint64 { return (x - ones) &^ x }

// SkipString moves through a string's content from b[i], not decoding it,
// to its closing quote, and returns the offset after the quote; escaped
// says that the string was entered with a backslash pending, one that
// escapes b[i]. When b ends first, it returns len(b), open true, and
// whether a backslash is pending for the next bytes.
func SkipString(b []byte, i int, escaped bool) (next int, open, pending bool) {
	if escaped {
		if i >= len(b) {
			return len(b), true, true
		}
		i++
	}
	for i < len(b) {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			break
		}
		q += i
		if backslashesBefore(b, i, q)%2 == 0 {
			return q + 1, false, false
		}
		i = q + 1
	}
	return len(b), true, backslashesBefore(b, i, len(b))%2 == 1
}

// backslashesBefore counts the backslashes that end b[from:at].
func backslashesBefore(b []byte, from, at int) int {
	n := 0
	for k := at - 1; k >= from && b[k] == '\\'; k-- {
		n++
	}
	return n
}

// simple maps the letter of each one-letter escape to what it stands for.
var simple = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// AppendEscape decodes the escape at the start of s (a backslash) onto
// dst and returns its length in s; 0, with dst as it was, when s does not
// start with a valid escape. A \u escape of a surrogate joins the one
// after it into one character; a lone surrogate decodes to U+FFFD, as
// encoding/json has it.
func AppendEscape(dst, s []byte) ([]byte, int) {
	if len(s) < 2 || s[0] != '\\' {
		return dst, 0
	}
	if c := simple[s[1]]; c != 0 {
		return append(dst, c), 2
	}
	r, size := UnicodeEscape(s)
	if size == 0 {
		return dst, 0
	}
	return utf8.AppendRune(dst, r), size
}

// UnicodeEscape decodes \uXXXX at the start of s, joining a surrogate
// pair when a second escape follows; size is 0 when s has no valid one.
func UnicodeEscape(s []byte) (r rune, size int) {
	r1, ok := Hex4(s)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r1) {
		return r1, 6
	}
	if r2, ok := Hex4(s[6:]); ok {
		if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
			return r, 12
		}
	}
	return utf8.RuneError, 6
}

// Hex4 reads the code unit of \uXXXX at the start of s, without joining
// surrogates.
func Hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var v rune
	for _, c := range s[2:6] {
		d, ok := HexDigit(c)
		if !ok {
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}

// HexDigit returns the value of the hexadecimal digit c.
func HexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Errors of Unescape and AppendString, which say where.
var (
	ErrUnterminated = errors.New("unterminated string")
	ErrControl      = errors.New("control character in a string")
	ErrEscape       = errors.New("invalid escape")
)

// Unescape decodes, strictly and in place, the content of the string
// whose opening quote is just before b[i]: the decoded bytes are written
// over the escaped ones from b[i] on, n of them, and next is the offset
// after the closing quote, or where an error was met. An escape is never
// shorter than what it stands for, so writing never overtakes reading.
func Unescape(b []byte, i int) (n, next int, err error) {
	w := i // where the next decoded byte goes
	start := i
	for {
		j := Plain(b, i)
		if w != i {
			copy(b[w:], b[i:j])
		}
		w += j - i
		i = j
		switch {
		case j >= len(b):
			return w - start, j, ErrUnterminated
		case b[j] == '"':
			return w - start, j + 1, nil
		case b[j] < 0x20:
			return w - start, j, ErrControl
		}
		if j+1 < len(b) && simple[b[j+1]] != 0 {
			// Most escapes of a text, spared the call.
			b[w] = simple[b[j+1]]
			w, i = w+1, i+2
			continue
		}
		out, size := AppendEscape(b[w:w], b[j:])
		if size == 0 {
			return w - start, j, ErrEscape
		}
		w += len(out)
		i += size
	}
}

// AppendString is Unescape onto dst instead of in place: it appends the
// decoded content of the string whose opening quote is just before b[i]
// to dst, and returns the offset in b after the closing quote, or where
// an error was met.
func AppendString(dst, b []byte, i int) (out []byte, next int, err error) {
	end, _, _ := SkipString(b, i, false)
	k := len(dst)
	dst = append(dst, b[i:end]...)
	n, at, err := Unescape(dst, k)
	return dst[:k+n], i + at - k, err
}
