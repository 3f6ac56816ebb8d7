package contract_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// evaluate checks the review r (comments added) against its repository
// (none when noTree) and returns the result and the report.
func evaluate(t *testing.T, r *contracttest.Repo, noTree bool, comments ...string) (*contract.Result, *anchor.Analysis) {
	t.Helper()
	an := anchor.CheckDocument(exchange.Parse([]byte(contracttest.ReviewOf(r.Patch, comments...))), nil)
	if len(an.Index.Problems) > 0 {
		t.Fatalf("the patch has problems: %v", an.Index.Problems)
	}
	var tree *worktree.Tree
	if !noTree {
		var err error
		if tree, err = worktree.Open(r.Root); err != nil {
			t.Fatal(err)
		}
	}
	return contract.Evaluate(context.Background(), an, contract.Options{Tree: tree, Cache: &contract.Cache{}}), an
}

// breaking lists the breaking findings as "summary @ patch line text".
func breaking(r *contract.Result, an *anchor.Analysis) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Severity != contract.Breaking {
			continue
		}
		at := "header"
		if f.PatchLine >= 0 {
			at = strings.TrimSpace(an.Doc.Review.Patch.LineText(f.PatchLine))
		}
		out = append(out, f.Summary+" @ "+at)
	}
	return out
}

func TestEvaluateChanges(t *testing.T) {
	v30, v31 := contracttest.Orders("3.0.3"), contracttest.Orders("3.1.0")
	for _, tc := range []struct {
		name, path    string
		before, after string
		want          []string // substrings of the breaking findings, in order
		wantLine      []string // substrings of the lines they sit on
		status        contract.Status
		verdict       contract.Verdict
		nonBreaking   string // a substring of some non-breaking finding
	}{
		{name: "removed endpoint, YAML 3.0", path: "api/openapi.yaml", before: v30.YAML(), after: v30.RemoveDelete().YAML(),
			want: []string{"DELETE /orders/{id}"}, wantLine: []string{`-    "delete":`}, status: contract.Fail, verdict: contract.Block},
		{name: "removed endpoint, JSON 3.1", path: "openapi.json", before: v31.JSON(), after: v31.RemoveDelete().JSON(),
			want: []string{"DELETE /orders/{id}"}, wantLine: []string{`-      "delete": {`}, status: contract.Fail, verdict: contract.Block},
		{name: "required parameter, JSON 3.0", path: "openapi.json", before: v30.JSON(), after: v30.RequireLimit().JSON(),
			want: []string{"GET /orders: the `query` request parameter `limit` became required"}, wantLine: []string{`"required": true`}, status: contract.Fail, verdict: contract.Block},
		{name: "required parameter, YAML 3.1", path: "spec/orders.openapi.yml", before: v31.YAML(), after: v31.RequireLimit().YAML(),
			want: []string{"`limit` became required"}, wantLine: []string{`"required": true`}, status: contract.Fail, verdict: contract.Block},
		{name: "narrowed type, YAML 3.1", path: "openapi.yaml", before: v31.YAML(), after: v31.NarrowAmount().YAML(),
			want: []string{"POST /orders: the `amount` request property `type` changed from `number` to `integer`"}, wantLine: []string{`"type": "integer"`}, status: contract.Fail, verdict: contract.Block},
		{name: "added endpoint, JSON 3.1", path: "swagger.json", before: v31.JSON(), after: v31.AddEndpoint().JSON(),
			status: contract.Pass, verdict: contract.Ship, nonBreaking: "GET /customers: endpoint added"},
		{name: "renamed schema behind $ref, YAML 3.0", path: "openapi.yaml", before: v30.YAML(), after: v30.RenameSchema().YAML(),
			status: contract.Pass, verdict: contract.Ship},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := contracttest.NewRepo(t, map[string][2]string{tc.path: {tc.before, tc.after}})
			res, an := evaluate(t, repo, false)
			if len(res.Files) != 1 || !res.Files[0].Compared || res.Files[0].Derived {
				t.Fatalf("files: got %+v, want one compared exactly", res.Files)
			}
			got := breaking(res, an)
			if len(tc.want) == 0 && len(got) > 0 {
				t.Errorf("got breaking %q, want none", got)
			}
			for i, w := range tc.want {
				if i >= len(got) || !strings.Contains(got[i], w) {
					t.Errorf("breaking: got %q, want %q in finding %d", got, w, i)
				}
			}
			for i, w := range tc.wantLine {
				if i >= len(got) || !strings.Contains(got[i][strings.Index(got[i], " @ "):], w) {
					t.Errorf("breaking: got %q, want finding %d on the line %q", got, i, w)
				}
			}
			if res.Status != tc.status || res.Verdict != tc.verdict {
				t.Errorf("got %s, want %s / %s", res.Summary(), tc.status, tc.verdict)
			}
			if tc.nonBreaking != "" {
				found := false
				for _, f := range res.Findings {
					found = found || f.Severity != contract.Breaking && strings.Contains(f.Summary, tc.nonBreaking) && f.PatchLine >= 0
				}
				if !found {
					t.Errorf("no non-breaking finding %q on a patch line in %+v", tc.nonBreaking, res.Findings)
				}
			}
		})
	}
}

