package exchange

import (
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// escapeAt returns the decoded bytes and the source length of the string
// content unit at s[i] (an escape sequence, a UTF-8 sequence or a byte),
// decoding as stringValue does. s must end where the string's content
// ends.
func escapeAt(s []byte, i int) (decoded []byte, size int) {
	c := s[i]
	if c == '\\' && i+1 >= len(s) {
		return nil, 1 // an unterminated string's last backslash decodes to nothing
	}
	if c != '\\' {
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRune(s[i:])
			return s[i : i+size], size
		}
		return s[i : i+1], 1
	}
	if dec, size := jsontext.AppendEscape(nil, s[i:]); size > 0 {
		return dec, size
	}
	if s[i+1] == 'u' {
		return s[i : i+2], 2
	}
	_, size = utf8.DecodeRune(s[i+1:]) // an invalid escape of "é" keeps all of "é"
	return s[i+1 : i+1+size], 1 + size
}

// contentRange returns the source range of a string node's content, quotes
// excluded (an unterminated string has no closing quote).
func contentRange(n *Node) (int, int) {
	end := n.End
	if n.Closed {
		end--
	}
	return n.Start + 1, end
}

// span is a line of a string node: the source range of its escaped text
// and the range of its decoded text in the node's Str.
type span struct {
	start, end         int
	textStart, textEnd int
}

// splitLines calls yield with each line of the string node n, as
// lineSegments splits them. It decodes as the reader did, so it only counts
// the decoded bytes: the text is n.Str's, never built again.
func splitLines(w window, n *Node, yield func(span)) {
	start, end := contentRange(n)
	if !n.Escape {
		yield(span{start, end, 0, len(n.Str)})
		return
	}
	src := w.b[:end-w.at]
	lines := 0
	line := span{start: start}
	d := 0     // decoded bytes so far
	crAt := -1 // source offset of a carriage return just decoded
	for i := start; i < end; {
		dec, size := escapeAt(src, i-w.at)
		if len(dec) == 1 && dec[0] == '\n' {
			line.end, line.textEnd = i, d
			if crAt >= 0 {
				line.end, line.textEnd = crAt, d-1
			}
			yield(line)
			lines++
			i += size
			d++
			line = span{start: i, textStart: d}
			crAt = -1
			continue
		}
		crAt = -1
		if len(dec) == 1 && dec[0] == '\r' {
			crAt = i
		}
		d += len(dec)
		i += size
	}
	// Decoded text, not source, decides: the lone backslash that ends an
	// unterminated string decodes to nothing and makes no line.
	if d > line.textStart || lines == 0 {
		line.end, line.textEnd = end, d
		yield(line)
	}
}
