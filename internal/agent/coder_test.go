package agent

import (
	"strings"
	"testing"
)

// coderDiff changes x.go; the working tree's x.go is that version with
// two lines added above, so the comment's lines moved by 2.
const coderDiff = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,5 +1,6 @@\n package x\n \n func f() int {\n+\ta := 1\n-\treturn 1\n+\treturn a\n }\n"

const coderSource = "// Package x.\n// It is small.\npackage x\n\nfunc f() int {\n\ta := 1\n\treturn a\n}\n"

// TestLocateAndApplySuggestion is the coding agent's half: find where the
// comments' lines are now, preview a suggestion, apply it, be refused
// when applying it again, and locate it as applied.
func TestLocateAndApplySuggestion(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"d.diff": coderDiff, "x.go": coderSource})
	var nw NewOutput
	s.ok("lreview_new", map[string]any{"diff_file": "d.diff", "file": "r.review.json"}, &nw)
	var c Comment
	s.ok("lreview_add_comment", map[string]any{"file": "r.review.json", "path": "x.go", "side": "RIGHT", "start_line": 4, "end_line": 5,
		"body": "Name it b.\n```suggestion\n\tb := 1\n\treturn b\n```"}, &c)
	s.ok("lreview_add_comment", map[string]any{"file": "r.review.json", "path": "x.go", "side": "LEFT", "start_line": 4, "body": "Why not 1?"}, &c)

	var loc LocateOutput
	text := s.ok("lreview_locate", map[string]any{"file": "r.review.json"}, &loc)
	if len(loc.Comments) != 2 || loc.Total != 2 {
		t.Fatalf("got %+v", loc)
	}
	c1 := loc.Comments[0]
	if c1.ID != "c1" || c1.Status != "moved" || c1.StartLine != 6 || c1.EndLine != 7 || c1.Moved != 2 || !c1.Suggestion ||
		strings.Join(c1.Lines, "|") != "\ta := 1|\treturn a" {
		t.Errorf("c1: got %+v, want moved +2 to 6–7 with its lines and a suggestion", c1)
	}
	if !strings.Contains(text, "c1 moved x.go:6–7 (moved +2) [suggestion]\n  | \ta := 1") {
		t.Errorf("got text %q", text)
	}

	var pv PreviewOutput
	s.ok("lreview_preview", map[string]any{"file": "r.review.json", "change": "apply_suggestion", "id": "c1"}, &pv)
	if pv.File != "x.go" || !strings.Contains(pv.Diff, "-\ta := 1\n-\treturn a\n+\tb := 1\n+\treturn b\n") || s.read("x.go") != coderSource {
		t.Errorf("preview: got %+v, or x.go was written", pv)
	}
	var ap ApplyOutput
	s.ok("lreview_apply_suggestion", map[string]any{"file": "r.review.json", "id": "c1"}, &ap)
	if want := strings.Replace(coderSource, "\ta := 1\n\treturn a\n", "\tb := 1\n\treturn b\n", 1); s.read("x.go") != want || !ap.Written || ap.StartLine != 6 {
		t.Errorf("apply: got %+v and x.go\n%s", ap, s.read("x.go"))
	}
	s.refused("lreview_apply_suggestion", map[string]any{"file": "r.review.json", "id": "c1"}, "id: comment c1's suggestion cannot be applied", "already applied: x.go:6–7 holds it")
	s.refused("lreview_apply_suggestion", map[string]any{"file": "r.review.json", "id": "c2"}, "id: comment c2 holds no ```suggestion block")
	s.ok("lreview_locate", map[string]any{"file": "r.review.json", "id": "c1"}, &loc)
	// Applied, c1 is one state everywhere: its suggestion is on its lines.
	if len(loc.Comments) != 1 || loc.Comments[0].Status != "suggestion-applied" || loc.Comments[0].StartLine != 6 || loc.Comments[0].EndLine != 7 ||
		strings.Join(loc.Comments[0].Lines, "|") != "\tb := 1|\treturn b" {
		t.Errorf("after the change: got %+v, want suggestion-applied at 6–7", loc.Comments)
	}
}

// TestEditAndDelete: an agent edits and removes its own words only; a
// dismissed comment and one with replies stay.
func TestEditAndDelete(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var ed EditCommentOutput
	s.ok("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c2", "body": "Fetched twice: \"once\" is enough."}, &ed)
	want := strings.Replace(fixture(t), `"body": "The row is fetched twice."`, `"body": "Fetched twice: \"once\" is enough."`, 1)
	if got := s.read("pr.review.json"); got != want || !ed.Changed {
		t.Errorf("edit: got %+v and file\n%s", ed, got)
	}
	s.ok("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c2", "body": "Fetched twice: \"once\" is enough."}, &ed)
	if ed.Changed {
		t.Error("the same body again: got changed, want nothing written")
	}
	s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c1", "reply": 1, "body": "x"}, `id: reply 1 of c1 was written by "hduran", and you write as "assistant"`, "lreview_reply")
	s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c4", "body": "x"}, "id: comment c4 was dismissed by a person")
	s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c1", "reply": 3, "body": "x"}, "reply: comment c1 has 1 replies, so no reply 3")
	before := s.read("pr.review.json")
	s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c1"}, "id: comment c1 has a reply")
	s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c4"}, "id: comment c4 was dismissed")
	if s.read("pr.review.json") != before {
		t.Fatal("a refused call wrote the file")
	}
	var del DeleteCommentOutput
	// Who the agent is was fixed at the start: no call names another.
	s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c1", "reply": 1, "author": "hduran"}, "author: lreview_delete_comment takes no author", "fixed when the server starts")
	s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c1", "reply": 1}, `reply 1 of c1 was written by "hduran", and you write as "assistant"`)
	s.ok("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c2"}, &del)
	if del.Comments != 3 {
		t.Errorf("got %+v, want 3 comments left", del)
	}
	var out CommentsOutput
	s.ok("lreview_comments", map[string]any{"file": "pr.review.json"}, &out)
	var ids []string
	for _, c := range out.Comments {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, " ") != "c1 c3 c4" || len(out.Comments[0].Replies) != 1 {
		t.Errorf("got %v, c1 replies %+v", ids, out.Comments[0].Replies)
	}
	var chk CheckOutput
	s.ok("lreview_check", map[string]any{"file": "pr.review.json", "min_severity": "error"}, &chk)
	if chk.Counts.Error != 0 {
		t.Errorf("after deleting: %+v", chk)
	}
}
