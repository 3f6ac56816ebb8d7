package anchor

import "strings"

// How the builder reads the patch's lines: each line's text decoded once
// (LineReader), kept for the next reads of the same line or the one
// before, and hunk bodies by their first byte alone.

// text returns line i without a trailing carriage return: the reader drops
// it from CRLF lines of the string form, but an array element may still
// end with "\r".
func (b *builder) text(i int) string {
	var t string
	switch i {
	case b.at[0]:
		t = b.atText[0]
	case b.at[1]:
		t = b.atText[1]
	default:
		t = b.lr.Text(i)
		b.at[1], b.atText[1] = b.at[0], b.atText[0]
		b.at[0], b.atText[0] = i, t
	}
	return strings.TrimSuffix(t, "\r")
}

// head returns the first byte of line i as text reads the line, and false
// for a line empty that way (a lone "\r" included), without decoding the
// rest: hunk bodies are read by their marker alone.
func (b *builder) head(i int) (byte, bool) {
	c, ok := b.p.LineHead(i)
	if ok && c == '\r' && b.p.LineLen(i) == 1 {
		return 0, false
	}
	return c, ok
}
