package main

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/forge"
)

// exportVerdict is the review body's verdict section (forge.VerdictSection)
// when the review changes an OpenAPI description: the contract axis run as
// `check` runs it (the working tree above the review, else the patch
// alone), the verdict, the breaking changes still undecided and those
// decided, each with who decided it. "" for a review that changes none.
func exportVerdict(name string, plan *forge.Plan) string {
	an := anchor.CheckDocument(plan.Doc, nil)
	if !contract.HasSpec(an.Index) {
		return ""
	}
	res := features.Contract(context.Background(), an, (&contractAxis{}).tree(name), nil)
	var undecided, decided []string
	for _, f := range res.Findings {
		switch {
		case f.Severity != contract.Breaking:
		case f.Decision == "":
			undecided = append(undecided, f.Summary)
		default:
			decided = append(decided, f.Summary+" — "+f.Decision+" by "+f.Decider+" in "+an.Doc.Review.Comments[f.DecidedBy].Name())
		}
	}
	return forge.VerdictSection(string(res.Verdict), "contract: "+res.StatusWords(), undecided, decided)
}
