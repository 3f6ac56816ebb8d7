package cohort

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testgotypes"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// shapeOf builds the graph of the repository's working tree and the
// shape of a review of diff.
func shapeOf(t *testing.T, dir, diff string) (*Shape, *codegraph.Graph, *anchor.Analysis) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	g, err := codegraph.Build(context.Background(), root, codegraph.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := anchor.NewReview([]byte(diff), "t", "")
	if err != nil {
		t.Fatal(err)
	}
	an := anchor.CheckDocument(exchange.Parse(src), nil)
	s, _ := Of(an, g, func(p string) []string {
		data, err := root.ReadFile(p)
		if err != nil {
			return nil
		}
		return strings.Split(string(data), "\n")
	})
	return s, g, an
}

func cohortFiles(s *Shape) [][]string {
	var out [][]string
	for _, c := range s.Cohorts {
		out = append(out, c.Files)
	}
	return out
}

func withFiles(base map[string]string, change map[string]string) map[string]string {
	m := maps.Clone(base)
	maps.Copy(m, change)
	return m
}

// goChange changes store.New, cart.Total and the api's use of store.New,
// adds a cart test, and
// touches a CI workflow, the README and go.mod.
func goChange() map[string]string {
	m := testgotypes.ShopModule
	return map[string]string{
		"store/store.go":           strings.Replace(m["store/store.go"], "return &Memory{items: map[string]Item{}}", "return &Memory{items: make(map[string]Item, MaxItems)}", 1),
		"cart/cart.go":             strings.Replace(m["cart/cart.go"], "n := 0", "n := 0 // the sum", 1),
		"api/api.go":               strings.Replace(m["api/api.go"], "_ = store.New()", "_ = store.New() // a fresh one", 1),
		"cart/cart_test.go":        "package cart\n\nfunc checkTotal() bool { return Total(nil) == 0 }\n",
		".github/workflows/ci.yml": "on: push\njobs: {}\n",
		"README.md":                "# shop\n\nSells things.\n",
		"go.mod":                   "module example.com/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/google/uuid v1.6.0\n\tgolang.org/x/text v0.14.0\n)\n",
	}
}

func goBase() map[string]string {
	return withFiles(testgotypes.ShopModule, map[string]string{
		".github/workflows/ci.yml": "on: [push]\n",
		"README.md":                "# shop\n",
		"go.mod":                   "module example.com/shop\n\ngo 1.22\n\nrequire (\n\tgithub.com/google/uuid v1.3.0\n\tgithub.com/pkg/errors v0.9.1\n)\n",
	})
}

func TestGoModuleShape(t *testing.T) {
	repo := testreviews.NewGitRepo(t, goBase())
	base := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	head := repo.Commit("change", goChange())
	s, g, _ := shapeOf(t, repo.Dir, repo.Diff(base, head))
	want := [][]string{
		{"api/api.go", "cart/cart.go", "cart/cart_test.go", "store/store.go"},
		{"go.mod"},
		{".github/workflows/ci.yml"},
		{"README.md"},
	}
	if got := cohortFiles(s); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("cohorts = %v, want %v", got, want)
	}
	code := s.Cohorts[0]
	if code.Rank != 1 || code.Level != "medium" {
		t.Errorf("code cohort: rank %d level %s, want 1 medium (reasons %v)", code.Rank, code.Level, code.Reasons)
	}
	for _, want := range []string{"public API changed: Handle, Total, New", "tests changed with it"} {
		if !slices.Contains(code.Reasons, want) {
			t.Errorf("code cohort reasons %q lack %q", code.Reasons, want)
		}
	}
	if !strings.HasPrefix(code.Reasons[0], "3 uses outside") {
		t.Errorf("code cohort: first reason %q, want the uses outside it first", code.Reasons[0])
	}
	if code.Name != "api, cart, store · New, Total +1" {
		t.Errorf("name = %q", code.Name)
	}
	if s.Cohorts[1].Reasons[0] != "dependency manifest" || s.Cohorts[2].Reasons[0] != "CI workflow" {
		t.Errorf("go.mod, ci.yml reasons: %v, %v", s.Cohorts[1].Reasons, s.Cohorts[2].Reasons)
	}
	// Blast radius: every use go/types finds of each changed definition,
	// and no certain use it does not.
	truth := testgotypes.Uses(t, withFiles(testgotypes.ShopModule, goChange()), "example.com/shop")
	var defs []string
	for _, b := range code.BlastRadius {
		defs = append(defs, b.Definition)
		var all, certain []string
		for _, u := range b.Uses {
			at := fmt.Sprintf("%s:%d", u.Path, u.Line)
			all = append(all, at)
			if !u.Possible {
				certain = append(certain, at)
			}
		}
		for _, at := range truth[b.Definition] {
			if !slices.Contains(all, at) {
				t.Errorf("%s: go/types finds a use at %s; the blast radius lacks it (%v)", b.Definition, at, all)
			}
		}
		for _, at := range certain {
			if !slices.Contains(truth[b.Definition], at) {
				t.Errorf("%s: a certain use at %s that go/types does not find", b.Definition, at)
			}
		}
	}
	slices.Sort(defs)
	if want := []string{"example.com/shop/api.Handle", "example.com/shop/cart.Total", "example.com/shop/cart.checkTotal", "example.com/shop/store.New"}; !slices.Equal(defs, want) {
		t.Errorf("changed definitions = %v, want %v", defs, want)
	}
	newUses := g.Uses(g.Lookup("example.com/shop/store.New")[0])
	if len(newUses) != 4 {
		t.Errorf("store.New: %d uses, want 4 (api, ext_test, store_test, Default)", len(newUses))
	}
	wantDeps := []DepChange{
		{Manifest: "go.mod", Ecosystem: "go", Name: "github.com/google/uuid", Change: "upgraded", Old: "v1.3.0", New: "v1.6.0", Line: 6},
		{Manifest: "go.mod", Ecosystem: "go", Name: "github.com/pkg/errors", Change: "removed", Old: "v0.9.1", Line: 7},
		{Manifest: "go.mod", Ecosystem: "go", Name: "golang.org/x/text", Change: "added", New: "v0.14.0", Line: 7},
	}
	for i := range s.Deps {
		s.Deps[i].PatchLine = 0
	}
	if !slices.Equal(s.Deps, wantDeps) {
		t.Errorf("deps = %+v\nwant %+v", s.Deps, wantDeps)
	}
}

