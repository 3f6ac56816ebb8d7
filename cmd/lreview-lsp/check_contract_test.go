package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
)

// contractReview is a review, in its git repository, of a description
// that loses DELETE /orders/{id} and makes limit required.
func contractReview(t *testing.T) *contracttest.Repo {
	t.Helper()
	v := contracttest.Orders("3.1.0")
	return contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), v.RemoveDelete().RequireLimit().YAML()}})
}

func checkOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"check"}, args...), nil, &stdout, &stderr)
	if code == 2 {
		t.Fatalf("check %v: exit 2: %s", args, stderr.String())
	}
	return stdout.String(), code
}

const blockSummary = "contract: fail (2 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block"

func TestCheckContractFormats(t *testing.T) {
	repo := contractReview(t)
	text, code := checkOut(t, repo.ReviewFile)
	if code != 1 {
		t.Errorf("exit: got %d, want 1 (Block)", code)
	}
	for _, want := range []string{
		":1:1: error: " + blockSummary + " [verdict]",
		"error: DELETE /orders/{id}: API removed without deprecation — breaking: clients calling it get 404; undecided: approve or reject it [contract-breaking]",
		"error: GET /orders: the `query` request parameter `limit` became required — breaking: requests that omit it are now rejected; undecided: approve or reject it [contract-breaking]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text: want %q in\n%s", want, text)
		}
	}
	for _, format := range []string{"json", "sarif", "rdjson", "github"} {
		out, code := checkOut(t, "--format", format, repo.ReviewFile)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", format, code)
		}
		verdictCode := `"verdict"` // the diagnostic's code
		if format == "github" {
			verdictCode = "title=lreview verdict"
		}
		for _, want := range []string{blockSummary, verdictCode, "contract-breaking", "DELETE /orders/{id}: API removed without deprecation"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: want %q in\n%s", format, want, out)
			}
		}
		if format != "github" {
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Errorf("%s: invalid JSON: %v", format, err)
			} else if format == "sarif" {
				if err := compileSchema(t, "sarif-schema-2.1.0.json").Validate(v); err != nil {
					t.Errorf("sarif: does not match the schema: %v", err)
				}
			} else if format == "rdjson" {
				if err := compileSchema(t, "DiagnosticResult.jsonschema").Validate(v); err != nil {
					t.Errorf("rdjson: does not match the schema: %v", err)
				}
			}
		}
	}
}

func TestCheckContractVerdicts(t *testing.T) {
	repo := contractReview(t)
	approvals := func(author string) string {
		var cs []string
		for i, summary := range []string{"DELETE /orders/{id}: API removed without deprecation", "GET /orders: the `query` request parameter `limit` became required"} {
			b, _ := json.Marshal(contract.DecisionLine(contract.Approved, summary) + "\nAnnounced in the changelog.")
			cs = append(cs, fmt.Sprintf(`{"id": "c%d", "author": %q, "path": "api/openapi.yaml", "side": "RIGHT", "start_line": %d, "body": %s}`,
				i+1, author, contracttest.FirstLine(repo.Patch, "api/openapi.yaml"), b))
		}
		return contracttest.ReviewOf(repo.Patch, cs...)
	}
	write := func(name, text string) string {
		p := filepath.Join(repo.Root, "reviews", name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out, code := checkOut(t, write("approved.review.json", approvals("hduran")))
	if code != 0 || !strings.Contains(out, "warning: contract: warn (2 breaking, approved by hduran) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold [verdict]") ||
		!strings.Contains(out, "warning: DELETE /orders/{id}: API removed without deprecation — breaking, approved by hduran in c1: clients calling it get 404 [contract-breaking]") {
		t.Errorf("approved: exit %d\n%s", code, out)
	}
	// The same words by the agent decide nothing, and say so.
	out, code = checkOut(t, write("agent.review.json", approvals("assistant")))
	if code != 1 || !strings.Contains(out, blockSummary) || !strings.Contains(out, "c1's decision does not count: its author assistant is an agent: a person decides") {
		t.Errorf("approved by the agent: exit %d, want 1 (Block)\n%s", code, out)
	}
	// Outside any repository, the hunks alone cannot be rebuilt: Hold.
	alone := filepath.Join(t.TempDir(), "alone.review.json")
	if err := os.WriteFile(alone, []byte(repo.Review), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = checkOut(t, alone)
	if code != 0 || !strings.Contains(out, "warning: contract: unavailable (api/openapi.yaml not compared: the patch shows only hunks of it, and there is no working tree to read it from) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold [verdict]") ||
		!strings.Contains(out, "[contract-unavailable]") {
		t.Errorf("no tree: exit %d\n%s", code, out)
	}
	// --root names the tree.
	out, code = checkOut(t, "--root", repo.Root, alone)
	if code != 1 || !strings.Contains(out, blockSummary) {
		t.Errorf("--root: exit %d\n%s", code, out)
	}
}

// TestFixAgreesWithCheckOnBlock: fix reports the contract axis as check
// does — a Block verdict is a "left error:" line and exit 1 — and a
// review whose changes are all decided exits 0 from both.
func TestFixAgreesWithCheckOnBlock(t *testing.T) {
	repo := contractReview(t)
	_, checkCode := checkOut(t, repo.ReviewFile)
	var stdout, stderr bytes.Buffer
	code := run([]string{"fix", repo.ReviewFile}, nil, &stdout, &stderr)
	if code != checkCode || code != 1 {
		t.Errorf("fix exit %d, check exit %d; want both 1 (Block)\n%s", code, checkCode, stderr.String())
	}
	for _, want := range []string{
		"left error: " + blockSummary + " [verdict]",
		"left error: DELETE /orders/{id}: API removed without deprecation — breaking: clients calling it get 404; undecided: approve or reject it [contract-breaking]",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("fix: want %q in\n%s", want, stderr.String())
		}
	}
	if stdout.String() != repo.Review {
		t.Errorf("fix changed the review:\n%s", stdout.String())
	}
}