func TestEvaluateSummary(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {v.YAML(), v.RemoveDelete().RequireLimit().YAML()}})
	res, _ := evaluate(t, repo, false)
	if got, want := res.Summary(), "contract: fail (2 breaking, undecided) · verdict: Block"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// decision is a comment by hduran, on the first RIGHT line of path's
// first hunk in repo's patch, deciding the change summarized.
func decision(repo *contracttest.Repo, id, path, word, summary string) string {
	return decisionBy(repo, id, path, word, summary, `"author": "hduran"`)
}

// decisionBy is decision with the members extra (an author, a state, an
// anchor) in place of the author: the later of two members wins.
func decisionBy(repo *contracttest.Repo, id, path, word, summary, extra string) string {
	line := contracttest.FirstLine(repo.Patch, path)
	return fmt.Sprintf(`{"id": %q, "path": %q, "side": "RIGHT", "start_line": %d, "body": %s, %s}`,
		id, path, line, quote(contract.DecisionLine(word, summary)+"\nWe announced it."), extra)
}

func quote(s string) string { return jsontext.Quote(s) }

func TestEvaluateDecisions(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {v.YAML(), v.RemoveDelete().RequireLimit().YAML()}})
	res, _ := evaluate(t, repo, false)
	var del, limit string
	for _, f := range res.Findings {
		switch {
		case strings.HasPrefix(f.Summary, "DELETE"):
			del = f.Summary
		case strings.Contains(f.Summary, "limit"):
			limit = f.Summary
		}
	}
	if del == "" || limit == "" {
		t.Fatalf("findings: %+v", res.Findings)
	}
	for _, tc := range []struct {
		name     string
		comments []string
		want     string
		stale    int
	}{
		{"one approved", []string{decision(repo, "c1", "openapi.yaml", contract.Approved, del)},
			"contract: fail (2 breaking: 1 undecided, 1 approved by hduran) · verdict: Block", 0},
		{"both approved", []string{decision(repo, "c1", "openapi.yaml", contract.Approved, del), decision(repo, "c2", "openapi.yaml", contract.Approved, limit)},
			"contract: warn (2 breaking, approved by hduran) · verdict: Ship", 0},
		{"one rejected", []string{decision(repo, "c1", "openapi.yaml", contract.Approved, del), decision(repo, "c2", "openapi.yaml", contract.Rejected, limit)},
			"contract: fail (2 breaking: 1 rejected by hduran, 1 approved by hduran) · verdict: Block", 0},
		{"the later decision wins", []string{decision(repo, "c1", "openapi.yaml", contract.Rejected, del), decision(repo, "c2", "openapi.yaml", contract.Approved, limit), decision(repo, "c3", "openapi.yaml", contract.Approved, del)},
			"contract: warn (2 breaking, approved by hduran) · verdict: Ship", 0},
		{"stale", []string{decision(repo, "c1", "openapi.yaml", contract.Approved, del), decision(repo, "c2", "openapi.yaml", contract.Approved, limit), decision(repo, "c3", "openapi.yaml", contract.Approved, "GET /gone: API removed")},
			"contract: warn (2 breaking, approved by hduran; 1 stale decision) · verdict: Ship", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := evaluate(t, repo, false, tc.comments...)
			if got := res.Summary(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if len(res.Stale) != tc.stale {
				t.Errorf("stale: got %v, want %d", res.Stale, tc.stale)
			}
		})
	}
}

