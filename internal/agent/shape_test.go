package agent

import (
	"maps"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/testgotypes"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// shapeSession serves a root holding the shop module after a change of
// store.MaxItems, cart.Total and go.mod, and the review of that change
// (no .git in the root: the root is the working tree).
func shapeSession(t *testing.T) *session {
	t.Helper()
	base := maps.Clone(testgotypes.ShopModule)
	base["go.mod"] = "module example.com/shop\n\ngo 1.22\n\nrequire golang.org/x/text v0.3.0\n"
	repo := testreviews.NewGitRepo(t, base)
	from := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	change := map[string]string{
		"go.mod":         "module example.com/shop\n\ngo 1.22\n\nrequire golang.org/x/text v0.14.0\n",
		"store/store.go": strings.Replace(base["store/store.go"], "const MaxItems = 100", "const MaxItems = 200", 1),
		"cart/cart.go":   strings.Replace(base["cart/cart.go"], "n := 0", "n := 0 // the sum", 1),
	}
	to := repo.Commit("change", change)
	review, err := anchor.NewReview([]byte(repo.Diff(from, to)), "shop", "")
	if err != nil {
		t.Fatal(err)
	}
	files := maps.Clone(base)
	maps.Copy(files, change)
	files["r.review.json"] = string(review)
	return newSession(t, Options{}, files)
}

func TestCohortsTool(t *testing.T) {
	s := shapeSession(t)
	var out CohortsOutput
	text := s.ok("lreview_cohorts", map[string]any{"file": "r.review.json", "limit": 1}, &out)
	if out.Total != 2 || len(out.Cohorts) != 1 || out.NextCursor == "" {
		t.Fatalf("first page: total %d, %d cohorts, cursor %q; want 2, 1, a cursor\n%s", out.Total, len(out.Cohorts), out.NextCursor, text)
	}
	if first := out.Cohorts[0]; first.Rank != 1 || first.Files[0] != "go.mod" || first.Level != "high" {
		t.Errorf("first cohort = %+v", first)
	}
	if len(out.Deps) != 1 || out.Deps[0].Change != "upgraded" || out.Deps[0].Name != "golang.org/x/text" {
		t.Errorf("deps = %+v", out.Deps)
	}
	if !strings.Contains(text, "go.mod:5: dependency upgraded: golang.org/x/text v0.3.0 → v0.14.0 (major version change)") {
		t.Errorf("text lacks the dependency change:\n%s", text)
	}
	var rest CohortsOutput
	s.ok("lreview_cohorts", map[string]any{"file": "r.review.json", "cursor": out.NextCursor, "limit": 5}, &rest)
	if len(rest.Cohorts) != 1 || rest.NextCursor != "" {
		t.Fatalf("second page = %+v", rest.Cohorts)
	}
	// cart.Total uses store.MaxItems, which the change changes: one cohort.
	code := rest.Cohorts[0]
	if code.Rank != 2 || strings.Join(code.Files, " ") != "cart/cart.go store/store.go" || strings.Join(code.Changed, " ") != "example.com/shop/cart.Total example.com/shop/store.MaxItems" {
		t.Errorf("code cohort = %+v", code)
	}
}

func TestBlastRadiusTool(t *testing.T) {
	s := shapeSession(t)
	var out BlastOutput
	text := s.ok("lreview_blast_radius", map[string]any{"file": "r.review.json", "path": "store/store.go"}, &out)
	if len(out.Definitions) != 1 || out.Definitions[0] != "example.com/shop/store.MaxItems" || out.Total != 3 {
		t.Fatalf("store.go: %+v\n%s", out, text)
	}
	if u := out.Uses[0]; u.Path != "cart/cart.go" || u.From != "Total" || u.Possible {
		t.Errorf("first use = %+v", u)
	}
	var get BlastOutput
	s.ok("lreview_blast_radius", map[string]any{"file": "r.review.json", "definition": "example.com/shop/store.Memory.Get"}, &get)
	possible := 0
	for _, u := range get.Uses {
		if u.Possible {
			possible++
		}
	}
	if get.Total == 0 || possible != get.Total {
		t.Errorf("Memory.Get: %d uses, %d possible; want every use possible (called on interface values)", get.Total, possible)
	}
	s.refused("lreview_blast_radius", map[string]any{"file": "r.review.json", "definition": "Nope"}, "no definition")
	s.refused("lreview_blast_radius", map[string]any{"file": "r.review.json"}, "path or definition")
}
