package exchange

import (
	"github.com/leanreview/lreview-lsp/internal/jsontext"

	"bytes"
	"unicode/utf16"
)

// A lone surrogate escape ("\ud800" with no low half after it, or a low
// half alone) encodes no character: encoding/json and this reader decode
// it to U+FFFD. The source is what the author wrote, though, and a review
// may quote text that really holds one (a fuzzer's output, a broken UTF-16
// file). So the document keeps it: check warns about it (CodeLoneSurrogate)
// and the writer copies its escape as written instead of writing the
// U+FFFD that Str holds.

// loneSurrogateAt reports whether the string content s holds, at i, a \u
// escape of a surrogate that is not the high half of a valid pair. A low
// half that completes a pair is never seen here: the pair is read as one
// unit starting at its high half.
func loneSurrogateAt(s []byte, i int) bool {
	r1, ok := jsontext.Hex4(s[i:])
	if !ok || !utf16.IsSurrogate(r1) {
		return false
	}
	if r1 < 0xdc00 && i+6 <= len(s) {
		if r2, ok := jsontext.Hex4(s[i+6:]); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			return false
		}
	}
	return true
}

// hasLoneSurrogate reports whether the string content src[start:end]
// holds a lone surrogate escape. It walks escapes by their syntax alone
// (no decoding, no allocation): the writer asks it of every escaped string.
func hasLoneSurrogate(src []byte, start, end int) bool {
	s := src[:end]
	for i := start; i < end; {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 || i+j+1 >= end {
			return false
		}
		i += j
		if s[i+1] != 'u' {
			i += 2 // \\, \" and the like: the next byte is not an escape's start
			continue
		}
		if loneSurrogateAt(s, i) {
			return true
		}
		if r, ok := jsontext.Hex4(s[i:]); ok && utf16.IsSurrogate(r) {
			i += 12 // a valid pair: its low half is not alone
		} else {
			i += 2
		}
	}
	return false
}

// writeContentKeeping writes the string content src[start:end] (without
// quotes) canonically, as writeQuoted would write its decoded value,
// except that each lone surrogate escape is copied as written. cut, when
// not nil, is called at each decoded line feed (which is not written): the
// patch writer splits a string into diff lines there.
func writeContentKeeping(b *bytes.Buffer, src []byte, start, end int, cut func()) {
	s := src[:end]
	for i := start; i < end; {
		if s[i] == '\\' && loneSurrogateAt(s, i) {
			b.Write(s[i : i+6])
			i += 6
			continue
		}
		dec, size := escapeAt(s, i)
		if cut != nil && len(dec) == 1 && dec[0] == '\n' {
			cut()
		} else {
			writeEscaped(b, string(dec))
		}
		i += size
	}
}

// quotedLines returns the lines of the string node n, split as diffLines
// splits its value, each as a JSON string that keeps the lone surrogate
// escapes of n's source. For the patch writer and the fix that splits a
// multi-line element.
func quotedLines(t Text, n *Node) []string {
	start, end := contentRange(n)
	src := t.Slice(start, end)
	start, end = 0, len(src)
	if !n.Escape || !hasLoneSurrogate(src, start, end) {
		var out []string
		for line := range diffLines(n.Str) {
			out = append(out, Quote(line))
		}
		return out
	}
	var out []string
	var line bytes.Buffer
	line.WriteByte('"')
	cut := func() {
		line.WriteByte('"')
		out = append(out, line.String())
		line.Reset()
		line.WriteByte('"')
	}
	writeContentKeeping(&line, src, start, end, cut)
	if line.Len() > 1 || len(out) == 0 {
		cut()
	}
	return out
}

// LineHoldsLoneSurrogate is HoldsLoneSurrogate for the string node patch
// line i comes from, read without making the elements kept in a table.
func (p *Patch) LineHoldsLoneSurrogate(i int) bool {
	n := p.Node
	if p.Form == PatchArray {
		n = p.element(p.LineElem(i))
	}
	if n == nil || n.Kind != KindString || !n.Escape {
		return false
	}
	start, end := contentRange(n)
	return hasLoneSurrogate(p.src.b, start-p.src.at, end-p.src.at)
}

// HoldsLoneSurrogate reports whether the string node n is spelt with a
// lone surrogate escape: its value then holds a U+FFFD that writing it
// back would make real, so a fix that copies the value elsewhere must not.
func HoldsLoneSurrogate(t Text, n *Node) bool {
	if n == nil || n.Kind != KindString || !n.Escape {
		return false
	}
	start, end := contentRange(n)
	return hasLoneSurrogate(t.Slice(start, end), 0, end-start)
}
