package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// diffContext is the context lines around each change of `apply
// --dry-run`'s diff, as diff -u and git have.
const diffContext = 3

// noNewlineMarker follows a line that ends the file without a
// terminator, as diff -u and git write it.
const noNewlineMarker = "\\ No newline at end of file\n"

// suggestionDiff is the unified diff of applying sgs (which do not
// overlap) to f: each suggestion replaces lines Start–End with its Lines,
// so the changes are known and need no diff algorithm.
func suggestionDiff(f *worktree.File, sgs []features.Suggestion) string {
	sorted := slices.Clone(sgs)
	slices.SortFunc(sorted, func(a, b features.Suggestion) int { return a.Start - b.Start })
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", f.Path, f.Path)
	delta := 0 // new lines minus old lines before the hunk
	for i := 0; i < len(sorted); {
		// A hunk takes the changes whose contexts touch.
		j := i + 1
		for j < len(sorted) && sorted[j].Start-diffContext <= sorted[j-1].End+diffContext+1 {
			j++
		}
		first := max(1, sorted[i].Start-diffContext)
		last := min(f.Lines(), sorted[j-1].End+diffContext)
		var body strings.Builder
		oldN, newN := 0, 0
		n := first
		for _, sg := range sorted[i:j] {
			for ; n < sg.Start; n++ {
				diffLine(&body, ' ', f.Line(n), terminator(f, n))
				oldN, newN = oldN+1, newN+1
			}
			for ; n <= sg.End; n++ {
				diffLine(&body, '-', f.Line(n), terminator(f, n))
				oldN++
			}
			// The block's lines are joined by the file's newline; the last
			// keeps the terminator of the last line it replaces.
			for k, l := range sg.Lines {
				term := f.Newline()
				if k == len(sg.Lines)-1 {
					term = terminator(f, sg.End)
				}
				diffLine(&body, '+', l, term)
				newN++
			}
		}
		for ; n <= last; n++ {
			diffLine(&body, ' ', f.Line(n), terminator(f, n))
			oldN, newN = oldN+1, newN+1
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n%s", first, oldN, first+delta, newN, body.String())
		delta += newN - oldN
		i = j
	}
	return b.String()
}

// terminator is what ends line n of f: "\r\n", "\n", or "" for a last
// line without one.
func terminator(f *worktree.File, n int) string {
	return f.Text[f.LineEnd(n):f.LineStart(n+1)]
}

// diffLine writes one line of a hunk with its own terminator, as diff -u
// does (a CRLF line keeps its CR), and the marker after a line without one.
func diffLine(b *strings.Builder, marker byte, text, term string) {
	b.WriteByte(marker)
	b.WriteString(text)
	if term == "" {
		b.WriteString("\n" + noNewlineMarker)
		return
	}
	b.WriteString(term)
}
