package features

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

func wtAnalysis(t *testing.T, shift int, changed string) (*anchor.Analysis, *worktree.Tree) {
	t.Helper()
	root, _ := testreviews.WorktreeRepo(t, shift, changed)
	tree, err := worktree.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return anchor.CheckDocument(exchange.Parse([]byte(testreviews.WorktreeReview)), nil), tree
}

// at is an offset inside the n-th occurrence (from 0) of s in the
// review: its second byte.
func at(t *testing.T, s string, n int) int {
	t.Helper()
	src := testreviews.WorktreeReview
	off := 0 // one past the start of the occurrence found last
	for ; n >= 0; n-- {
		i := strings.Index(src[off:], s)
		if i < 0 {
			t.Fatalf("%q not in the review", s)
		}
		off += i + 1
	}
	return off
}

func TestSourceLineAndComment(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shift int
		// want lines: the "+    _ = err" patch line, the removed line,
		// the hunk header, c1 (start–end), c2.
		line, removed, hunk, c1, c1End, c2 int
	}{
		{"as reviewed", 0, 73, 72, 70, 72, 73, 72},
		{"shifted", 5, 78, 77, 75, 77, 78, 77},
	} {
		t.Run(tc.name, func(t *testing.T) {
			an, tree := wtAnalysis(t, tc.shift, "")
			for _, c := range []struct {
				what string
				off  int
				want int
			}{
				{"added line", at(t, `"+    _ = err`, 0), tc.line},
				{"removed line", at(t, `"-    result`, 0), tc.removed},
				{"hunk header", at(t, `"@@ -70`, 0), tc.hunk},
				{"diff --git", at(t, `"diff --git`, 0), tc.hunk},
			} {
				loc, ok := SourceLine(an, tree, c.off)
				if !ok || loc.Start != c.want {
					t.Errorf("%s: got line %d (%v), want %d", c.what, loc.Start, loc.Err, c.want)
				}
			}
			if _, ok := SourceLine(an, tree, at(t, `"c1"`, 0)); ok {
				t.Errorf("a comment's member is not a patch line")
			}
			loc, ok := SourceOfComment(an, tree, at(t, `"Return the error`, 0))
			if !ok || loc.Start != tc.c1 || loc.End != tc.c1End {
				t.Errorf("c1: got %d–%d (%v), want %d–%d", loc.Start, loc.End, loc.Err, tc.c1, tc.c1End)
			}
			loc, ok = SourceOfComment(an, tree, at(t, `"LEFT"`, 0))
			if !ok || loc.Start != tc.c2 {
				t.Errorf("c2: got %d (%v), want %d", loc.Start, loc.Err, tc.c2)
			}
			if got := WorktreeDiagnostics(an, tree); len(got) != 0 {
				t.Errorf("diagnostics: got %v, want none", got)
			}
		})
	}
}

func TestWorktreeDiagnostics(t *testing.T) {
	an, tree := wtAnalysis(t, 0, "    result, err := calculate(input, opts)")
	ds := WorktreeDiagnostics(an, tree)
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics (%v), want 1 source-changed", len(ds), ds)
	}
	// The file still holds half of the hunk: the tree is the reviewed
	// revision, edited since.
	d := ds[0]
	if want := "internal/api/handler.go no longer holds RIGHT 72–73 of the review: the code changed since"; d.Code != CodeSourceChanged || d.Message != want {
		t.Errorf("got %s %q, want source-changed %q", d.Code, d.Message, want)
	}
	if got, want := testreviews.WorktreeReview[d.Range.Start:d.Range.End], "72"; got != want {
		t.Errorf("range: got %q, want %q", got, want)
	}
	if len(d.Related) != 1 || d.Related[0].FileStart != 73 || !strings.HasSuffix(d.Related[0].File, "handler.go") {
		t.Errorf("related: got %+v, want the partial match at handler.go:73", d.Related)
	}
}

