package agent

import (
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// ContractAxis is the contract axis of a review that changes an OpenAPI
// description (internal/contract), as lreview_check reports it.
type ContractAxis struct {
	Status  string `json:"status" jsonschema:"pass, warn, fail, partial or unavailable; only pass and warn lift the gate"`
	Derived bool   `json:"derived,omitempty" jsonschema:"true when a comparison was made from texts that might not be the reviewed ones: it never gates"`
	Verdict string `json:"verdict" jsonschema:"Ship, Hold or Block"`
	Summary string `json:"summary" jsonschema:"the axis and verdict in one line, as the editor's lens reads it"`
	// Undecided are the breaking changes no comment decides yet.
	Undecided []string `json:"undecided,omitempty" jsonschema:"the breaking changes no comment approves or rejects yet; a comment whose body begins 'contract: approved — <change>' or 'contract: rejected — <change>' decides one"`
}

// withContract returns rep's diagnostics with the contract axis's, and
// the axis, when the review changes a description; the descriptions are
// rebuilt from the server's root as a working tree.
func (s *server) withContract(rep *anchor.Report) ([]exchange.Diagnostic, *ContractAxis) {
	if !contract.HasSpec(rep.Index) {
		return rep.Diagnostics, nil
	}
	t, _ := worktree.Open(s.root)
	an := features.Analysis{Report: rep}
	res := an.Contract(t, nil)
	ds := append(slices.Clip(rep.Diagnostics), an.ContractDiagnostics(res)...)
	exchange.SortDiagnostics(ds)
	axis := &ContractAxis{Status: string(res.Status), Derived: res.Derived, Verdict: string(res.Verdict), Summary: res.Summary()}
	for _, f := range res.Findings {
		if f.Severity == contract.Breaking && f.Decision == "" {
			axis.Undecided = append(axis.Undecided, f.Summary)
		}
	}
	return ds, axis
}
