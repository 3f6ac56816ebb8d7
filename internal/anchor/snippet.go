package anchor

import (
	"github.com/leanreview/lreview-lsp/internal/exchange"

	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The spec's snippet comparison (review-exchange.md, "Decision — snippet
// comparison"): CRLF to LF, strip one leading diff marker when the snippet
// line carries one that fits the side, trim each line, collapse runs of
// blanks. This file holds that normalisation; it is shared by the match
// check (resolve.go) and the drift search (drift.go), which must agree on
// what "the same text" means or a fix would move a comment to a place that
// still mismatches.
//
// Two choices the spec leaves open:
//   - "Collapse runs of blanks" is applied both to runs of blank lines (one
//     blank line stands for any number) and to runs of spaces and tabs
//     inside a line (one space), so that re-aligned code (gofmt moving a
//     column) still matches.
//   - Blank lines before the snippet's first and after its last non-blank
//     line are dropped: a snippet that ends with "\n" quotes the same lines.

// normLine trims s and collapses each inner run of white space to a single
// space. Most code lines have no such run, and for them the result shares
// s's memory: normalising a large patch must not allocate per line.
func normLine(s string) string {
	i, j := 0, len(s)
	for i < j && byteClass[s[i]]-classSpace < 2 {
		i++
	}
	for j > i && byteClass[s[j-1]]-classSpace < 2 {
		j--
	}
	s = s[i:j]
	if s != "" && (s[0] >= utf8.RuneSelf || s[len(s)-1] >= utf8.RuneSelf) {
		s = strings.TrimFunc(s, unicode.IsSpace)
	}
	for i := 0; i < len(s); i++ {
		switch byteClass[s[i]] {
		case classSpace:
			if s[i+1] == ' ' { // s is trimmed: a space is never last
				return collapseSpace(s)
			}
		case classOtherSpace:
			return collapseSpace(s)
		case classSpaceLead:
			if r, _ := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
				return collapseSpace(s)
			}
		}
	}
	return s
}

// byteClass sorts bytes for normLine's scan, one table lookup a byte.
var byteClass = func() (t [256]uint8) {
	t[' '] = classSpace
	for _, c := range "\t\n\v\f\r" {
		t[c] = classOtherSpace
	}
	// The lead bytes of every non-ASCII space (U+0085, U+00A0, U+1680,
	// U+2000–U+205F, U+3000): only they need decoding.
	for _, c := range []byte{0xC2, 0xE1, 0xE2, 0xE3} {
		t[c] = classSpaceLead
	}
	return t
}()

const (
	classOther      uint8 = iota
	classSpace            // ' '
	classOtherSpace       // the other ASCII white space (classSpace+1)
	classSpaceLead
)

func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// markerFits reports whether a snippet line's first byte is a diff marker
// that belongs to the image of side: "+" lines are only in RIGHT, "-" lines
// only in LEFT, context lines (" ") in both.
func markerFits(c byte, side Side) bool {
	switch c {
	case '+':
		return side == Right
	case '-':
		return side == Left
	case ' ':
		return true
	}
	return false
}

// snippetVariants returns the readings of snippet against side to try, in
// order: diff markers that fit side stripped, then (when it differs) the
// text as written — a line whose own text starts with "-" or "+"
// ("--flag", "++i") is indistinguishable from a marked one. Each reading
// is the snippet's lines normalised, blank runs collapsed, leading and
// trailing blank lines dropped (joinSnippet). It returns nothing for an
// empty or blank snippet, which the spec says is never a mismatch.
func snippetVariants(snippet string, side Side) [][]string {
	stripped := joinSnippet(nil, snippet, side, true)
	if len(stripped) == 0 {
		return nil
	}
	vs := [][]string{strings.Split(string(stripped), "\n")}
	if asIs := joinSnippet(nil, snippet, side, false); len(asIs) > 0 && !bytes.Equal(asIs, stripped) {
		vs = append(vs, strings.Split(string(asIs), "\n"))
	}
	return vs
}

// weakSnippet reports whether normalised snippet lines hold no letter or
// digit: "}" or ");" occur everywhere, so the spec forbids re-anchoring by
// them.
func weakSnippet(lines []string) bool {
	for _, l := range lines {
		for _, r := range l {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return false
			}
		}
	}
	return true
}

// SnippetMatches reports whether snippet matches lines, the diff lines of
// f a comment on side is anchored to, with the spec's normalisation. An
// empty or blank snippet always matches.
//
// It runs for every comment of every version, so it compares the readings
// of snippetVariants, each joined with "\n", with the anchored lines
// normalised and joined, blank runs collapsed, without building their
// slices: the joined texts are built in buffers on the stack.
func SnippetMatches(snippet string, side Side, p *exchange.Patch, f *FileDiff, lines []ImageLine) bool {
	var sbuf [512]byte
	stripped := joinSnippet(sbuf[:0], snippet, side, true)
	if len(stripped) == 0 {
		return true
	}
	var abuf [1024]byte
	anchored := abuf[:0]
	prevBlank := false
	for i := range lines {
		n := normLine(f.Content(p, lines[i].Patch))
		if n == "" && prevBlank {
			continue // a blank run counts as one blank line
		}
		prevBlank = n == ""
		if i > 0 {
			anchored = append(anchored, '\n')
		}
		anchored = append(anchored, n...)
	}
	if bytes.Contains(anchored, stripped) {
		return true
	}
	var qbuf [512]byte
	asIs := joinSnippet(qbuf[:0], snippet, side, false)
	return len(asIs) > 0 && !bytes.Equal(asIs, stripped) && bytes.Contains(anchored, asIs)
}

// joinSnippet appends to b the snippet's lines read against side (strip:
// with fitting diff markers removed), normalised, blank runs collapsed,
// leading and trailing blank lines dropped, joined with "\n": the one
// spelling of a snippet's reading, built without slices.
func joinSnippet(b []byte, snippet string, side Side, strip bool) []byte {
	blank := false // a blank line is pending between non-blank ones
	for rest, more := snippet, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if more && strings.HasSuffix(l, "\r") {
			l = l[:len(l)-1] // "\r\n" is "\n"
		}
		if strip && l != "" && markerFits(l[0], side) {
			l = l[1:]
		}
		n := normLine(l)
		switch {
		case n == "":
			blank = len(b) > 0 // leading blank lines are dropped, runs collapsed
		case len(b) == 0:
			b = append(b, n...)
		default:
			if blank {
				b = append(b, '\n')
			}
			b = append(append(b, '\n'), n...)
			blank = false
		}
	}
	return b
}

// SnippetOf is the snippet the spec asks writers to store for lines of f:
// each line's text without its marker, trimmed, joined with "\n". It is
// what the "update snippet from the patch" fix writes.
func SnippetOf(p *exchange.Patch, f *FileDiff, lines []ImageLine) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = strings.TrimSpace(f.Content(p, l.Patch))
	}
	if len(parts) == 1 {
		// Join would return the line itself, a view of the text of this
		// version, which a fix kept for later versions would keep alive.
		return strings.Clone(parts[0])
	}
	return strings.Join(parts, "\n")
}
