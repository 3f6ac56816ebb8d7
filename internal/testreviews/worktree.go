package testreviews

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WorktreeReview is a review of internal/api/handler.go whose RIGHT image
// WorktreeSource writes: c1 (RIGHT 72–73) suggests a replacement, c2 is on
// the removed LEFT 72, c3 (RIGHT 74) is dismissed. Its title and a line
// hold characters outside the BMP, so that UTF-16 positions differ from
// bytes and code points.
const WorktreeReview = `{
  "leanreview_review": 1,
  "title": "handler 🚀 errors",
  "patch": [
    "diff --git a/internal/api/handler.go b/internal/api/handler.go",
    "--- a/internal/api/handler.go",
    "+++ b/internal/api/handler.go",
    "@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",
    "     ctx := context.Background()",
    "     defer cancel(ctx)",
    "-    result := calculate(input)",
    "+    result, err := calculate(input)",
    "+    _ = err // 🚀 later",
    "     return result, nil"
  ],
  "comments": [
    {
      "id": "c1",
      "path": "internal/api/handler.go",
      "side": "RIGHT",
      "start_line": 72,
      "end_line": 73,
      "body": "Return the error 🚀.\n\n` + "```" + `suggestion\n    result, err := calculate(input)\n    if err != nil {\n        return Output{}, err\n    }\n` + "```" + `"
    },
    {
      "id": "c2",
      "path": "internal/api/handler.go",
      "side": "LEFT",
      "start_line": 72,
      "body": "The old call ignored errors."
    },
    {
      "id": "c3",
      "path": "internal/api/handler.go",
      "side": "RIGHT",
      "start_line": 74,
      "state": "dismissed",
      "body": "` + "```" + `suggestion\n    return result, err\n` + "```" + `"
    }
  ]
}
`

// WorktreeSource is the RIGHT image of WorktreeReview's file: its hunk at
// line 70 below distinct filler lines, moved down by shift lines, with
// line 72 replaced by changed when it is not "".
func WorktreeSource(shift int, changed string) string {
	var b strings.Builder
	b.WriteString("package api\n")
	for i := 2; i <= 69+shift; i++ {
		fmt.Fprintf(&b, "// line %d\n", i)
	}
	l72 := "    result, err := calculate(input)"
	if changed != "" {
		l72 = changed
	}
	b.WriteString("    ctx := context.Background()\n    defer cancel(ctx)\n" + l72 + "\n    _ = err // 🚀 later\n    return result, nil\n}\n")
	return b.String()
}

// WorktreeRepo makes a repository (a directory holding .git) with
// WorktreeSource(shift, changed) as internal/api/handler.go and the review
// as reviews/handler.review.json, and returns its root and the review's
// path.
func WorktreeRepo(tb testing.TB, shift int, changed string) (root, review string) {
	tb.Helper()
	root = tb.TempDir()
	review = filepath.Join(root, "reviews", "handler.review.json")
	for name, content := range map[string]string{
		filepath.Join(root, ".git", "HEAD"):                  "ref: refs/heads/main\n",
		filepath.Join(root, "internal", "api", "handler.go"): WorktreeSource(shift, changed),
		review: WorktreeReview,
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root, review
}
