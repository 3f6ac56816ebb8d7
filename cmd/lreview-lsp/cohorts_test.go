package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/testgotypes"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// cohortsRepo makes a Go module with git, changes it, and writes the
// review of the change into the repository.
func cohortsRepo(t *testing.T) (dir, review string) {
	t.Helper()
	base := map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v1.3.0\n"}
	for k, v := range testgotypes.ShopModule {
		if k != "go.mod" {
			base[k] = v
		}
	}
	repo := testreviews.NewGitRepo(t, base)
	from := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	to := repo.Commit("change", map[string]string{
		"go.mod":         "module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v2.0.0\n",
		"store/store.go": strings.Replace(base["store/store.go"], "const MaxItems = 100", "const MaxItems = 200", 1),
		"docs/auth.md":   "# Sign-in\n",
	})
	src, err := anchor.NewReview([]byte(repo.Diff(from, to)), "shop", "")
	if err != nil {
		t.Fatal(err)
	}
	review = filepath.Join(repo.Dir, "change.review.json")
	if err := os.WriteFile(review, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return repo.Dir, review
}

func TestCohortsCommand(t *testing.T) {
	_, review := cohortsRepo(t)
	code, out, errs := runCmd(t, "cohorts", review)
	if code != 0 {
		t.Fatalf("cohorts: exit %d, stderr %s", code, errs)
	}
	for _, want := range []string{
		"cohort 1 of 3 · go.mod · high [",
		"  dependency manifest; major version change: github.com/google/uuid v1.3.0 → v2.0.0; 2 lines changed in 1 file\n",
		"cohort 2 of 3 · store/store.go · MaxItems · medium [",
		"  example.com/shop/store.MaxItems (store/store.go:15): 3 uses, 2 outside\n",
		"cohort 3 of 3 · docs/auth.md · low [",
		"dependency changes:\n  go.mod:5: dependency upgraded: github.com/google/uuid v1.3.0 → v2.0.0 (major version change)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("cohorts output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCmd(t, "cohorts", "--deps", review)
	if want := "go.mod:5: dependency upgraded: github.com/google/uuid v1.3.0 → v2.0.0 (major version change)\n"; code != 0 || out != want {
		t.Errorf("cohorts --deps: exit %d\n%s\nwant\n%s", code, out, want)
	}
}

// TestCohortsJSONSameBytes: the JSON of one review and tree is the same
// bytes run after run, and holds what the README documents.
func TestCohortsJSONSameBytes(t *testing.T) {
	_, review := cohortsRepo(t)
	_, first, _ := runCmd(t, "cohorts", "--format", "json", review)
	for range 3 {
		if _, again, _ := runCmd(t, "cohorts", "--format", "json", review); again != first {
			t.Fatalf("a second run gives other JSON:\n%s\nfirst:\n%s", again, first)
		}
	}
	var got struct {
		Graph   struct{ Files, Definitions int }
		Cohorts []struct {
			Key, Name, Level, Reviewed string
			Rank                       int
			Files, Reasons             []string
			BlastRadius                []struct {
				Definition string
				Uses       []struct {
					Path     string
					Line     int
					From     string
					Possible bool
				}
			} `json:"blast_radius"`
		}
		Deps []struct{ Name, Change, Old, New string } `json:"dependency_changes"`
	}
	if err := json.Unmarshal([]byte(first), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Cohorts) != 3 || got.Cohorts[1].Files[0] != "store/store.go" || len(got.Cohorts[1].BlastRadius) != 1 {
		t.Fatalf("cohorts = %+v", got.Cohorts)
	}
	uses := got.Cohorts[1].BlastRadius[0].Uses
	if len(uses) != 3 || uses[0].Path != "cart/cart.go" || uses[0].From != "Total" || uses[0].Possible {
		t.Errorf("uses of MaxItems = %+v", uses)
	}
	if got.Graph.Files != 6 || got.Graph.Definitions == 0 {
		t.Errorf("graph = %+v", got.Graph)
	}
	if len(got.Deps) != 1 || got.Deps[0].Change != "upgraded" {
		t.Errorf("deps = %+v", got.Deps)
	}
}

// TestExportListsCohorts: export puts the cohorts, in order with their
// reasons, in the review's body (the default, and --cohorts); not with
// --cohorts=false.
func TestExportListsCohorts(t *testing.T) {
	_, review := cohortsRepo(t)
	body := func(args ...string) string {
		t.Helper()
		code, out, errs := runCmd(t, append(append([]string{"export", "--to", "github"}, args...), review)...)
		if code != 0 {
			t.Fatalf("export %v: exit %d, stderr %s", args, code, errs)
		}
		var rv struct{ Body string }
		if err := json.Unmarshal([]byte(out), &rv); err != nil {
			t.Fatal(err)
		}
		return rv.Body
	}
	if b := body("--cohorts=false"); strings.Contains(b, "Review order") {
		t.Errorf("--cohorts=false: the body lists the cohorts:\n%s", b)
	}
	want := "**Review order** — cohorts, riskiest first:\n\n" +
		"1. **go.mod** (high): dependency manifest; major version change: github.com/google/uuid v1.3.0 → v2.0.0; 2 lines changed in 1 file\n" +
		"2. **store/store.go · MaxItems** (medium): 2 uses outside; public API changed: MaxItems; no test change (test gap: MaxItems); 2 lines changed in 1 file\n" +
		"3. **docs/auth.md** (low): 1 line changed in 1 file"
	for _, args := range [][]string{nil, {"--cohorts"}} {
		if b := body(args...); !strings.Contains(b, want) {
			t.Errorf("export %v: body:\n%s\nwant it to hold\n%s", args, b, want)
		}
	}
}

// TestExportCohortNotes: a review keeping a cohort's summary and diagram
// exports them under the cohort, on GitHub, GitLab and Gitea alike, the
// diagram in a mermaid block checked against the working tree's code
// graph (the unverified edge dashed and labelled) — even without
// --cohorts; the body is golden (testdata/export-cohort-notes.md, -update).
func TestExportCohortNotes(t *testing.T) {
	_, review := cohortsRepo(t)
	code, out, errs := runCmd(t, "cohorts", "--format", "json", review)
	if code != 0 {
		t.Fatalf("cohorts: exit %d, stderr %s", code, errs)
	}
	var shape struct{ Cohorts []struct{ Key, Name string } }
	if err := json.Unmarshal([]byte(out), &shape); err != nil || len(shape.Cohorts) != 3 {
		t.Fatalf("cohorts: %v, %s", err, out)
	}
	key := shape.Cohorts[1].Key // store/store.go · MaxItems
	src, err := os.ReadFile(review)
	if err != nil {
		t.Fatal(err)
	}
	notes := `"lreview_cohort_notes": {"` + key + `": {"summary": "Raises the cap.\n\nPut checks it.", "diagrams": [{"kind": "sequence", "title": "Put",
    "participants": [{"id": "put", "code": "store.Memory.Put"}, {"id": "max", "label": "MaxItems", "code": "store.MaxItems"}, {"id": "total", "code": "cart.Total"}],
    "messages": [{"from": "put", "to": "max", "label": "reads"}, {"from": "put", "to": "total", "label": "sums"}]}]}},
  `
	brace := strings.IndexByte(string(src), '{') + 1
	if err := os.WriteFile(review, []byte(string(src[:brace])+"\n  "+notes+string(src[brace:])), 0o644); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "export-cohort-notes.md")
	for _, forgeName := range []string{"github", "gitlab", "gitea"} {
		args := []string{"export", "--to", forgeName, review}
		if forgeName == "gitlab" {
			sha := strings.Repeat("a", 40)
			args = []string{"export", "--to", "gitlab", "--base-sha", sha, "--start-sha", sha, "--head-sha", sha, review}
		}
		code, out, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d, stderr %s", forgeName, code, errs)
		}
		body := exportedBody(t, forgeName, out)
		i := strings.Index(body, "**Review order** — ")
		if i < 0 {
			t.Fatalf("%s: no cohorts section in the body:\n%s", forgeName, body)
		}
		section, _, _ := strings.Cut(body[i:], "\n\n<!-- lreview")
		if *update && forgeName == "github" {
			if err := os.WriteFile(golden, []byte(section+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if section+"\n" != string(want) {
			t.Errorf("%s: cohorts section:\n%s\nwant (%s):\n%s", forgeName, section, golden, want)
		}
	}
}

// exportedBody is the review body in what export --to printed: GitHub's
// and Gitea's review object, or GitLab's list of notes (the one without a
// position).
func exportedBody(t *testing.T, forgeName, out string) string {
	t.Helper()
	var one struct{ Body string }
	if json.Unmarshal([]byte(out), &one) == nil {
		return one.Body
	}
	var many []struct {
		Body     string
		Position any
	}
	if err := json.Unmarshal([]byte(out), &many); err != nil {
		t.Fatalf("%s: export printed neither a review nor notes: %v\n%s", forgeName, err, out)
	}
	for _, n := range many {
		if n.Position == nil {
			return n.Body
		}
	}
	t.Fatalf("%s: no review body among the notes:\n%s", forgeName, out)
	return ""
}
