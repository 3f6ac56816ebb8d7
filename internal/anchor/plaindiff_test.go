package anchor

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func TestRepositoryPath(t *testing.T) {
	tests := []struct {
		old, new, want string
		ok             bool
	}{
		{"blns.json.orig", "blns.json", "blns.json", true},
		{"src/x.c~", "src/x.c", "src/x.c", true},
		{"old/x", "new/x", "x", true},
		{"a/assets/download.md", "b/assets/download.md", "assets/download.md", true},
		{"/tmp/gnu/a/other/README.md", "/tmp/gnu/b/other/README.md", "other/README.md", true},
		{"a/x.orig", "b/x", "x", true},
		{"x", "x", "", false},         // nothing to reconcile
		{"foo.c", "bar.c", "", false}, // two files
		{"a/foo.c", "a/bar.c", "", false},
		{"a/b/x", "c/d/x", "", false}, // two folders apart
		{"a/x", "b/c/x", "", false},   // as many segments, or no path
		{".orig", "", "", false},
		{"x/.orig", "x/", "", false},
		{"x.orig", "y", "", false},
	}
	for _, tc := range tests {
		got, ok := repositoryPath(tc.old, tc.new)
		if got != tc.want || ok != tc.ok {
			t.Errorf("repositoryPath(%q, %q): got %q, %v; want %q, %v", tc.old, tc.new, got, ok, tc.want, tc.ok)
		}
	}
}

// realDiffs returns the real diffs of ../shared/data/realdiff*: their
// names and lines. Absent (a clone without the shared data), the test
// is skipped, except under CI, where it must run.
func realDiffs(t *testing.T) map[string][]string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "data", "realdiff*"))
	out := map[string][]string{}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.diff"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Base(dir)+"/"+filepath.Base(f)] = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		}
	}
	if len(out) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no real diffs in ../shared/data/realdiff*: CI must have them")
		}
		t.Skip("no real diffs in ../shared/data/realdiff* (the shared data beside the repository): skipped")
	}
	return out
}

// firstImageLine returns the number of f's first line in image s, or 0.
func firstImageLine(f *FileDiff, s Side) int {
	for i := range f.Hunks {
		if first, last := f.span(s, i); last >= first {
			return first
		}
	}
	return 0
}

// TestPlainDiffNamesOnRealDiffs anchors, in every real diff, a comment on
// the first line of each image of each file, naming the file by every name
// it has: its path must resolve on either side of a plain diff's file
// without a word; a name the header writes (a/x, x.orig) resolves too,
// with header-path and its fix to the path; no name holds a timestamp.
// Git's diffs keep their names as they were: nothing is written.
func TestPlainDiffNamesOnRealDiffs(t *testing.T) {
	diffs := realDiffs(t)
	for name, lines := range diffs {
		t.Run(name, func(t *testing.T) {
			plain := !strings.HasPrefix(lines[0], "diff --git ")
			ix := BuildIndex(&ixArrayDoc(t, lines).Review.Patch)
			var comments []string
			type want struct{ path, code, fixTo string }
			var wants []want
			for _, f := range ix.Files {
				for _, n := range append([]string{f.OldName, f.NewName}, f.Written[:]...) {
					if strings.Contains(n, "\t") || strings.Contains(n, "1970-01-01") {
						t.Errorf("file name %q holds a timestamp", n)
					}
				}
				if !plain && f.Written != [2]string{} {
					t.Errorf("git diff: %q got written names %q, want none", f.DisplayName(), f.Written)
				}
				if !plain || f.Binary || f.Status != Modified {
					continue
				}
				names := []string{f.NewName}
				for _, w := range f.Written {
					if w != "" && !slices.Contains(names, w) {
						names = append(names, w)
					}
				}
				for s := Left; s <= Right; s++ {
					n := firstImageLine(f, s)
					if n == 0 {
						continue
					}
					for _, p := range names {
						comments = append(comments, cm(fmt.Sprintf(`"id": "c%d", "path": %s, "side": %q, "start_line": %d`, len(comments)+1, exchange.Quote(p), s, n)))
						w := want{path: p}
						if p != f.NewName {
							w.code, w.fixTo = exchange.CodeHeaderPath, f.NewName
						}
						wants = append(wants, w)
					}
				}
			}
			if plain && len(comments) == 0 {
				t.Fatal("a plain diff without a text file to comment on")
			}
			_, a := analyze(t, reviewJSON(lines, comments...), Options{})
			for i, r := range a.Resolutions {
				w := wants[i]
				var codes []string
				for _, d := range a.byComment[i] {
					codes = append(codes, d.Code)
					if d.Code == exchange.CodeHeaderPath && (len(d.Fixes) != 1 || !d.Fixes[0].Safe || d.Fixes[0].Edits[0].NewText != exchange.Quote(w.fixTo)) {
						t.Errorf("%s %s %d: got header-path fixes %+v, want one safe fix to %q", w.path, r.Side, r.Comment.StartLine, d.Fixes, w.fixTo)
					}
				}
				wantCodes := []string(nil)
				if w.code != "" {
					wantCodes = []string{w.code}
				}
				if !r.Resolved || !slices.Equal(codes, wantCodes) {
					t.Errorf("%s %s %d: got resolved %v (%s), diagnostics %q; want resolved, %q", w.path, r.Side, r.Comment.StartLine, r.Resolved, r.Reason, codes, wantCodes)
				}
			}
		})
	}
}

