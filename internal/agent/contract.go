package agent

import (
	"github.com/leanreview/lreview-lsp/internal/contract"
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

// contractAxisOf is the axis as lreview_check reports it.
func contractAxisOf(res *contract.Result) *ContractAxis {
	axis := &ContractAxis{Status: string(res.Status), Derived: res.Derived, Verdict: string(res.Verdict), Summary: res.Summary()}
	for _, f := range res.Findings {
		if f.Severity == contract.Breaking && f.Decision == "" {
			axis.Undecided = append(axis.Undecided, f.Summary)
		}
	}
	return axis
}
