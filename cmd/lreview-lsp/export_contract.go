package main

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/forge"
)

// exportVerdict is the review body's verdict section (forge.VerdictSection)
// when the review changes an OpenAPI description: the contract axis run as
// `check` runs it (the working tree above the review, else the patch
// alone), the verdict and the breaking changes still undecided. "" for a
// review that changes none.
func exportVerdict(name string, plan *forge.Plan) string {
	rep := anchor.CheckDocument(plan.Doc, nil)
	if !contract.HasSpec(rep.Index) {
		return ""
	}
	res := features.Analysis{Report: rep}.Contract((&contractAxis{}).tree(name), nil)
	var undecided []string
	for _, f := range res.Findings {
		if f.Severity == contract.Breaking && f.Decision == "" {
			undecided = append(undecided, f.Summary)
		}
	}
	return forge.VerdictSection(string(res.Verdict), "contract: "+res.StatusWords(), undecided)
}
