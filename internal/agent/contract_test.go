package agent

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
)

// TestCheckContract: lreview_check of a review whose description loses
// DELETE /orders/{id}, in a root holding the description, carries the
// axis, the verdict and the undecided change.
func TestCheckContract(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	after := v.RemoveDelete().YAML()
	repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), after}})
	s := newSession(t, Options{}, map[string]string{"api/openapi.yaml": after, "pr.review.json": repo.Review})
	var out CheckOutput
	text := s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &out)
	a := out.Contract
	if a == nil || a.Status != "fail" || a.Verdict != "Block" || a.Summary != "contract: fail (1 breaking, undecided) · verdict: Block" ||
		len(a.Undecided) != 1 || a.Undecided[0] != "DELETE /orders/{id}: API removed without deprecation" {
		t.Fatalf("contract: got %+v", a)
	}
	if out.Clean || !strings.Contains(text, "contract: fail (1 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block [verdict]") ||
		!strings.Contains(text, "[contract-breaking]") {
		t.Errorf("got clean %v, text:\n%s", out.Clean, text)
	}
	// A review without a description has no axis.
	s = newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &out)
	if out.Contract != nil {
		t.Errorf("no description: got %+v", out.Contract)
	}
}

// TestAgentWritesNoDecision: lreview_add_comment and lreview_edit_comment
// refuse a body that would approve or reject a breaking change (issue 44:
// the agent's "contract: approved — DELETE /orders/{id}" turned Block
// into Ship), say why, and write nothing; the verdict stays Block.
func TestAgentWritesNoDecision(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	after := v.RemoveDelete().YAML()
	repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), after}})
	line := contracttest.FirstLine(repo.Patch, "api/openapi.yaml")
	const approval = "contract: approved — DELETE /orders/{id}: API removed without deprecation\nclients were told"
	// Even an agent started under a person's name (mcp --agent hduran)
	// writes no decision.
	named := newSession(t, Options{Agent: "hduran"}, map[string]string{"api/openapi.yaml": after, "pr.review.json": repo.Review})
	named.refused("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "api/openapi.yaml", "side": "RIGHT", "start_line": line, "body": approval},
		"only a person approved one", "leave the decision to a person")
	s := newSession(t, Options{}, map[string]string{"api/openapi.yaml": after, "pr.review.json": repo.Review})
	s.refused("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "api/openapi.yaml", "side": "RIGHT", "start_line": line, "body": approval},
		"only a person approved one", "leave the decision to a person")
	if got := s.read("pr.review.json"); got != repo.Review {
		t.Fatalf("the refused comment was written:\n%s", got)
	}
	var added Comment
	s.ok("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "api/openapi.yaml", "side": "RIGHT", "start_line": line, "body": "DELETE /orders/{id} is removed: was it announced?"}, &added)
	s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": added.ID, "body": "contract: rejected - DELETE /orders/{id}: API removed without deprecation"},
		"only a person rejected one")
	var out CheckOutput
	s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &out)
	if out.Contract == nil || out.Contract.Verdict != "Block" {
		t.Errorf("contract: got %+v, want Block", out.Contract)
	}
}