// TestPlainDiffBlnsEveryLine is the case of the report: on `diff -u
// blns.json.orig blns.json`, every line of both images, named blns.json,
// resolves: none is orphaned for want of a LEFT image.
func TestPlainDiffBlnsEveryLine(t *testing.T) {
	lines, ok := realDiffs(t)["realdiff2/gnu-diff-u-blns-json.diff"]
	if !ok {
		t.Fatal("realdiff2/gnu-diff-u-blns-json.diff is missing")
	}
	ix := BuildIndex(&ixArrayDoc(t, lines).Review.Patch)
	if len(ix.Files) != 1 || ix.Files[0].OldName != "blns.json" || ix.Files[0].NewName != "blns.json" || ix.Files[0].Written != [2]string{"blns.json.orig", ""} {
		t.Fatalf("got files %+v, want one, blns.json on both sides, written blns.json.orig on LEFT", ix.Files)
	}
	f := ix.Files[0]
	var comments []string
	for s := Left; s <= Right; s++ {
		for h := range f.Hunks {
			first, last := f.span(s, h)
			for n := first; n <= last; n++ {
				comments = append(comments, cm(fmt.Sprintf(`"id": "c%d", "path": "blns.json", "side": %q, "start_line": %d`, len(comments)+1, s, n)))
			}
		}
	}
	if len(comments) < 40 {
		t.Fatalf("got %d lines, want the diff's 40 and more", len(comments))
	}
	_, a := analyze(t, reviewJSON(lines, comments...), Options{})
	if len(a.Diagnostics) > 0 {
		t.Errorf("got %d diagnostics, first %q; want none", len(a.Diagnostics), a.Diagnostics[0].Message)
	}
}

// TestPlainDiffRuNPathsEitherSide is the other case of the report: on
// `diff -ruN a b`, assets/download.md is known on both sides, and
// a/assets/download.md and b/assets/download.md name it on both sides,
// with the hint, not as an unknown path.
func TestPlainDiffRuNPathsEitherSide(t *testing.T) {
	lines, ok := realDiffs(t)["realdiff2/gnu-diff-ruN-csnotes-assets-other.diff"]
	if !ok {
		t.Fatal("realdiff2/gnu-diff-ruN-csnotes-assets-other.diff is missing")
	}
	var comments []string
	for _, side := range []string{"LEFT", "RIGHT"} {
		for _, p := range []string{"assets/download.md", "a/assets/download.md", "b/assets/download.md"} {
			comments = append(comments, cm(fmt.Sprintf(`"id": "c%d", "path": %q, "side": %q, "start_line": 1`, len(comments)+1, p, side)))
		}
	}
	_, a := analyze(t, reviewJSON(lines, comments...), Options{})
	var got []string
	for i, r := range a.Resolutions {
		s := fmt.Sprintf("%s %s: resolved %v", r.Comment.Path, r.Side, r.Resolved)
		for _, d := range a.byComment[i] {
			s += " " + d.Code + ": " + d.Message
		}
		got = append(got, s)
	}
	hint := func(p string) string {
		return fmt.Sprintf(`header-path: %q is how the diff's header writes "assets/download.md": name the file by its path, "assets/download.md"`, p)
	}
	want := []string{
		"assets/download.md LEFT: resolved true",
		"a/assets/download.md LEFT: resolved true " + hint("a/assets/download.md"),
		"b/assets/download.md LEFT: resolved true " + hint("b/assets/download.md"),
		"assets/download.md RIGHT: resolved true",
		"a/assets/download.md RIGHT: resolved true " + hint("a/assets/download.md"),
		"b/assets/download.md RIGHT: resolved true " + hint("b/assets/download.md"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
