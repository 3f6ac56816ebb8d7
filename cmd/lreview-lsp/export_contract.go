package main

import (
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/forge"
	"github.com/leanreview/lreview-lsp/internal/verdict"
)

// exportVerdict is the review body's verdict section (forge.VerdictSection)
// when the review is judged (finalized, or an axis applies on its own):
// every axis as `check` computes it (the working tree above the review,
// else the patch alone), the verdict, the breaking changes still
// undecided and those decided, each with who decided it. "" for a review
// nothing judged.
func exportVerdict(name string, plan *forge.Plan) string {
	an := plan.Analysis
	axes, res := (&contractAxis{}).axes(name, an, nil)
	if !features.Judged(axes) {
		return ""
	}
	var undecided, decided []string
	if res != nil {
		for _, f := range res.Findings {
			switch {
			case f.Severity != contract.Breaking:
			case f.Decision == "":
				undecided = append(undecided, f.Summary)
			default:
				decided = append(decided, f.Summary+" — "+f.Decision+" by "+f.Decider+" in "+an.Doc.Review.Comments[f.DecidedBy].Name())
			}
		}
	}
	return forge.VerdictSection(string(verdict.Of(axes)), verdict.AxesLine(axes), undecided, decided)
}
