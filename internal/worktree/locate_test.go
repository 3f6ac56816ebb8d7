package worktree

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

func analyzed(t *testing.T) *anchor.Analysis {
	t.Helper()
	an := anchor.CheckDocument(exchange.Parse([]byte(testreviews.WorktreeReview)), nil)
	for _, d := range an.Diagnostics {
		t.Fatalf("the fixture has a diagnostic: %s", d.Message)
	}
	return an
}

func TestLocateComment(t *testing.T) {
	an := analyzed(t)
	for _, tc := range []struct {
		name       string
		source     string
		start, end int
		moved      int
		err        error
	}{
		{"as reviewed", testreviews.WorktreeSource(0, ""), 72, 73, 0, nil},
		{"shifted", testreviews.WorktreeSource(2, ""), 74, 75, 2, nil},
		{"re-indented", strings.Replace(testreviews.WorktreeSource(0, ""), "    result, err", "\tresult,  err", 1), 72, 73, 0, nil},
		{"changed", testreviews.WorktreeSource(0, "    result, err := calculate(input, opts)"), 0, 0, 0, ErrChanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "internal/api/handler.go"), tc.source)
			tree, _ := Open(root)
			loc := tree.LocateComment(an.Index.Patch, an.Anchors.Resolutions[0])
			if loc.Start != tc.start || loc.End != tc.end || !errors.Is(loc.Err, tc.err) {
				t.Fatalf("got %d–%d (%v), want %d–%d (%v)", loc.Start, loc.End, loc.Err, tc.start, tc.end, tc.err)
			}
			if loc.Found() && loc.Moved() != tc.moved {
				t.Errorf("moved: got %d, want %d", loc.Moved(), tc.moved)
			}
			// The LEFT comment is on the removed line: where it was removed.
			left := tree.LocateComment(an.Index.Patch, an.Anchors.Resolutions[1])
			if left.Start != tc.start || left.End != tc.start {
				t.Errorf("LEFT comment: got %d–%d, want %d", left.Start, left.End, tc.start)
			}
			holding, total := tree.Holding(an.Index)
			// Changed, the file still holds most of the hunk's lines.
			if holding != 1 || total != 1 {
				t.Errorf("Holding: got %d of %d, want 1 of 1", holding, total)
			}
		})
	}
}

func TestLocateCommentWithoutFile(t *testing.T) {
	an := analyzed(t)
	tree, _ := Open(t.TempDir())
	loc := tree.LocateComment(an.Index.Patch, an.Anchors.Resolutions[0])
	if loc.Found() || loc.Err == nil || !strings.Contains(loc.Err.Error(), "no such file") {
		t.Errorf("got %+v, want not found: no such file", loc)
	}
}

func TestLocateDiffLine(t *testing.T) {
	an := analyzed(t)
	root := t.TempDir()
	write(t, filepath.Join(root, "internal/api/handler.go"), testreviews.WorktreeSource(3, ""))
	tree, _ := Open(root)
	f := an.Index.Files[0]
	// Hunk lines: ctx 70, defer 71, removed, result 72, _ = err 73, return 74.
	for i, want := range []int{73, 74, 75, 75, 76, 77} {
		if got := tree.LocateDiffLine(an.Index.Patch, f, 0, i); got.Start != want {
			t.Errorf("line %d of the hunk: got %d (%v), want %d", i, got.Start, got.Err, want)
		}
	}
}

// A comment on blank lines is placed by the line of its hunk after them
// (or before them at the hunk's end): blank lines are everywhere.
func TestLocateBlankLines(t *testing.T) {
	const blankReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/a.go b/a.go",
    "--- a/a.go",
    "+++ b/a.go",
    "@@ -10,3 +10,5 @@",
    " func A() {",
    "+",
    "+\tx := 1",
    " }",
    "+"
  ],
  "comments": [
    {"id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 11, "body": "x"},
    {"id": "c2", "path": "a.go", "side": "RIGHT", "start_line": 14, "body": "y"}
  ]
}`
	an := anchor.CheckDocument(exchange.Parse([]byte(blankReview)), nil)
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 9+3; i++ { // shifted down by 3
		fmt.Fprintf(&b, "// %d\n", i)
	}
	b.WriteString("func A() {\n\n\tx := 1\n}\n\n")
	write(t, filepath.Join(root, "a.go"), b.String())
	tree, _ := Open(root)
	for i, want := range []int{14, 17} {
		if got := tree.LocateComment(an.Index.Patch, an.Anchors.Resolutions[i]); got.Start != want || got.End != want {
			t.Errorf("c%d: got %d–%d (%v), want %d", i+1, got.Start, got.End, got.Err, want)
		}
	}
}

// TestHoldingPinned: a pinned tree reads the patch's files ahead, on
// several goroutines, and counts the same as a tree read file by file.
func TestHoldingPinned(t *testing.T) {
	var patch []string
	root := t.TempDir()
	for i := range 6 {
		name := fmt.Sprintf("f%d.go", i)
		patch = append(patch, fmt.Sprintf("%q, %q, %q, %q, %q", "diff --git a/"+name+" b/"+name, "--- a/"+name, "+++ b/"+name, "@@ -1 +1 @@", fmt.Sprintf("+var v%d = %d", i, i)))
		if i%3 != 0 { // f0 and f3 are another revision
			write(t, filepath.Join(root, name), fmt.Sprintf("var v%d = %d\n", i, i))
		}
	}
	an := anchor.CheckDocument(exchange.Parse([]byte(`{"leanreview_review": 1, "patch": [`+strings.Join(patch, ", ")+`]}`)), nil)
	tree, _ := Open(root)
	for _, tr := range []*Tree{tree, tree.Pinned()} {
		if holding, total := tr.Holding(an.Index); holding != 4 || total != 6 {
			t.Errorf("got %d of %d, want 4 of 6", holding, total)
		}
	}
}