func TestWorktreeDiffers(t *testing.T) {
	an, tree := wtAnalysis(t, 0, "")
	if err := os.WriteFile(filepath.Join(tree.Root(), "internal/api/handler.go"), []byte("package api\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := WorktreeDiagnostics(an, tree)
	if len(ds) != 1 || ds[0].Code != CodeWorktreeDiffers || !strings.Contains(ds[0].Message, "0 of the 1 files") {
		t.Fatalf("got %v, want one worktree-differs naming 0 of 1", ds)
	}
	if got := testreviews.WorktreeReview[ds[0].Range.Start:ds[0].Range.End]; got != `"patch"` {
		t.Errorf("range: got %q, want the patch member's key", got)
	}
}

func TestSourceLinks(t *testing.T) {
	an, tree := wtAnalysis(t, 2, "")
	var got []string
	for _, l := range SourceLinks(an, tree) {
		got = append(got, testreviews.WorktreeReview[l.Range.Start:l.Range.End]+" → "+filepath.Base(l.File)+":"+strconv.Itoa(l.Line))
	}
	want := []string{
		`"diff --git a/internal/api/handler.go b/internal/api/handler.go" → handler.go:72`,
		`"+++ b/internal/api/handler.go" → handler.go:72`,
		`"internal/api/handler.go" → handler.go:74`,
		`"internal/api/handler.go" → handler.go:74`,
		`"internal/api/handler.go" → handler.go:76`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSuggestion(t *testing.T) {
	an, tree := wtAnalysis(t, 1, "")
	s, err := SuggestionOf(an, tree, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Apply c1's suggestion to internal/api/handler.go:73–74"; s.Title != want {
		t.Errorf("title: got %q, want %q", s.Title, want)
	}
	data := s.File.Text
	got := data[:s.Edit.Start] + s.Edit.NewText + data[s.Edit.End:]
	want := strings.Replace(testreviews.WorktreeSource(1, ""), "    _ = err // 🚀 later\n", "    if err != nil {\n        return Output{}, err\n    }\n", 1)
	if got != want {
		t.Errorf("applied: got\n%s\nwant\n%s", got, want)
	}
	if _, err := SuggestionOf(an, tree, 2); err == nil || !strings.Contains(err.Error(), "dismissed") {
		t.Errorf("c3 (dismissed): got %v, want refused as not active", err)
	}
	if got := SuggestionsIn(an, tree, 0, len(testreviews.WorktreeReview)); len(got) != 1 || got[0].Name != "c1" {
		t.Errorf("SuggestionsIn: got %d, want c1's alone", len(got))
	}
	hover := SourceHover(an, tree, at(t, `"Return the error`, 0))
	if want := "**Working tree:** `internal/api/handler.go:73–74`, moved 1 line down."; hover != want {
		t.Errorf("hover: got %q, want %q", hover, want)
	}
}

func TestSuggestionNotOfferedOnChangedLines(t *testing.T) {
	an, tree := wtAnalysis(t, 0, "    result, err := calculate(input, opts)")
	if _, err := SuggestionOf(an, tree, 0); err == nil {
		t.Fatal("a suggestion was offered on lines the tree no longer holds")
	}
	hover := SourceHover(an, tree, at(t, `"Return the error`, 0))
	for _, want := range []string{"no longer holds RIGHT 72–73", "The suggestion cannot be applied: internal/api/handler.go no longer holds RIGHT 72–73 of the review."} {
		if !strings.Contains(hover, want) {
			t.Errorf("hover %q lacks %q", hover, want)
		}
	}
}

func TestSuggestionBlock(t *testing.T) {
	for _, tc := range []struct {
		body string
		want []string
		ok   bool
	}{
		{"x\n```suggestion\na\nb\n```\n", []string{"a", "b"}, true},
		{"```suggestion\r\n  a\r\n```", []string{"  a"}, true},
		{"```suggestion\n```", []string{}, true},
		{"````suggestion\n```\nx\n````", []string{"```", "x"}, true},
		{"```go\nx\n```", nil, false},
		{"```suggestion\nunclosed", nil, false},
		{"```suggestion\n1\n```\n```suggestion\n2\n```", []string{"2"}, true},
	} {
		got, ok := SuggestionBlock(tc.body)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("SuggestionBlock(%q): got %q, %v, want %q, %v", tc.body, got, ok, tc.want, tc.ok)
		}
	}
}

// TestNothingOutsideTheRoot: comments whose path leaves the working tree
// (every form) are neither linked nor located, and the file outside is
// never read, even where a file of that name exists.
func TestNothingOutsideTheRoot(t *testing.T) {
	outer := t.TempDir()
	root := filepath.Join(outer, "repo")
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outer, "x"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outer, "x"), filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	paths := []string{"../../etc/passwd", "/etc/passwd", "out", "a/../../x"}
	var lines, comments []string
	for i, p := range paths {
		lines = append(lines, fmt.Sprintf("%q, %q, %q, %q, %q, %q", "diff --git a/"+p+" b/"+p, "--- a/"+p, "+++ b/"+p, "@@ -1 +1 @@", "-old", "+secret"))
		comments = append(comments, fmt.Sprintf(`{"id": "c%d", "path": %q, "side": "RIGHT", "start_line": 1, "body": "x\n`+"```suggestion\\nmine\\n```"+`"}`, i+1, p))
	}
	src := `{"leanreview_review": 1, "patch": [` + strings.Join(lines, ", ") + `], "comments": [` + strings.Join(comments, ", ") + `]}`
	an := anchor.CheckDocument(exchange.Parse([]byte(src)), nil)
	tree, err := worktree.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if links := SourceLinks(an, tree); len(links) != 0 {
		t.Errorf("links: got %+v, want none", links)
	}
	for ci, p := range paths {
		if loc := tree.LocateComment(&an.Doc.Review.Patch, an.Anchors.Resolutions[ci]); loc.Found() || loc.File != nil {
			t.Errorf("%s: located at %d in %v, want not read", p, loc.Start, loc.File)
		}
		if _, err := SuggestionOf(an, tree, ci); err == nil {
			t.Errorf("%s: a suggestion was offered", p)
		}
	}
	if ds := WorktreeDiagnostics(an, tree); len(ds) != 1 || ds[0].Code != CodeWorktreeDiffers {
		t.Errorf("diagnostics: got %v, want one worktree-differs (no file of the patch is in the tree)", ds)
	}
}

// TestRenamedFileUsesTheNewName: a renamed file is looked for under its
// new name, whichever name the comment uses.
func TestRenamedFileUsesTheNewName(t *testing.T) {
	src := `{"leanreview_review": 1, "patch": ["diff --git a/old.go b/new.go", "similarity index 90%", "rename from old.go", "rename to new.go", "--- a/old.go", "+++ b/new.go", "@@ -1,2 +1,2 @@", " package x", "-var a = 1", "+var a = 2"],
	"comments": [{"id": "c1", "path": "old.go", "side": "RIGHT", "start_line": 2, "body": "x"}]}`
	an := anchor.CheckDocument(exchange.Parse([]byte(src)), nil)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "new.go"), []byte("package x\n\nvar a = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, _ := worktree.Open(root)
	if loc := tree.LocateComment(&an.Doc.Review.Patch, an.Anchors.Resolutions[0]); loc.Path != "new.go" || loc.Start != 3 {
		t.Errorf("got %s:%d (%v), want new.go:3", loc.Path, loc.Start, loc.Err)
	}
}

// TestSuggestionKeepsCRLF: a file with CRLF line ends gets the
// suggestion's lines with CRLF ends too.
func TestSuggestionKeepsCRLF(t *testing.T) {
	an, tree := wtAnalysis(t, 0, "")
	crlf := strings.ReplaceAll(testreviews.WorktreeSource(0, ""), "\n", "\r\n")
	if err := os.WriteFile(filepath.Join(tree.Root(), "internal/api/handler.go"), []byte(crlf), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := SuggestionOf(an, tree, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := s.File.Text[:s.Edit.Start] + s.Edit.NewText + s.File.Text[s.Edit.End:]
	want := strings.Replace(crlf, "    _ = err // 🚀 later\r\n", "    if err != nil {\r\n        return Output{}, err\r\n    }\r\n", 1)
	if got != want {
		t.Errorf("applied: got %q, want %q", got[len(got)-160:], want[len(want)-160:])
	}
}
