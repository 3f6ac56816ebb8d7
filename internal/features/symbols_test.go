package features

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestSymbols outlines hvSrc: the directories busiest first, files with
// their hunks, then the comments with their state and anchor.
func TestSymbols(t *testing.T) {
	an := hvAnalysis(t, hvSrc)
	var got []string
	var walk func(depth int, syms []Symbol)
	walk = func(depth int, syms []Symbol) {
		for _, s := range syms {
			if s.Range.Start > s.Selection.Start || s.Selection.End > s.Range.End {
				t.Errorf("%s: selection %v outside range %v", s.Name, s.Selection, s.Range)
			}
			got = append(got, fmt.Sprintf("%s%d %s · %s%s", strings.Repeat("  ", depth), s.Kind, s.Name, s.Detail, map[bool]string{true: " (dismissed)"}[s.Dismissed]))
			walk(depth+1, s.Children)
		}
	}
	// The outline as the server sends it: the patch's files grouped by
	// directory, busiest first, with their hunks; then the comments.
	syms := PatchSymbols(an, Outline(an.Anchors, an.Doc))
	if g, ok := CommentSymbols(an); ok {
		syms = append(syms, g)
	}
	walk(0, syms)
	want := []string{
		"0 internal/api/ · 3 changed lines, 3 active comments",
		"  1 internal/api/handler.go · 3 changed lines, 3 active comments",
		"    2 @@ -70,4 +70,5 @@ · func Handle(input Input) (Output, error) {",
		"0 docs/ · 2 changed lines, 0 active comments",
		"  1 docs/new.md · new · 2 changed lines, 0 active comments",
		"    2 @@ -0,0 +1,2 @@ · ",
		"3 comments · 6 active, 1 dismissed",
		"  4 c1 · internal/api/handler.go RIGHT 72 · active · `err` is discarded.",
		"  4 c2 · internal/api/handler.go RIGHT 80 (does not resolve) · active · Returns too early.",
		"  4 c3 · internal/api/handler.go LEFT 72 · dismissed · Old code. (dismissed)",
		"  4 c4 · docs/new.md LEFT 1 (does not resolve) · MIDDLE · Where was it?",
		"  4 c5 · internal/api/handler.go RIGHT 71-73 · active · Whole block.",
		"  4 #6 ·   0 · active · No anchor yet.",
		"  4 c7 · internal/api/handler.go UP 72 · active · Bad side.",
		"  4 c8 · internal/api/handlr.go RIGHT 72 (does not resolve) · active · Typo.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols:\ngot\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFoldsAndGutter: a fold per file, per hunk and per comment; a gutter
// hint per body line, only inside the span asked for.
func TestFoldsAndGutter(t *testing.T) {
	an := hvAnalysis(t, hvSrc)
	if got, want := len(Folds(an)), 2+2+len(an.Doc.Review.Comments); got != want {
		t.Errorf("got %d folds, want %d (2 files, 2 hunks, every comment)", got, want)
	}
	all := Gutter(an, exchange.Range{Start: 0, End: len(an.Doc.Text.Bytes())})
	if len(all) != 8 {
		t.Fatalf("got %d gutter hints, want one per body line, 8", len(all))
	}
	first := all[0]
	if got := strings.TrimSpace(first.Label); got != "70 70" || first.Tooltip != "LEFT 70 · RIGHT 70" || an.Doc.Text.Bytes()[first.At] != '"' {
		t.Errorf("first hint: got %q %q at %q, want \"70 70\", \"LEFT 70 · RIGHT 70\" at the element's quote", first.Label, first.Tooltip, an.Doc.Text.Bytes()[first.At])
	}
	if some := Gutter(an, exchange.Range{Start: all[1].At, End: all[2].At}); len(some) != 2 {
		t.Errorf("got %d hints in a span over two lines, want 2", len(some))
	}
}

// TestDismissedHints greys out c3, the one dismissed comment, and only it.
func TestDismissedHints(t *testing.T) {
	an := hvAnalysis(t, hvSrc)
	ds := DismissedHints(an.Doc)
	if len(ds) != 1 || ds[0].Code != CodeDismissed || !ds[0].Unnecessary || !strings.Contains(string(an.Doc.Text.Bytes()[ds[0].Range.Start:ds[0].Range.End]), `"id": "c3"`) {
		t.Errorf("got %+v, want one Unnecessary dismissed hint on c3", ds)
	}
}
