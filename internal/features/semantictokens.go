package features

import (
	"bytes"
	"cmp"
	"slices"
	"sort"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
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
	// Line is the token's index among the Patch's lines.
	Line int
}

// Tokens classifies every patch line that belongs to a file diff: headers,
// hunk headers (only their "@@ ... @@" part), and body lines by kind. The
// ranges cover the line's escaped text inside the JSON string, so an
// escape inside a line shifts nothing.
func Tokens(ix *anchor.Index, src exchange.Text) []Token {
	out := make([]Token, 0, ix.Patch.LineCount())
	AllTokens(ix, src, func(t Token) { out = append(out, t) })
	sortTokens(out)
	return out
}

// AllTokens yields the tokens of Tokens without collecting them, for a
// caller that encodes them as they come (a large review has one or
// more a line of its patch): in the order the index's files and hunks give them,
// which is source order but for a patch whose files or hunks the index
// holds out of order. ok says whether they came in source order; a
// caller that needs it takes Tokens when they did not.
func AllTokens(ix *anchor.Index, src exchange.Text, yield func(Token)) (ok bool) {
	ok, last := true, -1
	for _, f := range ix.Files {
		fileTokens(ix.Patch, f, src, 0, ix.Patch.LineCount(), func(t Token) {
			ok = ok && t.Start >= last
			last = t.Start
			yield(t)
		})
	}
	return ok
}

// TokensIn returns the tokens of Tokens that overlap span, classifying
// only the hunks around it: a range request asks for the lines an editor
// shows, a few out of a large patch.
func TokensIn(ix *anchor.Index, src exchange.Text, span exchange.Range) []Token {
	p := ix.Patch
	lo := sort.Search(p.LineCount(), func(i int) bool { return p.LineEnd(i) >= span.Start })
	hi := sort.Search(p.LineCount(), func(i int) bool { return p.LineStart(i) > span.End })
	var out []Token
	first := sort.Search(len(ix.Files), func(i int) bool { return ix.Files[i].Last >= lo })
	for _, f := range ix.Files[first:] {
		if f.First >= hi {
			break
		}
		fileTokens(ix.Patch, f, src, lo, hi, func(t Token) { out = append(out, t) })
	}
	sortTokens(out)
	from := sort.Search(len(out), func(i int) bool { return out[i].End > span.Start })
	to := sort.Search(len(out), func(i int) bool { return out[i].Start >= span.End })
	return out[from:max(from, to)]
}

// fileTokens emits the tokens of f's lines, from the hunk whose lines
// reach patch line lo to the one that begins at or after hi (all of them
// for 0 and p.LineCount()): a file's hunks are in patch order.
func fileTokens(p *exchange.Patch, f *anchor.FileDiff, src exchange.Text, lo, hi int, emit func(Token)) {
	hunks := f.Hunks
	k := sort.Search(len(hunks), func(i int) bool { return hunks[i].LastLine() >= lo })
	next := f.First
	if k > 0 {
		next = hunks[k-1].LastLine() + 1
	}
	emitHeaders := func(upto int) {
		for ; next < upto && next <= f.Last; next++ {
			if start, end := p.LineStart(next), p.LineEnd(next); end > start {
				emit(Token{Start: start, End: end, Kind: TokenHeader, Line: next})
			}
		}
	}
	for _, h := range hunks[k:] {
		emitHeaders(h.Header)
		if h.Header >= hi {
			return
		}
		start, end := p.LineStart(h.Header), p.LineEnd(h.Header)
		emit(Token{Start: start, End: hunkHeaderEnd(src, start, end), Kind: TokenHunk, Line: h.Header})
		next = h.Header + 1
		for j, dl := range h.Lines {
			i := h.PatchLine(j)
			next = i + 1
			start, end := p.LineStart(i), p.LineEnd(i)
			if end == start {
				continue // an empty context line has no text to colour
			}
			emit(Token{Start: start, End: end, Kind: lineToken(dl.Kind()), Line: i})
		}
	}
	emitHeaders(min(f.Last+1, max(next, hi)))
}

// sortTokens puts tokens in source order. Those of the index's files and
// hunks, in patch order, are in it already but for a patch the index
// holds out of order: a check of each pair costs less than a sort.
func sortTokens(toks []Token) {
	if !slices.IsSortedFunc(toks, compareTokens) {
		slices.SortStableFunc(toks, compareTokens)
	}
}

func compareTokens(a, b Token) int { return cmp.Compare(a.Start, b.Start) }

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
func hunkHeaderEnd(src exchange.Text, start, end int) int {
	text := src.Slice(start, end)
	if !bytes.HasPrefix(text, []byte("@@")) {
		return end
	}
	if i := bytes.Index(text[2:], []byte("@@")); i >= 0 {
		return start + 2 + i + 2
	}
	return end
}
