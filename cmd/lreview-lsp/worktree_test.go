package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shift   int
		changed string
		want    string
	}{
		{"as reviewed", 0, "", "c1 internal/api/handler.go:72\nc2 internal/api/handler.go:72\nc3 internal/api/handler.go:74\n"},
		{"shifted", 4, "", "c1 internal/api/handler.go:76\nc2 internal/api/handler.go:76\nc3 internal/api/handler.go:78\n"},
		{"changed", 0, "\tresult := mustCalculate(input)", "c1 not found: the code changed since the review: the file no longer holds these lines\nc2 not found: the code changed since the review: the file no longer holds these lines\nc3 internal/api/handler.go:74\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, review := testreviews.WorktreeRepo(t, tc.shift, tc.changed)
			code, out, errs := runCmd(t, "locate", review)
			if code != 0 || out != tc.want {
				t.Errorf("locate: exit %d, stdout\n%s(stderr %q)\nwant exit 0, stdout\n%s", code, out, errs, tc.want)
			}
		})
	}
}

func TestLocateJSONAndRoot(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 2, "")
	moved := filepath.Join(t.TempDir(), "x.review.json")
	if err := os.Rename(review, moved); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCmd(t, "locate", moved); code != 2 || !strings.Contains(errs, "no working tree") {
		t.Errorf("without a root: exit %d, stderr %q; want 2, \"no working tree\"", code, errs)
	}
	code, out, errs := runCmd(t, "locate", "--root", root, "--format", "json", moved)
	var got []located
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got) != 3 {
		t.Fatalf("locate --format json: exit %d, stdout %s, stderr %s", code, out, errs)
	}
	if g := got[0]; g.ID != "c1" || g.Line != 74 || g.EndLine != 75 || g.Moved != 2 || !g.Found {
		t.Errorf("c1: got %+v, want lines 74–75 moved 2", g)
	}
}

func TestApply(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 1, "")
	source := filepath.Join(root, "internal", "api", "handler.go")
	before, _ := os.ReadFile(source)
	code, out, errs := runCmd(t, "apply", "--dry-run", review)
	// The suggestion keeps its first line: the diff shows it as context.
	wantDiff := "--- a/internal/api/handler.go\n+++ b/internal/api/handler.go\n@@ -71,6 +71,8 @@\n" +
		"     ctx := context.Background()\n     defer cancel(ctx)\n     result, err := calculate(input)\n-    _ = err // 🚀 later\n" +
		"+    if err != nil {\n+        return Output{}, err\n+    }\n     return result, nil\n }\n"
	if code != 1 || out != wantDiff {
		t.Errorf("apply --dry-run: exit %d, stdout\n%s\nwant exit 1 (c3 skipped) and\n%s(stderr %q)", code, out, wantDiff, errs)
	}
	if after, _ := os.ReadFile(source); !bytes.Equal(after, before) {
		t.Fatalf("--dry-run wrote the file")
	}
	if !strings.Contains(errs, "c3: skipped: the comment is dismissed, not active") {
		t.Errorf("stderr %q lacks why c3 is skipped", errs)
	}
	code, _, errs = runCmd(t, "apply", review)
	want := strings.Replace(string(before), "    _ = err // 🚀 later\n", "    if err != nil {\n        return Output{}, err\n    }\n", 1)
	if after, _ := os.ReadFile(source); string(after) != want || code != 1 || !strings.Contains(errs, "c1: applied to internal/api/handler.go:73–74") {
		t.Errorf("apply: exit %d, stderr %q, file\n%s\nwant exit 1 (c3 skipped), c1 applied, file\n%s", code, errs, after, want)
	}
	// Applied, the tree holds the suggestion: nothing more.
	code, _, errs = runCmd(t, "apply", review)
	if after, _ := os.ReadFile(source); string(after) != want || !strings.Contains(errs, "c1: already applied\n") {
		t.Errorf("apply again: exit %d, stderr %q; want c1 already applied, the file unchanged", code, errs)
	}
}

// TestApplyAlreadyApplied: a suggestion the tree holds is reported as
// applied, and is no failure.
func TestApplyAlreadyApplied(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 0, "")
	source := filepath.Join(root, "internal", "api", "handler.go")
	applied := strings.Replace(testreviews.WorktreeSource(0, ""), "    _ = err // 🚀 later\n", "    if err != nil {\n        return Output{}, err\n    }\n", 1)
	if err := os.WriteFile(source, []byte(applied), 0o644); err != nil {
		t.Fatal(err)
	}
	// c3 (dismissed) holds no suggestion in this review: only c1's counts.
	text := strings.Replace(testreviews.WorktreeReview, "```suggestion\\n    return result, err\\n```", "ok", 1)
	if err := os.WriteFile(review, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"apply", "--dry-run", review}, {"apply", review}} {
		code, out, errs := runCmd(t, args...)
		if code != 0 || out != "" || errs != "c1: already applied\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and \"c1: already applied\"", args, code, out, errs)
		}
	}
	if got, _ := os.ReadFile(source); string(got) != applied {
		t.Errorf("the file changed:\n%s", got)
	}
}

