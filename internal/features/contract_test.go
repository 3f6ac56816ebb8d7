package features

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

func contractAnalysis(t *testing.T, repo *contracttest.Repo, text string) (*anchor.Analysis, *contract.Result) {
	t.Helper()
	tree, err := worktree.Open(repo.Root)
	if err != nil {
		t.Fatal(err)
	}
	an := anchor.CheckDocument(exchange.Parse([]byte(text)), nil)
	return an, Contract(context.Background(), an, tree, &contract.Cache{})
}

// diagWords are the axis's diagnostics as "code severity: message" and
// the text each sits on.
func diagWords(an *anchor.Analysis, ds []exchange.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code+" "+d.Severity.String()+": "+d.Message+" @ "+string(an.Doc.Text.Slice(d.Range.Start, d.Range.End)))
	}
	return out
}

func TestContractDiagnosticsPlaces(t *testing.T) {
	v := contracttest.Orders("3.1.0")
	repo := contracttest.NewRepo(t, map[string][2]string{
		"openapi.yaml":        {v.YAML(), v.RemoveDelete().AddEndpoint().YAML()},
		"legacy/swagger.json": {v.JSON(), v.RequireLimit().JSON()},
	})
	if err := os.WriteFile(filepath.Join(repo.Root, "legacy", "swagger.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line := contracttest.FirstLine(repo.Patch, "openapi.yaml")
	stale := fmt.Sprintf(`{"id": "c1", "author": "hduran", "path": "openapi.yaml", "side": "RIGHT", "start_line": %d, "body": "contract: rejected — GET /gone: API removed without deprecation\nold"}`, line)
	byAgent := fmt.Sprintf(`{"id": "c2", "author": "assistant", "path": "openapi.yaml", "side": "RIGHT", "start_line": %d, "body": "contract: approved — DELETE /orders/{id}: API removed without deprecation"}`, line)
	an, res := contractAnalysis(t, repo, contracttest.ReviewOf(repo.Patch, stale, byAgent))
	got := diagWords(an, VerdictDiagnostics(an, ContractDiagnostics(an, res), VerdictAxes(an, res, verdict.Axis{}, nil)))
	for _, want := range []string{
		"verdict error: contract: fail (1 breaking, undecided; 1 of 2 specifications compared; 1 stale decision) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block @ {",
		`contract-unavailable warning: the contract of legacy/swagger.json was not compared: legacy/swagger.json: the working tree's file holds neither side of the patch's hunks; the verdict cannot pass without it @ "diff --git a/legacy/swagger.json b/legacy/swagger.json"`,
		`contract-breaking error: DELETE /orders/{id}: API removed without deprecation — breaking: clients calling it get 404; undecided: approve or reject it; c2's decision does not count: its author assistant is an agent: a person decides @ "-    \"delete\":"`,
		`contract-change hint: GET /customers: endpoint added (non-breaking) @ "+    \"get\":"`,
		`contract-decision-stale warning: c1 decides "GET /gone: API removed without deprecation", a change openapi.yaml no longer makes: the decision is stale @ "contract: rejected — GET /gone: API removed without deprecation\nold"`,
	} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("want %q among\n%s", want, strings.Join(got, "\n"))
		}
	}
	l, ok := VerdictLens(an, VerdictAxes(an, res, verdict.Axis{}, nil), res)
	if !ok || l.Title != "contract: fail (1 breaking, undecided; 1 of 2 specifications compared; 1 stale decision) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block" ||
		!strings.HasPrefix(string(an.Doc.Text.Slice(l.Target.Start, l.Target.Start+12)), `"-    \"dele`) {
		t.Errorf("lens: got %+v (target at %q)", l, an.Doc.Text.Slice(l.Target.Start, l.Target.Start+12))
	}
}

func TestContractDerivedNeverGates(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	after := v.RemoveDelete().JSON()
	repo := contracttest.NewRepo(t, map[string][2]string{"openapi.json": {v.JSON(), after}})
	// The tree's file is the RIGHT side with its hunks moved down.
	moved := strings.Replace(after, "{\n", "{\n  \"x-note\": \"moved\",\n  \"x-more\": 1,\n", 1)
	if err := os.WriteFile(filepath.Join(repo.Root, "openapi.json"), []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	an, res := contractAnalysis(t, repo, repo.Review)
	got := diagWords(an, VerdictDiagnostics(an, ContractDiagnostics(an, res), VerdictAxes(an, res, verdict.Axis{}, nil)))
	if len(got) < 2 || !strings.HasPrefix(got[0], "verdict warning: contract: fail, derived (1 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold") ||
		!strings.Contains(strings.Join(got, "\n"), "contract-breaking warning: DELETE /orders/{id}: API removed without deprecation — breaking: clients calling it get 404; undecided: approve or reject it (indicative, it does not gate: compared from the working tree's openapi.json") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

// TestContractActionsDeletedFile: a deleted description removes every
// endpoint; rejecting one writes a decision on its removed (LEFT) line,
// which resolves.
func TestContractActionsDeletedFile(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {v.YAML(), ""}})
	an, res := contractAnalysis(t, repo, repo.Review)
	var f *contract.Finding
	for i := range res.Findings {
		if res.Findings[i].Severity == contract.Breaking {
			f = &res.Findings[i]
			break
		}
	}
	if f == nil {
		t.Fatalf("no breaking finding: %+v", res.Findings)
	}
	rg := findingRange(an, f)
	acts := ContractActions(an, res, rg.Start, rg.Start, ActionOptions{Author: "me", Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	if len(acts) != 2 || !strings.HasPrefix(acts[0].Title, "Approve this breaking change: ") || !strings.HasPrefix(acts[1].Title, "Reject this breaking change: ") {
		t.Fatalf("actions: %+v", acts)
	}
	out, err := exchange.ApplyEdits([]byte(repo.Review), acts[1].Edits)
	if err != nil {
		t.Fatal(err)
	}
	r2, res2 := contractAnalysis(t, repo, string(out))
	if res2.Rejected != 1 || len(r2.Doc.Review.Comments) != 1 || r2.Doc.Review.Comments[0].Side != "LEFT" || !r2.Anchors.Resolutions[0].Resolved {
		t.Errorf("after rejecting: %s, comments %+v", res2.Summary(), r2.Doc.Review.Comments)
	}
}
