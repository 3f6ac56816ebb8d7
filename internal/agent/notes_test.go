package agent

import (
	"maps"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestCohortNotes: a cohort's summary and a typed diagram written by key,
// the diagram's edges reported (unverified, saying why: the root has no
// such code) and drawn dashed; a bad diagram refused naming the
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
	if out.Diagrams != 1 || len(out.Edges) != 1 || out.Edges[0].Verified || out.Edges[0].Reason != "users.get_user is not in the code graph" ||
		!strings.Contains(out.Mermaid, "get-->>db: open (unverified: users.get_user is not in the code graph)") || !strings.Contains(text, "0 of 1 edges verified") {
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

// TestDiagramCheckedAgainstGoModule: on a Go module in a git repository,
// a diagram's edge for a call the code makes is verified and one for a
// call it does not make is unverified, saying why, and drawn dashed.
func TestDiagramCheckedAgainstGoModule(t *testing.T) {
	base := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"b/b.go": "package b\n\nfunc B() int { return 1 }\n\nfunc C() int { return 2 }\n",
		"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\nfunc A() int { return b.B() }\n",
		"b/d.go": "package b\n\nfunc D() int { return C() }\n",
	}
	repo := testreviews.NewGitRepo(t, base)
	from := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	change := map[string]string{"a/a.go": strings.Replace(base["a/a.go"], "return b.B()", "return b.B() + 0", 1)}
	to := repo.Commit("change", change)
	review, err := anchor.NewReview([]byte(repo.Diff(from, to)), "m", "")
	if err != nil {
		t.Fatal(err)
	}
	files := maps.Clone(base)
	maps.Copy(files, change)
	files["r.review.json"] = string(review)
	s := newSession(t, Options{}, files)

	d := map[string]any{"kind": "sequence", "title": "A's calls",
		"participants": []any{map[string]any{"id": "a", "code": "a.A"}, map[string]any{"id": "b", "code": "example.com/m/b.B"}, map[string]any{"id": "c", "code": "b.C"}},
		"messages":     []any{map[string]any{"from": "a", "to": "b", "label": "B()"}, map[string]any{"from": "a", "to": "c", "label": "C()"}}}
	var out CohortNoteOutput
	text := s.ok("lreview_add_diagram", map[string]any{"file": "r.review.json", "cohort": "a#1", "diagram": d}, &out)
	if len(out.Edges) != 2 {
		t.Fatalf("edges = %+v, want 2", out.Edges)
	}
	if e := out.Edges[0]; !e.Verified || e.Reason != "" {
		t.Errorf("a → b: got %+v, want verified (A calls B)", e)
	}
	if e, want := out.Edges[1], "a.A does not call or refer to b.C in the code graph"; e.Verified || e.Reason != want {
		t.Errorf("a → c: got %+v, want unverified: %s", e, want)
	}
	for _, w := range []string{"1 of 2 edges verified", "a->>b: B()", "a-->>c: C() (unverified: a.A does not call or refer to b.C in the code graph)"} {
		if !strings.Contains(text, w) {
			t.Errorf("reply lacks %q:\n%s", w, text)
		}
	}
}
