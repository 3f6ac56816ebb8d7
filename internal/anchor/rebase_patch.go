package anchor

import (
	"cmp"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The new patch rebase writes: read from a .diff file, cleaned to one diff
// line per element, laid out like the document's own patch.

// SplitDiffFile splits the bytes of a .diff file into patch lines: at
// "\n", without the empty element after a final line feed. A CRLF file
// (every terminated line ends with "\r") loses its carriage returns; in
// any other file a "\r" is part of its line's text. A leading UTF-8 byte
// order mark is dropped.
func SplitDiffFile(data []byte) []string {
	text := strings.TrimPrefix(string(data), "\ufeff")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	terminated := len(lines) - 1 // lines[:terminated] were followed by "\n"
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	crlf := terminated > 0 && !slices.ContainsFunc(lines[:terminated], func(l string) bool { return !strings.HasSuffix(l, "\r") })
	if crlf {
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
	}
	return lines
}

// cleanLines makes newPatch one diff line per element: an element with
// line feeds is split, and a final empty element (the spec forbids it)
// is dropped.
func cleanLines(in []string) []string {
	out := make([]string, 0, len(in))
	for _, l := range in {
		if strings.Contains(l, "\n") {
			out = append(out, strings.Split(strings.TrimSuffix(l, "\n"), "\n")...)
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// renderPatch writes lines as a JSON array laid out like the document:
// with the element and closing indentation of the existing patch array
// when it has one element per line, else one indentation step deeper than
// the patch key in a multi-line document, else on one line.
func renderPatch(src exchange.Text, root, patch *exchange.Node, lines []string) string {
	if len(lines) == 0 {
		return "[]"
	}
	nl := exchange.Newline(src)
	var elemIndent, closeIndent string
	multiline, closeOwnLine := false, true
	switch {
	case patch != nil && patch.Kind == exchange.KindArray && len(patch.Elems()) > 0 &&
		strings.ContainsAny(src.String(patch.Start+1, patch.Elems()[0].Start), "\r\n"):
		multiline = true
		elemIndent = exchange.LineIndent(src, patch.Elems()[0].Start)
		last := patch.Elems()[len(patch.Elems())-1]
		closing := patch.End - 1
		if strings.ContainsAny(src.String(last.End, closing), "\r\n") {
			closeIndent = exchange.LineIndent(src, closing)
		} else {
			closeOwnLine = false
		}
	case len(root.Members()) > 0 && strings.ContainsAny(src.String(root.Start+1, root.Members()[0].KeyStart()), "\r\n"):
		multiline = true
		keyStart := root.Members()[0].KeyStart()
		if patch != nil {
			keyStart = patch.KeyStart()
		}
		closeIndent = exchange.LineIndent(src, keyStart)
		elemIndent = closeIndent + cmp.Or(exchange.LineIndent(src, root.Members()[0].KeyStart()), "  ")
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(',')
			if !multiline {
				b.WriteByte(' ')
			}
		}
		if multiline {
			b.WriteString(nl)
			b.WriteString(elemIndent)
		}
		b.WriteString(jsontext.Quote(l))
	}
	if multiline && closeOwnLine {
		b.WriteString(nl)
		b.WriteString(closeIndent)
	}
	b.WriteByte(']')
	return b.String()
}
