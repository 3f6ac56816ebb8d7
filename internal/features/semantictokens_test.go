package features

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestTokensInMatchesTokens: for any span of any review, the tokens
// TokensIn classifies are those of a walk over every line that overlap
// it, and Tokens gives the walk's.
func TestTokensInMatchesTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for name, src := range reviewsForTokens(t) {
		doc := exchange.Parse(src)
		an := anchor.CheckDocument(doc, nil)
		all := walkTokens(an.Index, doc.Text.Bytes())
		if got := Tokens(an.Index, doc.Text); fmt.Sprint(got) != fmt.Sprint(all) {
			t.Fatalf("%s: Tokens gives %d tokens, the walk over every line %d", name, len(got), len(all))
		}
		for range 200 {
			a, b := rng.IntN(len(src)+1), rng.IntN(len(src)+1)
			span := exchange.Range{Start: min(a, b), End: min(max(a, b), min(a, b)+rng.IntN(3000))}
			var want []Token
			for _, tok := range all {
				if tok.End > span.Start && tok.Start < span.End {
					want = append(want, tok)
				}
			}
			if got := TokensIn(an.Index, doc.Text, span); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s, span %v: got %d tokens, want %d\ngot  %v\nwant %v", name, span, len(got), len(want), got, want)
			}
		}
	}
}

// walkTokens classifies every line of every file diff in order, the
// plain way: the header lines before, between and after the hunks.
func walkTokens(ix *anchor.Index, src []byte) []Token {
	var out []Token
	p := ix.Patch
	for _, f := range ix.Files {
		next := f.First
		headers := func(upto int) {
			for ; next < upto && next <= f.Last; next++ {
				if start, end := p.LineStart(next), p.LineEnd(next); end > start {
					out = append(out, Token{Start: start, End: end, Kind: TokenHeader, Line: next})
				}
			}
		}
		for _, h := range f.Hunks {
			headers(h.Header)
			start, end := p.LineStart(h.Header), p.LineEnd(h.Header)
			out = append(out, Token{Start: start, End: hunkHeaderEnd(exchange.NewText(src), start, end), Kind: TokenHunk, Line: h.Header})
			next = h.Header + 1
			for j, dl := range h.Lines {
				i := h.PatchLine(j)
				next = i + 1
				if start, end := p.LineStart(i), p.LineEnd(i); end > start {
					out = append(out, Token{Start: start, End: end, Kind: lineToken(dl.Kind()), Line: i})
				}
			}
		}
		headers(f.Last + 1)
	}
	slices.SortFunc(out, func(a, b Token) int { return a.Start - b.Start })
	return out
}

// reviewsForTokens returns the project's reviews, from the examples and
// the test archives, and generated ones with many files and hunks.
func reviewsForTokens(t *testing.T) map[string][]byte {
	out := testreviews.Golden(t)
	// File diffs without hunks (a rename, a binary file) end in header
	// lines; junk between hunks is classified as a header.
	out["handmade/headers"] = []byte(`{"leanreview_review": 1, "patch": [
  "diff --git a/old.go b/new.go",
  "similarity index 100%",
  "rename from old.go",
  "rename to new.go",
  "diff --git a/img.png b/img.png",
  "Binary files a/img.png and b/img.png differ",
  "diff --git a/x.go b/x.go",
  "--- a/x.go",
  "+++ b/x.go",
  "@@ -1,2 +1,2 @@ func x() {",
  " a",
  "-b",
  "+c",
  "stray text between hunks",
  "@@ -9 +9 @@",
  "-d",
  "+e"
], "comments": []}`)
	for seed := range int64(4) {
		cfg := reviewgen.Config{Files: 1 + int(seed)*5, DiffLines: 300 + int(seed)*400, Comments: 5, Seed: seed}
		out[fmt.Sprintf("generated/%d", seed)] = reviewgen.Generate(cfg)
	}
	return out
}

// BenchmarkTokensIn100Lines classifies a hundred lines in the middle of
// the 8 MB review, as a range request after each keystroke does.
func BenchmarkTokensIn100Lines(b *testing.B) {
	doc := exchange.Parse(reviewgen.Generate(reviewgen.Default()))
	an := anchor.CheckDocument(doc, nil)
	mid := len(doc.Text.Bytes()) / 2
	span := exchange.Range{Start: mid, End: mid + 100*80}
	for b.Loop() {
		if len(TokensIn(an.Index, doc.Text, span)) == 0 {
			b.Fatal("no tokens")
		}
	}
}
