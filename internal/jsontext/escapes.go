package jsontext

import (
	"bytes"
	"unicode/utf16"
)

// UnicodeEscapes walks the escapes of the string content s (without its
// quotes) by their syntax alone, decoding nothing and allocating nothing,
// and calls fn with the offset of each \uXXXX escape, its code unit, and
// whether it is a lone surrogate, until fn returns false. A valid
// surrogate pair is reported once, at its high half, with lone false; a
// "\u" without four hex digits after it is not reported. An escaped
// backslash is skipped with what it escapes: `\\u003c` holds no escape.
// The document check (HTML escapes, lone surrogates) and the writer (which
// keeps a lone surrogate as written) walk strings with it.
func UnicodeEscapes(s []byte, fn func(at int, unit rune, lone bool) bool) {
	for i := 0; ; {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 || i+j+1 >= len(s) {
			return
		}
		i += j
		if s[i+1] != 'u' {
			i += 2 // \\, \" and the like: the next byte starts no escape
			continue
		}
		r, ok := Hex4(s[i:])
		if !ok {
			i += 2
			continue
		}
		lone := LoneSurrogate(s, i)
		if !fn(i, r, lone) {
			return
		}
		if utf16.IsSurrogate(r) && !lone {
			i += 12 // a valid pair: its low half is not alone
		} else {
			i += 6
		}
	}
}

// LoneSurrogate reports whether the string content s holds, at i, a \u
// escape of a surrogate that is not the high half of a valid pair: it
// encodes no character. A low half that completes a pair is never asked
// about when escapes are walked from the string's start (UnicodeEscapes).
func LoneSurrogate(s []byte, i int) bool {
	r1, ok := Hex4(s[i:])
	if !ok || !utf16.IsSurrogate(r1) {
		return false
	}
	if r1 < 0xdc00 && i+6 <= len(s) {
		if r2, ok := Hex4(s[i+6:]); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			return false
		}
	}
	return true
}
