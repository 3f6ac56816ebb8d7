package main

import (
	"context"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/visual"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review's verdict in `check` and `export`: every axis (the contract
// rebuilt as contractAxis says, the reviewers' from the finalize record,
// the visual axis from the working tree) and the verdict, as the editor's
// lens reads it. A judged review (finalized, or an axis that applies on
// its own) gets the `verdict` diagnostic, an error when Block, so that
// check exits 1; the others are as before.

// axes are the review's axes and the contract axis's result (nil when
// the review changes no OpenAPI description).
func (a *contractAxis) axes(name string, an *anchor.Analysis, cache *contract.Cache) ([]verdict.Axis, *contract.Result) {
	host := a.visual
	if host.LookPath == nil {
		host = visual.Host()
	}
	return features.ReviewAxes(context.Background(), an, features.AxesFrom{
		Tree: func() *worktree.Tree { return a.tree(name) }, Cache: cache, Visual: host,
	})
}

// diagnostics are an's diagnostics and its axes', in order.
func (a *contractAxis) diagnostics(name string, an *anchor.Analysis) []exchange.Diagnostic {
	axes, res := a.axes(name, an, &a.cache)
	var extra []exchange.Diagnostic
	if res != nil {
		extra = features.ContractDiagnostics(an, res)
	}
	extra = features.VerdictDiagnostics(an, extra, axes)
	if len(extra) == 0 {
		return an.Diagnostics
	}
	ds := append(slices.Clip(an.Diagnostics), extra...)
	exchange.SortDiagnostics(ds)
	return ds
}