// TestApplyRefusesAFileChangedSinceRead: the suggestions were computed
// from the file as read; a file changed since is not written.
func TestApplyRefusesAFileChangedSinceRead(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 0, "")
	in, err := openWorktree(review, "", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	sg, err := in.an.Suggestion(in.tree, 0)
	if err != nil {
		t.Fatal(err)
	}
	source := filepath.Join(root, "internal", "api", "handler.go")
	edited := strings.Replace(sg.File.Text, "package api", "package api // edited", 1)
	if err := os.WriteFile(source, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	err = writeSource(in.tree, sg.File, applySuggestions([]byte(sg.File.Text), []features.Suggestion{sg}))
	if err == nil || !strings.Contains(err.Error(), "changed since it was read") {
		t.Errorf("got %v, want refused: changed since it was read", err)
	}
	if got, _ := os.ReadFile(source); string(got) != edited {
		t.Errorf("the file was written over")
	}
}

// TestApplyNamesAPathWithSpaces: the lines applied are named whole, a
// path holding spaces too.
func TestApplyNamesAPathWithSpaces(t *testing.T) {
	root := t.TempDir()
	const path = "internal/my api/handler.go"
	for name, content := range map[string]string{
		filepath.Join(root, ".git", "HEAD"):                   "ref: refs/heads/main\n",
		filepath.Join(root, filepath.FromSlash(path)):         testreviews.WorktreeSource(0, ""),
		filepath.Join(root, "reviews", "handler.review.json"): strings.ReplaceAll(testreviews.WorktreeReview, "internal/api/handler.go", path),
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, errs := runCmd(t, "apply", "--dry-run", filepath.Join(root, "reviews", "handler.review.json"))
	if want := "c1: would apply to " + path + ":72–73\n"; !strings.Contains(errs, want) {
		t.Errorf("apply --dry-run: stderr %q, want it to hold %q", errs, want)
	}
}

// TestApplyWithoutSuggestions says so rather than exiting in silence.
func TestApplyWithoutSuggestions(t *testing.T) {
	root := t.TempDir()
	review := filepath.Join(root, "x.review.json")
	writeFile(t, review, []byte(strings.ReplaceAll(testreviews.WorktreeReview, "suggestion", "go")), 0o644)
	code, out, errs := runCmd(t, "apply", "--root", root, review)
	if want := "no comment holds a suggestion block; nothing to apply"; code != 0 || out != "" || !strings.Contains(errs, want) {
		t.Errorf("apply: exit %d, stdout %q, stderr %q; want exit 0, stderr holding %q", code, out, errs, want)
	}
}

// TestApplyDryRunTerminators: the diff writes each line with the
// terminator it has in the file (a CRLF line keeps its CR) and marks a
// last line without one, on both sides, so that git apply takes it.
func TestApplyDryRunTerminators(t *testing.T) {
	review := `{
  "leanreview_review": 1,
  "patch": ["diff --git a/f.txt b/f.txt", "--- a/f.txt", "+++ b/f.txt", "@@ -1,3 +1,3 @@", " a", " b", "-x", "+c"],
  "comments": [{"id": "c1", "path": "f.txt", "side": "RIGHT", "start_line": 2, "end_line": 3, "body": "` + "```suggestion\\nB\\nC\\n```" + `"}]
}`
	const head = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n"
	for _, tc := range []struct{ name, source, want string }{
		{"no final newline", "a\nb\nc", head + " a\n-b\n-c\n\\ No newline at end of file\n+B\n+C\n\\ No newline at end of file\n"},
		{"CRLF", "a\r\nb\r\nc\r\n", head + " a\r\n-b\r\n-c\r\n+B\r\n+C\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "f.txt"), []byte(tc.source), 0o644)
			writeFile(t, filepath.Join(root, "r.review.json"), []byte(review), 0o644)
			code, out, errs := runCmd(t, "apply", "--dry-run", "--root", root, filepath.Join(root, "r.review.json"))
			if code != 0 || out != tc.want {
				t.Errorf("apply --dry-run: exit %d, stdout\n%q (stderr %q)\nwant exit 0 and\n%q", code, out, errs, tc.want)
			}
		})
	}
}
