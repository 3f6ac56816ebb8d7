package main

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/forge"
	"github.com/leanreview/lreview-lsp/internal/verdict"
)

// exportVerdict is the review body's verdict section (forge.VerdictSection)
// when the review is judged (finalized, or an axis applies on its own):
// every axis as `check` computes it (the working tree above the review,
// else the patch alone), the verdict, and the breaking changes still
// undecided. "" for a review nothing judged.
func exportVerdict(name string, plan *forge.Plan) string {
	an := anchor.CheckDocument(plan.Doc, nil)
	axes, res := (&contractAxis{}).axes(name, an, nil)
	if !features.Judged(axes) {
		return ""
	}
	var undecided []string
	if res != nil {
		for _, f := range res.Findings {
			if f.Severity == contract.Breaking && f.Decision == "" {
				undecided = append(undecided, f.Summary)
			}
		}
	}
	return forge.VerdictSection(string(verdict.Of(axes)), verdict.AxesLine(axes), undecided)
}
