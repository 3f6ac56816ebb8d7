package agent

import (
	"context"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// ContractAxis is the contract axis of a review that changes an OpenAPI
// description (internal/contract), as lreview_check reports it.
type ContractAxis struct {
	Status  string `json:"status" jsonschema:"pass, warn, fail, partial or unavailable; only pass and warn lift the gate"`
	Derived bool   `json:"derived,omitempty" jsonschema:"true when a comparison was made from texts that might not be the reviewed ones: it never gates"`
	Verdict string `json:"verdict" jsonschema:"Ship, Hold or Block"`
	Summary string `json:"summary" jsonschema:"the axis and verdict in one line, as the editor's lens reads it"`
	// Undecided are the breaking changes no comment decides yet.
	Undecided []string `json:"undecided,omitempty" jsonschema:"the breaking changes no person approves or rejects yet; a person decides each (an agent's decision never counts, and these tools refuse to write one)"`
}

// withContract returns the diagnostics ds (counted in counts) of the
// review at rel with the contract axis's, and the axis, when the review
// changes a description. The descriptions are rebuilt, on every call
// (the tree changes under a version of the review), from the review's
// working tree as lreview_locate finds it (s.tree: read through the
// root), or from the patch alone when that cannot be opened.
func (s *server) withContract(rel string, an *anchor.Analysis, ds []Diagnostic, counts Counts) ([]Diagnostic, Counts, *ContractAxis) {
	if !contract.HasSpec(an.Index) {
		return ds, counts, nil
	}
	t, _ := s.tree(rel) // nil when it cannot be opened: the patch alone
	res := features.Contract(context.Background(), an, t, nil)
	axis := &ContractAxis{Status: string(res.Status), Derived: res.Derived, Verdict: string(res.Verdict), Summary: res.Summary()}
	for _, f := range res.Findings {
		if f.Severity == contract.Breaking && f.Decision == "" {
			axis.Undecided = append(axis.Undecided, f.Summary)
		}
	}
	extra := features.ContractDiagnostics(an, res)
	if len(extra) == 0 {
		return ds, counts, axis
	}
	all := append(slices.Clip(an.Diagnostics), extra...)
	exchange.SortDiagnostics(all)
	ds, counts = convertDiagnostics(an.Doc, all)
	return ds, counts, axis
}
