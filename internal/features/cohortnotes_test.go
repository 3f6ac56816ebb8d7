package features

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// notesModule is a Go module where a.A calls b.B and not b.C.
var notesModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"b/b.go": "package b\n\nfunc B() int { return 1 }\n\nfunc C() int { return 2 }\n",
	"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\nfunc A() int { return b.B() }\n",
}

// TestCohortNotesHover: the first file header of a cohort with notes
// shows its summary and its diagram in a mermaid block, the edge the code
// makes solid, the other dashed, labelled and listed with its reason.
func TestCohortNotesHover(t *testing.T) {
	repo := testreviews.NewGitRepo(t, notesModule)
	from := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	to := repo.Commit("change", map[string]string{"a/a.go": strings.Replace(notesModule["a/a.go"], "b.B()", "b.B() + 0", 1)})
	src, err := anchor.NewReview([]byte(repo.Diff(from, to)), "m", "")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(repo.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	g, err := codegraph.Build(context.Background(), root, codegraph.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	an := anchor.CheckDocument(exchange.Parse(src), nil)
	sh, _ := cohort.Of(an, g, nil)
	c := sh.Of("a/a.go")
	if c == nil {
		t.Fatalf("no cohort holds a/a.go: %+v", sh.Cohorts)
	}
	if got := CohortNotesHover(an, sh, "a/a.go", g); got != "" {
		t.Errorf("no notes: hover adds %q, want nothing", got)
	}
	notes := `"lreview_cohort_notes": {"` + c.Key + `": {"summary": "A adds **one**.", "diagrams": [{"kind": "sequence",
  "participants": [{"id": "a", "code": "a.A"}, {"id": "b", "code": "b.B"}, {"id": "c", "code": "b.C"}],
  "messages": [{"from": "a", "to": "b", "label": "B()"}, {"from": "a", "to": "c"}]}]}},
  `
	brace := strings.IndexByte(string(src), '{') + 1
	with := string(src[:brace]) + "\n  " + notes + string(src[brace:])
	an = anchor.CheckDocument(exchange.Parse([]byte(with)), nil)
	sh, _ = cohort.Of(an, g, nil)
	got := CohortNotesHover(an, sh, "a/a.go", g)
	want := "A adds **one**.\n\nsequence diagram, 1 of 2 edges verified against the code\n\n```mermaid\nsequenceDiagram\n" +
		"    participant a as a\n    participant b as b\n    participant c as c\n" +
		"    a->>b: B()\n    a-->>c: (unverified: a.A does not call or refer to b.C in the code graph)\n```\n" +
		"- unverified: a → c: a.A does not call or refer to b.C in the code graph"
	if got != want {
		t.Errorf("hover:\ngot  %q\nwant %q", got, want)
	}
}
