package anchor

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
	"github.com/leanreview/lreview-lsp/internal/refdata"
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

// realDiffs returns the real diffs, by name, as lines: the fetched or
// shared ones and those refdata makes with git (see refdata.RealDiffs).
func realDiffs(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for name, data := range refdata.RealDiffs(t) {
		out[name] = refdata.Lines(data)
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
// (the side it has, for a file `diff -N` dates the epoch on the other)
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
				if !plain || f.Binary {
					continue
				}
				path := f.DisplayName()
				names := []string{path}
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
						comments = append(comments, cm(fmt.Sprintf(`"id": "c%d", "path": %s, "side": %q, "start_line": %d`, len(comments)+1, jsontext.Quote(p), s, n)))
						w := want{path: p}
						if p != path {
							w.code, w.fixTo = exchange.CodeHeaderPath, path
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
					if d.Code == exchange.CodeHeaderPath && (len(d.Fixes) != 1 || !d.Fixes[0].Safe || d.Fixes[0].Edits[0].NewText != jsontext.Quote(w.fixTo)) {
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
		// Its names and lines are the shared diff's, not refdata's own.
		refdata.Missing(t, "data/realdiff2/gnu-diff-u-blns-json.diff")
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
		// Its names and lines are the shared diff's, not refdata's own.
		refdata.Missing(t, "data/realdiff2/gnu-diff-ruN-csnotes-assets-other.diff")
	}
	var comments []string
	for _, side := range []string{"LEFT", "RIGHT"} {
		for _, p := range []string{"assets/download.md", "a/assets/download.md", "b/assets/download.md"} {
			comments = append(comments, cm(fmt.Sprintf(`"id": "c%d", "path": %q, "side": %q, "start_line": 1`, len(comments)+1, p, side)))
		}
	}
	// Dated the epoch on one side, as `diff -N` writes a file missing
	// there: new, and deleted.
	for _, p := range []string{"assets/内推.md", "other/README.md", "b/other/README.md"} {
		for _, side := range []string{"LEFT", "RIGHT"} {
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
		`assets/内推.md LEFT: resolved false orphaned-anchor: "assets/内推.md" is a new file: it has no LEFT (old) image to comment on`,
		"assets/内推.md RIGHT: resolved true",
		"other/README.md LEFT: resolved true",
		`other/README.md RIGHT: resolved false orphaned-anchor: "other/README.md" is a deleted file: it has no RIGHT (new) image to comment on`,
		`b/other/README.md LEFT: resolved true header-path: "b/other/README.md" is how the diff's header writes "other/README.md": name the file by its path, "other/README.md"`,
		`b/other/README.md RIGHT: resolved false orphaned-anchor: "b/other/README.md" is a deleted file: it has no RIGHT (new) image to comment on header-path: "b/other/README.md" is how the diff's header writes "other/README.md": name the file by its path, "other/README.md"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPlainDiffNames resolves paths against small plain diffs of each
// shape, and against a git diff, whose names stay as they were.
func TestPlainDiffNames(t *testing.T) {
	hunk := []string{"@@ -1,2 +1,2 @@", " keep", "-old", "+new"}
	patch := func(old, new string) []string { return append([]string{"--- " + old, "+++ " + new}, hunk...) }
	tests := []struct {
		name  string
		patch []string
		path  string
		side  string
		want  string // "ok", or the codes with orphaned-anchor's reason
	}{
		{"backup ~, path on LEFT", patch("x.c~\t2024-01-01 00:00:00.000000000 +0100", "x.c\t2024-01-02 00:00:00.000000000 +0100"), "x.c", "LEFT", "ok"},
		{"backup ~, written on RIGHT", patch("x.c~", "x.c"), "x.c~", "RIGHT", "header-path"},
		{"folders, path on LEFT", patch("old/lib/x.c", "new/lib/x.c"), "lib/x.c", "LEFT", "ok"},
		{"folders, new name on LEFT", patch("old/lib/x.c", "new/lib/x.c"), "new/lib/x.c", "LEFT", "header-path"},
		{"folders and backup", patch("a/x.c.orig", "b/x.c"), "x.c", "LEFT", "ok"},
		{"two files: own side's written name", patch("a/foo.c", "b/bar.c"), "a/foo.c", "LEFT", "header-path"},
		{"two files: the other side's", patch("a/foo.c", "b/bar.c"), "a/foo.c", "RIGHT", "orphaned-anchor no-such-image"},
		{"two files: the other side's name", patch("foo.c", "bar.c"), "bar.c", "LEFT", "orphaned-anchor no-such-image"},
		{"git: a/ is no name", append([]string{"diff --git a/x.c b/x.c", "--- a/x.c", "+++ b/x.c"}, hunk...), "a/x.c", "LEFT", "orphaned-anchor unknown-path"},
		{"git: path", append([]string{"diff --git a/x.c b/x.c", "--- a/x.c", "+++ b/x.c"}, hunk...), "x.c", "LEFT", "ok"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, a := analyze(t, reviewJSON(tc.patch, cm(fmt.Sprintf(`"id": "c1", "path": %q, "side": %q, "start_line": 2`, tc.path, tc.side))), Options{})
			var got []string
			for _, d := range a.Diagnostics {
				got = append(got, strings.TrimSpace(d.Code+" "+d.Reason))
			}
			g := strings.Join(got, ", ")
			if g == "" {
				g = "ok"
			}
			if g != tc.want {
				t.Errorf("got %s, want %s", g, tc.want)
			}
		})
	}
}
