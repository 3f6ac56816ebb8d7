package jsontext

import "unicode/utf8"

// AppendStringContent appends s spelt as the content of a JSON string,
// without its quotes, as encoding/json spells it without HTML escaping:
// a quote and a backslash escaped, control characters as \b, \f, \n, \r,
// \t or \u00XX, U+2028 and U+2029 as \u2028 and \u2029 (JavaScript
// cannot read them raw), an invalid byte as \ufffd, the rest as it is.
// Everything the project writes is spelt so: the canonical writer, the
// fixes' edits, the generated reviews.
func AppendStringContent(dst []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, `\b`...)
			case '\f':
				dst = append(dst, `\f`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

const hexDigits = "0123456789abcdef"

// AppendQuote appends s as a JSON string, quotes included, spelt as
// AppendStringContent spells it.
func AppendQuote(dst []byte, s string) []byte {
	return append(AppendStringContent(append(dst, '"'), s), '"')
}

// Quote returns s as a JSON string spelt as leanreview writes it: Go's
// encoding/json with HTML escaping off. It is the project's one string
// encoder (with AppendQuote and AppendStringContent): the canonical
// writer, every edit a fix or a feature makes, the generated reviews.
func Quote(s string) string {
	return string(AppendQuote(make([]byte, 0, len(s)+2), s))
}