func TestEvaluateRebuild(t *testing.T) {
	v := contracttest.Orders("3.1.0")
	before, after := v.YAML(), v.RemoveDelete().YAML()
	writeTree := func(t *testing.T, repo *contracttest.Repo, name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo.Root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("no working tree: unavailable", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, after}})
		res, _ := evaluate(t, repo, true)
		if res.Status != contract.Unavailable || res.Verdict != contract.Hold || !strings.Contains(res.Files[0].Reason, "no working tree") {
			t.Errorf("got %s (%q), want unavailable, Hold", res.Summary(), res.Files[0].Reason)
		}
	})
	t.Run("the tree holds another text: unavailable", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, after}})
		writeTree(t, repo, "openapi.yaml", v.JSON())
		res, _ := evaluate(t, repo, false)
		if res.Status != contract.Unavailable || !strings.Contains(res.Files[0].Reason, "holds neither side") {
			t.Errorf("got %s (%q), want unavailable", res.Summary(), res.Files[0].Reason)
		}
	})
	t.Run("the tree holds the LEFT side: exact", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, after}})
		writeTree(t, repo, "openapi.yaml", before)
		res, an := evaluate(t, repo, false)
		if res.Status != contract.Fail || res.Derived || len(breaking(res, an)) != 1 {
			t.Errorf("got %s %q, want fail, exact, 1 breaking", res.Summary(), breaking(res, an))
		}
	})
	t.Run("the tree holds the hunks elsewhere: derived", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, after}})
		writeTree(t, repo, "openapi.yaml", "# moved down\n# by two lines\n"+after)
		res, an := evaluate(t, repo, false)
		if res.Status != contract.Fail || !res.Derived || res.Verdict != contract.Hold || len(breaking(res, an)) != 1 {
			t.Errorf("got %s %q, want fail, derived, Hold, 1 breaking", res.Summary(), breaking(res, an))
		}
		if got := res.Summary(); got != "contract: fail, derived (1 breaking, undecided) · verdict: Hold" {
			t.Errorf("got %q", got)
		}
	})
	t.Run("one of two files: partial", func(t *testing.T) {
		w := contracttest.Orders("3.0.3")
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, v.AddEndpoint().YAML()}, "legacy/swagger.json": {w.JSON(), w.RequireLimit().JSON()}})
		writeTree(t, repo, "legacy/swagger.json", "{}\n")
		res, _ := evaluate(t, repo, false)
		if res.Status != contract.Partial || res.Verdict != contract.Hold {
			t.Errorf("got %s, want partial, Hold", res.Summary())
		}
		if got := res.Summary(); got != "contract: partial (1 of 2 specifications compared; no breaking change) · verdict: Hold" ||
			res.Files[0].Path != "legacy/swagger.json" || !strings.HasPrefix(res.Files[0].Reason, "legacy/swagger.json: the working tree's file holds neither side") {
			t.Errorf("got %q", got)
		}
	})
	t.Run("a new file from the patch alone", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {"", after}})
		res, _ := evaluate(t, repo, true)
		if res.Status != contract.Pass || res.Verdict != contract.Ship || len(res.Findings) == 0 {
			t.Errorf("got %s with %d findings, want pass, Ship, endpoints added", res.Summary(), len(res.Findings))
		}
	})
	t.Run("a deleted file from the patch alone", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, ""}})
		res, an := evaluate(t, repo, true)
		if res.Status != contract.Fail || res.Verdict != contract.Block || len(breaking(res, an)) < 3 {
			t.Errorf("got %s %q, want every endpoint removed", res.Summary(), breaking(res, an))
		}
	})
	t.Run("a full-context diff from the patch alone", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {before, after}}, "-U9999")
		res, an := evaluate(t, repo, true)
		if res.Status != contract.Fail || res.Derived || len(breaking(res, an)) != 1 {
			t.Errorf("got %s %q, want fail, exact, 1 breaking", res.Summary(), breaking(res, an))
		}
	})
	t.Run("not a description: unavailable with the parser's reason", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {"a: [1\n", "a: 2\n"}})
		res, _ := evaluate(t, repo, false)
		if res.Status != contract.Unavailable || !strings.Contains(res.Files[0].Reason, "the old openapi.yaml") {
			t.Errorf("got %s (%q)", res.Summary(), res.Files[0].Reason)
		}
	})
}

