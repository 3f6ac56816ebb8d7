package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/testrace"
)

// raceReview suggests a change to src/victim.go line 2.
const raceReview = `{
  "leanreview_review": 1,
  "title": "t",
  "patch": [
    "diff --git a/src/victim.go b/src/victim.go",
    "index 1111111..2222222 100644",
    "--- a/src/victim.go",
    "+++ b/src/victim.go",
    "@@ -1,2 +1,3 @@",
    " package v",
    "+var x = 1",
    " var y = 2"
  ],
  "comments": [
    {"id": "c1", "author": "a", "path": "src/victim.go", "side": "RIGHT", "start_line": 2, "body": "` + "```suggestion\\nvar x = PWNED\\n```" + `", "snippet": "var x = 1"}
  ]
}
`

const (
	raceVictim = "package v\nvar x = 1\nvar y = 2\n"
	// raceOutside holds the same lines lower: a read through the link
	// finds them at line 6, a write through it rewrites this file.
	raceOutside = "package v\n\n\n\n\nvar x = 1\nvar y = 2\n"
)

// raceRounds is how many races each test runs: hundreds, fewer with -short.
func raceRounds() int {
	if testing.Short() {
		return 50
	}
	return 500
}

// raceRepo makes repo/src/victim.go, the review, and outside/victim.go.
func raceRepo(t *testing.T) (repo, review, outside string) {
	t.Helper()
	dir := t.TempDir()
	repo, outside = filepath.Join(dir, "repo"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	review = filepath.Join(dir, "r.review.json")
	writeFile(t, review, []byte(raceReview), 0o644)
	writeFile(t, filepath.Join(outside, "victim.go"), []byte(raceOutside), 0o644)
	return repo, review, outside
}

// checkOutside fails when the file outside the root was written, or
// anything was created beside it.
func checkOutside(t *testing.T, outside string, round int) {
	t.Helper()
	if got := string(readFile(t, filepath.Join(outside, "victim.go"))); got != raceOutside {
		t.Fatalf("round %d: the file outside the root was written:\n%s", round, got)
	}
	if names := dirNames(t, outside); len(names) != 1 {
		t.Fatalf("round %d: files appeared outside the root: %v", round, names)
	}
}

// TestApplyRaceNeverLeavesTheRoot: while src is swapped for a link to a
// folder outside the working tree, apply either writes src/victim.go or
// refuses; the file outside is never written, hundreds of races over.
func TestApplyRaceNeverLeavesTheRoot(t *testing.T) {
	repo, review, outside := raceRepo(t)
	victim := filepath.Join(repo, "src", "victim.go")
	applied, swaps := 0, 0
	for round := range raceRounds() {
		writeFile(t, victim, []byte(raceVictim), 0o644)
		stop := testrace.SwapDir(t, filepath.Join(repo, "src"), outside)
		var stdout, stderr bytes.Buffer
		status := runApply([]string{"--root", repo, review}, nil, &stdout, &stderr)
		swaps += stop()
		checkOutside(t, outside, round)
		if status == 0 {
			applied++
			if got := string(readFile(t, victim)); !strings.Contains(got, "PWNED") {
				t.Fatalf("round %d: apply exited 0 but src/victim.go holds:\n%s\n%s", round, got, stderr.String())
			}
		} else if stderr.Len() == 0 {
			t.Fatalf("round %d: apply exited %d without a word", round, status)
		}
	}
	t.Logf("%d races (src a link %d times): %d applied inside the root, the others refused; nothing written outside", raceRounds(), swaps, applied)
}

// TestLocateRaceNeverReadsOutside: locate reports c1 at line 2 of
// src/victim.go or not found, never at line 6, where the file outside
// has it.
func TestLocateRaceNeverReadsOutside(t *testing.T) {
	repo, review, outside := raceRepo(t)
	writeFile(t, filepath.Join(repo, "src", "victim.go"), []byte(raceVictim), 0o644)
	found := 0
	for round := range raceRounds() {
		stop := testrace.SwapDir(t, filepath.Join(repo, "src"), outside)
		var stdout, stderr bytes.Buffer
		status := runLocate([]string{"--root", repo, review}, nil, &stdout, &stderr)
		stop()
		switch out := stdout.String(); {
		case status != 0:
			t.Fatalf("round %d: locate exited %d: %s", round, status, stderr.String())
		case out == "c1 src/victim.go:2\n":
			found++
		case strings.HasPrefix(out, "c1 not found: "):
		default:
			t.Fatalf("round %d: locate read the file outside the root: %q", round, out)
		}
	}
	t.Logf("%d races: c1 found %d times, not found the others; never read outside", raceRounds(), found)
}
