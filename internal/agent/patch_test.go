package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

const rebaseDiff = "diff --git a/app/users.py b/app/users.py\n--- a/app/users.py\n+++ b/app/users.py\n@@ -9,6 +9,7 @@\n \n def get_user(user_id):\n+    # one connection per call\n     with closing(connect()) as conn:\n         row = conn.execute(\"SELECT * FROM users WHERE id = ?\", (user_id,)).fetchone()\n     if row is None:\n         return None\n"

func TestFix(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var out FixOutput
	var pv PreviewOutput
	text := s.ok("lreview_preview", map[string]any{"file": "pr.review.json", "change": "fix"}, &pv)
	wantDiff := `--- a/pr.review.json
+++ b/pr.review.json
@@ -64,7 +64,7 @@
       "author": "assistant",
       "path": "app/users.py",
       "side": "RIGHT",
-      "start_line": 10,
+      "start_line": 13,
       "body": "The row is fetched twice.",
       "snippet": "row = conn.execute(\"SELECT * FROM users WHERE id = ?\", (user_id,)).fetchone()"
     },
`
	if pv.Diff != wantDiff || pv.File != "pr.review.json" || pv.Change != "fix" || len(pv.Moves) != 0 {
		t.Errorf("got preview %+v, want the diff\n%s", pv, wantDiff)
	}
	if len(pv.Fixes) < 1 || pv.Fixes[0] != (Fixed{Line: 69, Code: "snippet-mismatch", Done: "moved c2 from RIGHT 10 to RIGHT 13"}) {
		t.Errorf("got fixes %+v", pv.Fixes)
	}
	if !strings.Contains(text, "a preview, not written:") || s.read("pr.review.json") != fixture(t) {
		t.Errorf("preview: got text %q, or the file was written", text)
	}
	s.ok("lreview_fix", map[string]any{"file": "pr.review.json"}, &out)
	if want := strings.Replace(fixture(t), `"start_line": 10,`, `"start_line": 13,`, 1); !out.Written || s.read("pr.review.json") != want {
		t.Errorf("with write: got %+v and file\n%s", out, s.read("pr.review.json"))
	}
	s.ok("lreview_fix", map[string]any{"file": "pr.review.json"}, &out)
	if out.Diff != "" || out.Written {
		t.Errorf("nothing left to fix: got %+v", out)
	}
}