func TestIsSpec(t *testing.T) {
	for name, want := range map[string]bool{
		"openapi.yaml": true, "api/OpenAPI.yml": true, "swagger.json": true, "docs/orders-openapi.v2.yaml": true,
		"api/swagger-ui.js": false, "openapi.md": false, "schema.graphql": false, "api.yaml": false,
	} {
		if got := contract.IsSpec(name); got != want {
			t.Errorf("IsSpec(%q): got %v, want %v", name, got, want)
		}
	}
}

func TestParseDecision(t *testing.T) {
	for body, want := range map[string]string{
		"contract: approved — DELETE /orders/{id}: API path removed\nrest": "approved|DELETE /orders/{id}: API path removed",
		"contract: rejected -- x\r\n":                                      "rejected|x",
		"contract: rejected - x":                                           "rejected|x",
		"contract: maybe — x":                                              "",
		"Contract: approved — x":                                           "",
		"contract: approved —":                                             "",
	} {
		w, s, ok := contract.ParseDecision(body)
		got := ""
		if ok {
			got = w + "|" + s
		}
		if got != want {
			t.Errorf("ParseDecision(%q): got %q, want %q", body, got, want)
		}
	}
}

// TestEvaluateExternalRef: a $ref to another file is not followed (the
// server reads nothing a review names outside the patch's files): the
// description is not compared, and says why.
func TestEvaluateExternalRef(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	ext := v.Copy()
	ext.Get("components", "schemas")["Order"] = map[string]any{"$ref": "order.yaml#/Order"}
	repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {v.YAML(), ext.YAML()}})
	res, _ := evaluate(t, repo, false)
	if res.Status != contract.Unavailable || !strings.Contains(res.Files[0].Reason, "the new openapi.yaml") {
		t.Errorf("got %s (%q), want unavailable", res.Summary(), res.Files[0].Reason)
	}
	t.Log(res.Files[0].Reason)
}

// TestCompareCircularRef: a schema that refers to itself is compared, not
// followed forever.
func TestCompareCircularRef(t *testing.T) {
	v := contracttest.Orders("3.1.0")
	c := v.Copy()
	c.Get("components", "schemas", "Order", "properties")["children"] = map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/Order"}}
	cs, err := contract.Compare("openapi.yaml", []byte(c.YAML()), []byte(c.NarrowAmount().YAML()))
	if err != nil || len(cs) == 0 || cs[0].Severity != contract.Breaking || !strings.Contains(cs[0].Summary, "`amount`") {
		t.Errorf("got %+v, %v; want the narrowed amount, breaking, first", cs, err)
	}
}

// TestEvaluateRenamedDescription: a description renamed to a name the
// axis would not pick (api/openapi.yaml to api/spec.yaml) is still a
// description: its new text is compared with its old name's, with and
// without a working tree, and a pure rename changes nothing.
func TestEvaluateRenamedDescription(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	t.Run("renamed and an endpoint removed", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), ""}, "api/spec.yaml": {"", v.RemoveDelete().YAML()}}, "-M")
		if !strings.Contains(strings.Join(repo.Patch, "\n"), "rename to api/spec.yaml") {
			t.Fatalf("git did not see a rename:\n%s", strings.Join(repo.Patch, "\n"))
		}
		for _, noTree := range []bool{false, true} {
			res, an := evaluate(t, repo, noTree)
			if noTree {
				// the hunks alone cannot be rebuilt: not compared, never passing
				if res.Status != contract.Unavailable || res.Verdict != contract.Hold {
					t.Errorf("no tree: got %s, want unavailable, Hold", res.Summary())
				}
				continue
			}
			got := breaking(res, an)
			if res.Status != contract.Fail || res.Verdict != contract.Block || len(got) != 1 || !strings.Contains(got[0], "DELETE /orders/{id}") {
				t.Errorf("got %s %q, want the removed DELETE, Block", res.Summary(), got)
			}
			if len(res.Files) != 1 || res.Files[0].Path != "api/spec.yaml" {
				t.Errorf("files: got %+v, want api/spec.yaml", res.Files)
			}
		}
	})
	t.Run("renamed only", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), ""}, "api/spec.yaml": {"", v.YAML()}}, "-M")
		res, _ := evaluate(t, repo, true)
		if res.Status != contract.Pass || res.Verdict != contract.Ship || len(res.Findings) != 0 {
			t.Errorf("got %s %+v, want pass, Ship, nothing changed", res.Summary(), res.Findings)
		}
	})
	t.Run("renamed to a description's name", func(t *testing.T) {
		repo := contracttest.NewRepo(t, map[string][2]string{"api/spec.yaml": {v.YAML(), ""}, "api/openapi.yaml": {"", v.RemoveDelete().YAML()}}, "-M")
		res, an := evaluate(t, repo, false)
		if got := breaking(res, an); res.Verdict != contract.Block || len(got) != 1 {
			t.Errorf("got %s %q, want the removed DELETE, Block", res.Summary(), got)
		}
	})
}