// TestSameInputSameJSON: two builds of one tree and review give the same
// bytes.
func TestSameInputSameJSON(t *testing.T) {
	repo := testreviews.NewGitRepo(t, goBase())
	base := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	head := repo.Commit("change", goChange())
	diff := repo.Diff(base, head)
	var first []byte
	for i := range 5 {
		s, _, _ := shapeOf(t, repo.Dir, diff)
		got, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = got
		} else if !bytes.Equal(got, first) {
			t.Fatalf("run %d gives other JSON:\n%s\nfirst:\n%s", i, got, first)
		}
	}
}

// TestKeysSurviveRebase: a rebase onto a base with one more commit, and
// one more commit on the change, keep the key of each cohort whose
// principal file is still in it; a mark made before shows the cohort
// changed where its files' changes did, reviewed where not.
func TestKeysSurviveRebase(t *testing.T) {
	repo := testreviews.NewGitRepo(t, goBase())
	base := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	repo.Git("checkout", "-q", "-b", "topic")
	head := repo.Commit("change", goChange())
	s1, g1, an1 := shapeOf(t, repo.Dir, repo.Diff(base, head))
	keys1 := map[string]string{}
	for _, c := range s1.Cohorts {
		keys1[c.principal] = c.Key
	}
	// Mark every cohort reviewed in the review file.
	src := an1.Doc.Text.Bytes()
	in1 := Input{Files: FromIndex(an1.Index), Graph: g1}
	for _, c := range s1.Cohorts {
		doc := exchange.Parse(src)
		e, ok := MarkEdit(doc, c.Key, Mark{Fingerprint: s1.FingerprintOf(c, in1), Files: c.Files})
		if !ok {
			t.Fatalf("MarkEdit(%s) refused", c.Key)
		}
		var err error
		if src, err = exchange.ApplyEdits(src, []exchange.Edit{e}); err != nil {
			t.Fatal(err)
		}
	}
	marked := Compute(Input{Files: in1.Files, Graph: g1, Marks: ReadMarks(exchange.Parse(src))})
	for _, c := range marked.Cohorts {
		if c.Reviewed != "reviewed" {
			t.Errorf("cohort %s after marking: %q, want reviewed", c.Name, c.Reviewed)
		}
	}
	// Upstream moves on; the topic is rebased and gets one more commit
	// that changes the code cohort again.
	repo.Git("checkout", "-q", "main")
	newBase := repo.Commit("upstream", map[string]string{"docs/guide.md": "guide\n"})
	repo.Git("checkout", "-q", "topic")
	repo.Git("rebase", "-q", "main")
	head2 := repo.Commit("more", map[string]string{"cart/local.go": testgotypes.ShopModule["cart/local.go"] + "\nfunc Extra() int { return Total(nil) }\n"})
	diff2 := repo.Diff(newBase, head2)
	s2, g2, an2 := shapeOf(t, repo.Dir, diff2)
	kept := 0
	for _, c := range s2.Cohorts {
		if k, ok := keys1[c.principal]; ok {
			kept++
			if c.Key != k {
				t.Errorf("cohort of %s: key %s after the rebase, %s before", c.principal, c.Key, k)
			}
		}
	}
	if kept != len(s1.Cohorts) {
		t.Errorf("%d of %d cohorts kept their principal file", kept, len(s1.Cohorts))
	}
	// The marks, carried to the rebased review by its root member.
	s3 := Compute(Input{Files: FromIndex(an2.Index), Graph: g2, Marks: ReadMarks(exchange.Parse(src))})
	states := map[string]string{}
	for _, c := range s3.Cohorts {
		states[c.Files[0]] = c.Reviewed
	}
	want := map[string]string{"api/api.go": "changed", "go.mod": "reviewed", ".github/workflows/ci.yml": "reviewed", "README.md": "reviewed"}
	if !maps.Equal(states, want) {
		t.Errorf("marks after the rebase: %v, want %v", states, want)
	}
}
