package features

import (
	"bytes"
	"sort"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// TokenKind indexes the semantic-token legend of diagnostics.md.
type TokenKind uint8

const (
	TokenHeader TokenKind = iota
	TokenHunk
	TokenAdded
	TokenRemoved
	TokenContext
	TokenNoNewline
)

// Token is a byte range of the source that shows a diff line of one kind.
// Tokens are in source order and never overlap.
type Token struct {
	Start, End int
	Kind       TokenKind
	// Line is the token's index in Patch.Lines.
	Line int
}

// Tokens classifies every patch line that belongs to a file diff: headers,
// hunk headers (only their "@@ ... @@" part), and body lines by kind. The
// ranges cover the line's escaped text inside the JSON string, so an
// escape inside a line shifts nothing.
func Tokens(ix *anchor.Index, src []byte) []Token {
	p := ix.Patch
	out := make([]Token, 0, len(p.Lines))
	for _, f := range ix.Files {
		next := f.First
		emitHeaders := func(upto int) {
			for ; next < upto && next <= f.Last; next++ {
				l := p.Lines[next]
				if l.End > l.Start {
					out = append(out, Token{Start: l.Start, End: l.End, Kind: TokenHeader, Line: next})
				}
			}
		}
		for _, h := range f.Hunks {
			emitHeaders(h.Header)
			hl := p.Lines[h.Header]
			out = append(out, Token{Start: hl.Start, End: hunkHeaderEnd(src, hl.Start, hl.End), Kind: TokenHunk, Line: h.Header})
			next = h.Header + 1
			for _, dl := range h.Lines {
				l := p.Lines[dl.Patch]
				next = int(dl.Patch) + 1
				if l.End == l.Start {
					continue // an empty context line has no text to colour
				}
				out = append(out, Token{Start: l.Start, End: l.End, Kind: lineToken(dl.Kind), Line: int(dl.Patch)})
			}
		}
		emitHeaders(f.Last + 1)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func lineToken(k anchor.LineKind) TokenKind {
	switch k {
	case anchor.Added:
		return TokenAdded
	case anchor.Removed:
		return TokenRemoved
	case anchor.NoNewline:
		return TokenNoNewline
	}
	return TokenContext
}

// hunkHeaderEnd returns the end of the "@@ -a,b +c,d @@" part of a hunk
// header, so that the section text after it is not coloured as the range.
func hunkHeaderEnd(src []byte, start, end int) int {
	text := src[start:end]
	if !bytes.HasPrefix(text, []byte("@@")) {
		return end
	}
	if i := bytes.Index(text[2:], []byte("@@")); i >= 0 {
		return start + 2 + i + 2
	}
	return end
}