// TestDecisionsFromThoseAllowed: only an active, anchored comment by a
// person decides; an agent's, an anonymous one, and orphaned, dismissed,
// stale or misspelt states never do (issue 44: the agent's "contract:
// approved" through lreview_add_comment turned Block into Ship). The
// decisions that do not count are kept with why; those that do name
// their decider.
func TestDecisionsFromThoseAllowed(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), v.RemoveDelete().YAML()}})
	const del = "DELETE /orders/{id}: api removed without deprecation"
	res, _ := evaluate(t, repo, false)
	if len(res.Findings) == 0 || !strings.EqualFold(res.Findings[0].Summary, del) {
		t.Fatalf("findings: %+v", res.Findings)
	}
	summary := res.Findings[0].Summary
	const block = "contract: fail (1 breaking, undecided) · verdict: Block"
	for _, tc := range []struct {
		name, extra, want, why string
	}{
		{"a person", `"author": "hduran"`, "contract: warn (1 breaking, approved by hduran) · verdict: Ship", ""},
		{"a person, active", `"author": "mlefèvre", "state": "active"`, "contract: warn (1 breaking, approved by mlefèvre) · verdict: Ship", ""},
		{"the agent", `"author": "assistant"`, block, "its author assistant is an agent"},
		{"the agent, capitalised", `"author": " Assistant "`, block, "is an agent"},
		{"a bot account", `"author": "copilot[bot]"`, block, "is an agent"},
		{"no author", `"state": "active"`, block, "names no author"},
		{"orphaned", `"author": "anyone", "state": "orphaned"`, block, "it is orphaned, not active"},
		{"dismissed", `"author": "hduran", "state": "dismissed"`, block, "it is dismissed, not active"},
		{"stale", `"author": "hduran", "state": "stale"`, block, "it is stale, not active"},
		{"a misspelt state", `"author": "hduran", "state": "Active"`, block, `in the state "Active"`},
		{"not anchored", `"author": "anyone", "start_line": 9999`, block, "does not anchor"},
		{"a snippet of other lines", `"author": "hduran", "snippet": "operationId: nowhere"`, block, "snippet is not what its lines hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := evaluate(t, repo, false, decisionBy(repo, "c1", "api/openapi.yaml", contract.Approved, summary, tc.extra))
			if got := res.Summary(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if tc.why == "" {
				if len(res.Ignored) != 0 || res.Findings[0].DecidedBy != 0 {
					t.Errorf("ignored %+v, decided by %d; want c1 to decide", res.Ignored, res.Findings[0].DecidedBy)
				}
				return
			}
			if len(res.Ignored) != 1 || !strings.Contains(res.Ignored[0].Why, tc.why) || len(res.Stale) != 0 {
				t.Errorf("ignored %+v, stale %v; want c1 ignored: %q", res.Ignored, res.Stale, tc.why)
			}
		})
	}
	// A person's decision counts beside an agent's later one, which
	// neither overrides it nor is stale.
	res, _ = evaluate(t, repo, false,
		decisionBy(repo, "c1", "api/openapi.yaml", contract.Rejected, summary, `"author": "hduran"`),
		decisionBy(repo, "c2", "api/openapi.yaml", contract.Approved, summary, `"author": "assistant"`))
	if got, want := res.Summary(), "contract: fail (1 breaking, rejected by hduran) · verdict: Block"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