func TestRebase(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t), "v2.diff": rebaseDiff})
	var out RebaseOutput
	var pv PreviewOutput
	s.ok("lreview_preview", map[string]any{"file": "pr.review.json", "change": "rebase", "diff_file": "v2.diff"}, &pv)
	out = RebaseOutput{File: pv.File, Moves: pv.Moves, Diff: pv.Diff}
	if s.read("pr.review.json") != fixture(t) {
		t.Fatal("a preview wrote the file")
	}
	moves := map[string]Move{}
	for _, m := range out.Moves {
		moves[m.ID] = m
	}
	if m, ok := moves["c1"]; ok {
		t.Errorf("c1: got %+v, want it left out: it stays at RIGHT 12", m)
	}
	if m := moves["c2"]; m.Orphaned || m.To.StartLine != 13 {
		t.Errorf("c2: got %+v, want moved to RIGHT 13 by its snippet", m)
	}
	if m := moves["c4"]; !m.Orphaned || m.State != "dismissed" {
		t.Errorf("c4: got %+v, want no place and still dismissed", m)
	}
	if !strings.HasPrefix(out.Diff, "--- a/pr.review.json\n+++ b/pr.review.json\n@@ ") || !strings.Contains(out.Diff, "\n+    \"+    # one connection per call\",\n") {
		t.Errorf("got diff\n%s", out.Diff)
	}
	s.ok("lreview_rebase", map[string]any{"file": "pr.review.json", "diff_text": rebaseDiff}, &out)
	if !out.Written || !strings.Contains(s.read("pr.review.json"), `"+    # one connection per call"`) {
		t.Errorf("with write: got %+v", out)
	}

	// The file renamed by the next diff: c2 follows it under its new
	// name, which the move reports.
	renamed := strings.Replace(rebaseDiff, "diff --git a/app/users.py b/app/users.py\n--- a/app/users.py\n+++ b/app/users.py\n",
		"diff --git a/app/users.py b/app/accounts.py\nsimilarity index 90%\nrename from app/users.py\nrename to app/accounts.py\n--- a/app/users.py\n+++ b/app/accounts.py\n", 1)
	s.ok("lreview_preview", map[string]any{"file": "pr.review.json", "change": "rebase", "diff_text": renamed}, &pv)
	out = RebaseOutput{Moves: pv.Moves, Diff: pv.Diff}
	moves = map[string]Move{}
	for _, m := range out.Moves {
		moves[m.ID] = m
	}
	if m := moves["c2"]; m.From.Path != "app/users.py" || m.To.Path != "app/accounts.py" || !strings.Contains(out.Diff, `+      "path": "app/accounts.py",`) {
		t.Errorf("c2 after a rename: got %+v and diff\n%s\nwant it moved from app/users.py to app/accounts.py", m, out.Diff)
	}

	for _, tc := range []struct {
		args  map[string]any
		wants []string
	}{
		{map[string]any{"diff_file": "v2.diff", "diff_text": rebaseDiff}, []string{"diff_file: give diff_file or diff_text, not both"}},
		{map[string]any{}, []string{"diff_file: expected the path of a unified diff"}},
		{map[string]any{"diff_text": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\nthis is prose\n"}, []string{"diff_text: line 7 is not a unified diff line", `"this is prose"`}},
		{map[string]any{"diff_file": "missing.diff"}, []string{"diff_file: ", "missing.diff"}},
	} {
		tc.args["file"] = "pr.review.json"
		s.refused("lreview_rebase", tc.args, tc.wants...)
	}
}

func TestNew(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"v2.diff": rebaseDiff, "taken.review.json": "{}\n"})
	var out NewOutput
	text := s.ok("lreview_new", map[string]any{"diff_file": "v2.diff", "file": "pr.review.json", "title": "users: one connection", "summary": "A <small> change & more"}, &out)
	want := `{
  "leanreview_review": 1,
  "title": "users: one connection",
  "summary": "A <small> change & more",
  "patch": [
    "diff --git a/app/users.py b/app/users.py",
    "--- a/app/users.py",
    "+++ b/app/users.py",
    "@@ -9,6 +9,7 @@",
    " ",
    " def get_user(user_id):",
    "+    # one connection per call",
    "     with closing(connect()) as conn:",
    "         row = conn.execute(\"SELECT * FROM users WHERE id = ?\", (user_id,)).fetchone()",
    "     if row is None:",
    "         return None"
  ],
  "comments": []
}
`
	if got := s.read("pr.review.json"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if out.File != "pr.review.json" || len(out.Files) != 1 || out.Files[0] != "app/users.py" || out.Hunks != 1 {
		t.Errorf("got %+v", out)
	}
	if want := "created pr.review.json: 1 file, 1 hunk (app/users.py); no comment yet"; text != want {
		t.Errorf("got text %q, want %q", text, want)
	}
	s.refused("lreview_new", map[string]any{"diff_text": rebaseDiff, "file": "taken.review.json"}, "file: taken.review.json already exists", "lreview_rebase")
	if s.read("taken.review.json") != "{}\n" {
		t.Error("an existing file was overwritten")
	}
	s.refused("lreview_new", map[string]any{"diff_text": "Fix the bug.\n\ndiff --git a/x b/x\n", "file": "n.review.json"}, `diff_text: line 1 is not a unified diff line`, `"Fix the bug."`)
	s.refused("lreview_new", map[string]any{"diff_text": "\n", "file": "n.review.json"}, "diff_text: the diff is empty")
	s.refused("lreview_new", map[string]any{"diff_text": "--- a/x\n+++ b/x\n@@ -1,x +1 @@\n-a\n+b\n", "file": "n.review.json"}, "diff_text: line 3 is not a unified diff line")
	// Missing directories inside the root are made.
	s.ok("lreview_new", map[string]any{"diff_text": rebaseDiff, "file": "reviews/2026/n.review.json"}, &out)
	if out.File != filepath.Join("reviews", "2026", "n.review.json") || !strings.Contains(s.read("reviews/2026/n.review.json"), `"leanreview_review": 1`) {
		t.Errorf("in new directories: got %+v", out)
	}
	s.refused("lreview_new", map[string]any{"diff_text": rebaseDiff}, "file")
	s.refused("lreview_new", map[string]any{"diff_text": rebaseDiff, "file": "notes.json"},
		"file: notes.json does not end in .review.json, the name editors open a review by (the format's convention): name it notes.review.json")
	if _, err := os.Stat(filepath.Join(s.root, "notes.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused lreview_new wrote notes.json (%v)", err)
	}

	// What git format-patch writes for one commit: its title and message
	// unless given, its diff alone; several commits are refused.
	mail := "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\nFrom: A <a@b>\nSubject: [PATCH] users: one connection\n\nWhy: a connection per call.\n---\n app/users.py | 1 +\n\n" + rebaseDiff + "-- \n2.43.0\n"
	s.ok("lreview_new", map[string]any{"diff_text": mail, "file": "mail.review.json"}, &out)
	if doc := exchange.Parse([]byte(s.read("mail.review.json"))); doc.Review.Title != "users: one connection" || doc.Review.Summary != "Why: a connection per call." ||
		doc.Review.Patch.LineCount() != strings.Count(rebaseDiff, "\n") {
		t.Errorf("from a format-patch email: title %q, summary %q, %d patch lines, want the commit's and %d", doc.Review.Title, doc.Review.Summary, doc.Review.Patch.LineCount(), strings.Count(rebaseDiff, "\n"))
	}
	s.refused("lreview_new", map[string]any{"diff_text": mail + mail, "file": "two.review.json"}, "diff_text: the input holds 2 patches")
}
