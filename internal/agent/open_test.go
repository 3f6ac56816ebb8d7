package agent

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestWritingToolsOpenAlike holds every tool that writes a review to the
// one opening (openReview, openComment): a file with syntax errors, a file
// that is missing and, for the tools naming a comment, a comment that is
// not there, are refused in the same words by each, and nothing is written.
func TestWritingToolsOpenAlike(t *testing.T) {
	byComment := map[string]map[string]any{
		"lreview_reply":          {"id": "c1", "body": "x"},
		"lreview_set_state":      {"id": "c1", "state": "stale"},
		"lreview_edit_comment":   {"id": "c2", "body": "x"},
		"lreview_delete_comment": {"id": "c2"},
	}
	tools := map[string]map[string]any{
		"lreview_add_comment":        {"path": "app/users.py", "side": "RIGHT", "start_line": 12, "body": "x"},
		"lreview_finalize":           {},
		"lreview_set_cohort_summary": {"cohort": "k", "summary": "x"},
		"lreview_fix":                {},
		"lreview_rebase":             {"diff_text": rebaseDiff},
	}
	maps.Copy(tools, byComment)
	with := func(args map[string]any, file string) map[string]any {
		out := maps.Clone(args)
		out["file"] = file
		return out
	}
	broken := strings.Replace(fixture(t), `"side": "RIGHT",`, `"side": "RIGHT"`, 1)
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t), "broken.review.json": broken})
	missing := map[string]bool{} // the words each tool gives a missing file
	for tool, args := range tools {
		t.Run(tool, func(t *testing.T) {
			s.refused(tool, with(args, "broken.review.json"), "file: cannot edit broken.review.json: syntax error at line 54, column 7: missing ',' between members; fix it first: lreview_check lists the problems")
			missing[s.refused(tool, with(args, "gone.review.json"), "file: ", "gone.review.json")] = true
			if byComment[tool] != nil {
				a := with(args, "pr.review.json")
				a["id"] = "c9"
				s.refused(tool, a, `id: pr.review.json has no comment "c9"; its comments are c1, c2, c3, c4`)
			}
		})
	}
	if len(missing) != 1 {
		t.Errorf("a missing file is refused in %d wordings, want one: %q", len(missing), slices.Collect(maps.Keys(missing)))
	}
	if s.read("broken.review.json") != broken || s.read("pr.review.json") != fixture(t) {
		t.Error("a refused call wrote a file")
	}
}
