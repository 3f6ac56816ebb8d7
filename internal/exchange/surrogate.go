package exchange

import (
	"bytes"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// A lone surrogate escape ("\ud800" with no low half after it, or a low
// half alone) encodes no character: encoding/json and this reader decode
// it to U+FFFD. The source is what the author wrote, though, and a review
// may quote text that really holds one (a fuzzer's output, a broken UTF-16
// file). So the document keeps it: check warns about it (CodeLoneSurrogate)
// and the writer copies its escape as written instead of writing the
// U+FFFD that Str holds.

// hasLoneSurrogate reports whether the string content src[start:end]
// holds a lone surrogate escape: the writer asks it of every escaped
// string.
func hasLoneSurrogate(src []byte, start, end int) bool {
	found := false
	jsontext.UnicodeEscapes(src[start:end], func(_ int, _ rune, lone bool) bool {
		found = lone
		return !lone
	})
	return found
}

// writeContentKeeping writes the string content src[start:end] (without
// quotes) canonically, as jsontext.Quote would write its decoded value,
// except that each lone surrogate escape is copied as written. cut, when
// not nil, is called at each decoded line feed (which is not written): the
// patch writer splits a string into diff lines there.
func writeContentKeeping(b *bytes.Buffer, src []byte, start, end int, cut func()) {
	s := src[:end]
	for i := start; i < end; {
		if s[i] == '\\' && jsontext.LoneSurrogate(s, i) {
			b.Write(s[i : i+6])
			i += 6
			continue
		}
		dec, size := escapeAt(s, i)
		if cut != nil && len(dec) == 1 && dec[0] == '\n' {
			cut()
		} else {
			b.Write(jsontext.AppendStringContent(b.AvailableBuffer(), string(dec)))
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
			out = append(out, jsontext.Quote(line))
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

// LineHoldsLoneSurrogate reports whether the string node patch line i
// comes from is spelt with a lone surrogate escape: its value then holds
// a U+FFFD that writing it back would make real, so a fix that copies the
// line elsewhere must not. It reads the node without making the elements
// kept in a table.
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
