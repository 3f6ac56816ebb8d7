package agent

import (
	"strings"
	"testing"
)

// TestCohortNotes: a cohort's summary and a typed diagram written by key,
// the diagram's edges reported (unverified, saying why, until the code
// graph is there) and drawn dashed; a bad diagram refused naming the
// member; the notes survive a rebase.
func TestCohortNotes(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var out CohortNoteOutput
	s.ok("lreview_set_cohort_summary", map[string]any{"file": "pr.review.json", "cohort": "users#3f2a", "summary": "Closes the **connection**."}, &out)
	if out.Summary != "Closes the **connection**." || out.Diagrams != 0 {
		t.Fatalf("summary: got %+v", out)
	}
	diagram := map[string]any{"kind": "sequence",
		"participants": []any{map[string]any{"id": "get", "code": "users.get_user"}, map[string]any{"id": "db", "label": "connect()", "code": "db.connect"}},
		"messages":     []any{map[string]any{"from": "get", "to": "db", "label": "open"}}}
	text := s.ok("lreview_add_diagram", map[string]any{"file": "pr.review.json", "cohort": "users#3f2a", "diagram": diagram}, &out)
	if out.Diagrams != 1 || len(out.Edges) != 1 || out.Edges[0].Verified || out.Edges[0].Reason != "no code graph of the working tree" ||
		!strings.Contains(out.Mermaid, "get-->>db: open (unverified: no code graph of the working tree)") || !strings.Contains(text, "0 of 1 edges verified") {
		t.Fatalf("diagram: got %+v\n%s", out, text)
	}
	s.refused("lreview_add_diagram", map[string]any{"file": "pr.review.json", "cohort": "users#3f2a",
		"diagram": map[string]any{"kind": "sequence", "participants": []any{map[string]any{"id": "a"}}, "messages": []any{map[string]any{"from": "a", "to": "b"}}}},
		`diagram.messages[0].to: "b" is none of the participants`)
	s.refused("lreview_set_cohort_summary", map[string]any{"file": "pr.review.json", "cohort": "", "summary": "x"}, "cohort: expected the cohort's key")

	var rb RebaseOutput
	s.ok("lreview_rebase", map[string]any{"file": "pr.review.json", "diff_text": rebaseDiff}, &rb)
	file := s.read("pr.review.json")
	for _, w := range []string{`"lreview_cohort_notes": {`, `"users#3f2a": {`, `"summary": "Closes the **connection**."`, `"kind": "sequence"`, `"+    # one connection per call"`} {
		if !strings.Contains(file, w) {
			t.Errorf("after the rebase the review lacks %s:\n%s", w, file)
		}
	}
}
