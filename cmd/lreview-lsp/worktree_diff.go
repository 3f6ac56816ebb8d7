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
	noEOL := f.Text != "" && !strings.HasSuffix(f.Text, "\n")
	for i := 0; i < len(sorted); {
		// A hunk takes the changes whose contexts touch.
		j := i + 1
		for j < len(sorted) && sorted[j].Start-diffContext <= sorted[j-1].End+diffContext+1 {
			j++
		}
		first := max(1, sorted[i].Start-diffContext)
		last := min(f.Lines(), sorted[j-1].End+diffContext)
		var body strings.Builder
		oldLine := func(marker byte, n int) {
			fmt.Fprintf(&body, "%c%s\n", marker, f.Line(n))
			if n == f.Lines() && noEOL {
				body.WriteString(noNewlineMarker)
			}
		}
		oldN, newN := 0, 0
		n := first
		for _, sg := range sorted[i:j] {
			for ; n < sg.Start; n++ {
				oldLine(' ', n)
				oldN, newN = oldN+1, newN+1
			}
			for ; n <= sg.End; n++ {
				oldLine('-', n)
				oldN++
			}
			for _, l := range sg.Lines {
				fmt.Fprintf(&body, "+%s\n", l)
				newN++
			}
			// The block replaces the last line without its terminator.
			if sg.End == f.Lines() && noEOL && len(sg.Lines) > 0 {
				body.WriteString(noNewlineMarker)
			}
		}
		for ; n <= last; n++ {
			oldLine(' ', n)
			oldN, newN = oldN+1, newN+1
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n%s", first, oldN, first+delta, newN, body.String())
		delta += newN - oldN
		i = j
	}
	return b.String()
}
