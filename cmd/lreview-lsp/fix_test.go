package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixReview is a review of one hunk whose comments are comments, each a
// JSON object's members.
func fixReview(comments ...string) string {
	objs := make([]string, len(comments))
	for i, c := range comments {
		objs[i] = "    {" + c + ", \"body\": \"b\"}"
	}
	return `{
  "leanreview_review": 1,
  "patch": [
    "--- a/app/users.py",
    "+++ b/app/users.py",
    "@@ -1,4 +1,5 @@",
    " import logging",
    "+from contextlib import closing",
    " ",
    " def get_user(user_id):",
    "     return None"
  ],
  "comments": [
` + strings.Join(objs, ",\n") + `
  ]
}
`
}

// TestFixSaysWhatItLeft runs fix as a generator would, on standard input
// and with -w: every comment fix could not settle gets one line saying
// why, and the exit status is check's on the result (1 while an error
// remains), while the fixes it could apply are written all the same.
func TestFixSaysWhatItLeft(t *testing.T) {
	const (
		drifted  = `"id": "c1", "path": "app/users.py", "side": "RIGHT", "start_line": 3, "snippet": "from contextlib import closing"`
		nowhere  = `"id": "c4", "path": "app/users.py", "side": "RIGHT", "start_line": 9, "snippet": "conn.commit()"`
		mismatch = `"id": "c3", "path": "app/users.py", "side": "RIGHT", "start_line": 2, "snippet": "conn.commit()"`
		noSnip   = `"id": "c5", "path": "app/users.py", "side": "RIGHT", "start_line": 40`
		stale    = `"id": "c6", "path": "app/users.py", "side": "RIGHT", "start_line": 2, "snippet": "from contextlib import closing", "state": "stale"`
		orphaned = `"id": "c7", "path": "app/users.py", "side": "LEFT", "start_line": 30, "snippet": "conn.commit()", "state": "orphaned"`
		unknown  = `"id": "c8", "path": "lib/zzz.rs", "side": "RIGHT", "start_line": 1, "snippet": "x"`
		dupID    = `"id": "c1", "path": "app/users.py", "side": "RIGHT", "start_line": 2, "snippet": "from contextlib import closing"`
	)
	tests := []struct {
		name     string
		comments []string
		status   int
		stderr   []string // the lines, with <stdin>: before each
	}{
		{"a snippet found nowhere", []string{drifted, nowhere}, 1, []string{
			`<stdin>:14: moved c1 from RIGHT 3 to RIGHT 2`,
			`<stdin>:15: left c4: orphaned — no place in the patch holds its snippet`,
		}},
		{"a snippet not at its place, found nowhere", []string{mismatch}, 0, []string{
			`<stdin>:14: left c3 at RIGHT 2: its snippet is not there, and no place in the patch holds it`,
		}},
		{"no snippet to look for", []string{noSnip}, 1, []string{
			`<stdin>:14: left c5: orphaned — RIGHT 40 is not in the patch, and it has no snippet to look for`,
		}},
		{"an unknown path", []string{unknown}, 1, []string{
			`<stdin>:14: left c8: orphaned — no file "lib/zzz.rs" in the patch, nor one with a name near it`,
		}},
		{"states fix never changes", []string{stale, orphaned}, 0, []string{
			`<stdin>:14: left c6 stale at RIGHT 2: its anchor holds, but fix never changes a comment's state`,
			`<stdin>:15: left c7: orphaned — no place in the patch holds its snippet`,
		}},
		{"an error that is not an anchor's", []string{drifted, dupID}, 1, []string{
			`<stdin>:14: moved c1 from RIGHT 3 to RIGHT 2`,
			`<stdin>:15:12: left error: comment id "c1" is already used by comment #1 [id-duplicate]`,
		}},
		{"nothing left", []string{drifted}, 0, []string{
			`<stdin>:14: moved c1 from RIGHT 3 to RIGHT 2`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := fixReview(tc.comments...)
			var out, errb bytes.Buffer
			status := run([]string{"fix", "-"}, strings.NewReader(src), &out, &errb)
			got := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
			if status != tc.status || !slices.Equal(got, tc.stderr) {
				t.Errorf("got exit %d and\n%s\nwant exit %d and\n%s", status, strings.Join(got, "\n"), tc.status, strings.Join(tc.stderr, "\n"))
			}
			if out.Len() == 0 {
				t.Fatalf("got no document on standard output, want the fixed one")
			}

			// The same check on the fixed document agrees on the status.
			if cs := runCheckOnSrc(out.Bytes()); cs != tc.status {
				t.Errorf("check on fix's output: got exit %d, want %d, fix's", cs, tc.status)
			}
		})
	}
}

// runCheckOnSrc is check over one document on standard input.
func runCheckOnSrc(src []byte) int {
	var out, errb bytes.Buffer
	return runCheckOn(1, []string{"-"}, bytes.NewReader(src), &out, &errb)
}

// TestFixWriteLeavesLeftComments: with -w and errors left, fix still
// writes what it fixed, says what it left, and exits 1.
func TestFixWriteLeavesLeftComments(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.review.json")
	src := fixReview(`"id": "c1", "path": "app/users.py", "side": "RIGHT", "start_line": 3, "snippet": "from contextlib import closing"`,
		`"id": "c4", "path": "app/users.py", "side": "RIGHT", "start_line": 9, "snippet": "conn.commit()"`)
	writeFile(t, name, []byte(src), 0o644)
	status, stdout, stderr := runCLI("fix", "-w", name)
	want := name + ":14: moved c1 from RIGHT 3 to RIGHT 2\n" + name + ":15: left c4: orphaned — no place in the patch holds its snippet\n"
	if status != 1 || stdout != "" || stderr != want {
		t.Errorf("got exit %d, stdout %q, stderr\n%s\nwant exit 1, no stdout, stderr\n%s", status, stdout, stderr, want)
	}
	got := readFile(t, name)
	if !bytes.Contains(got, []byte(`"start_line": 2, "snippet": "from contextlib import closing"`)) {
		t.Errorf("got file\n%s\nwant c1 moved to line 2", got)
	}
}
