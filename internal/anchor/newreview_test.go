package anchor

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/refdata"
)

func TestDiffLines(t *testing.T) {
	for _, tc := range []struct {
		name, diff, err string
		lines           int
	}{
		{"git diff", "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "", 8},
		{"plain diff, CRLF", "--- x\r\n+++ x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n", "", 5},
		{"no newline marker", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n", "", 6},
		{"commit message first", "Fix it.\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", `line 1 is not a unified diff line: expected a "diff --git" or "---"/"+++" file header, an "@@" hunk header or a hunk line (" ", "+", "-"), got "Fix it."`, 0},
		{"text after a hunk", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nthanks\n", `line 6 is not a unified diff line`, 0},
		{"bad hunk header", "--- a/x\n+++ b/x\n@@ -1,two +1 @@\n-a\n+b\n", `line 3 is not a unified diff line: `, 0},
		{"hunk before a file", "@@ -1 +1 @@\n-a\n+b\n", `line 1 is not a unified diff line: hunk header before any file header`, 0},
		{"empty", "", "the diff is empty", 0},
		{"in colour", "\x1b[1mdiff --git a/x b/x\x1b[m\n\x1b[1m--- a/x\x1b[m\n\x1b[1m+++ b/x\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-a\x1b[m\n\x1b[32m+b\x1b[m\n",
			"line 1 starts with a terminal colour code: the diff was printed in colour (git's color.ui = always?); print it with --no-color", 0},
		{"blank lines only", "\n\n", "the diff is empty", 0},
		{"a Go file", "package main\n\nfunc main() {}\n", `line 1 is not a unified diff line`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, err := DiffLines([]byte(tc.diff))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("got error %v, want %d lines", err, tc.lines)
			case tc.err == "" && len(lines) != tc.lines:
				t.Errorf("got %d lines %q, want %d", len(lines), lines, tc.lines)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("got error %v, want one saying %q", err, tc.err)
			}
		})
	}
}

func TestNewReview(t *testing.T) {
	got, err := NewReview([]byte("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-<a>\n+\"b\" 😀\n"), "T & t", "")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "leanreview_review": 1,
  "title": "T & t",
  "patch": [
    "--- a/x",
    "+++ b/x",
    "@@ -1 +1 @@",
    "-<a>",
    "+\"b\" 😀"
  ],
  "comments": []
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestNewReviewRealDiffs starts a review from each real diff
// (refdata.RealDiffs): every one is a unified diff, and the review checks
// without an error.
func TestNewReviewRealDiffs(t *testing.T) {
	for name, data := range refdata.RealDiffs(t) {
		out, err := NewReview(data, "", "")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, d := range CheckDocument(exchange.Parse(out), nil).Diagnostics {
			if d.Severity == exchange.SeverityError {
				t.Errorf("%s: the new review has an error: %s [%s]", name, d.Message, d.Code)
			}
		}
	}
}
