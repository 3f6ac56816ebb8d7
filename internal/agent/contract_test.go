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
