package features

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/visual"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review's one verdict (internal/verdict): every axis and the verdict
// in the lens on the document's first brace, and as the `verdict`
// diagnostic there, for the editors without lenses and every `check`
// format (an error when Block, so that check exits 1).

// VerdictAxes are the review's axes in the lens's order: the contract
// (res, nil when the review changes no OpenAPI description), the
// reviewers' as the finalize record says, and the visual axis (a zero
// Axis: it does not apply). sums, which may be nil, keeps the patches'
// sums the finalize record is checked against.
func VerdictAxes(an *anchor.Analysis, res *contract.Result, visual verdict.Axis, sums *verdict.Sums) []verdict.Axis {
	c := verdict.Axis{Name: verdict.Contract}
	if res != nil && res.Applies() {
		c.Applies, c.Status, c.Floor, c.Shown = true, res.Status, res.Verdict, res.StatusWords()
	}
	visual.Name = verdict.Visual
	axes := []verdict.Axis{c}
	axes = append(axes, verdict.ReviewerAxes(an.Doc, sums)...)
	return append(axes, visual)
}

// AxesFrom is what a caller computes the axes from: the editor, `check`
// and the agent differ only in these.
type AxesFrom struct {
	// Tree opens the review's working tree, nil when there is none (the
	// patch alone); called at most once, and only when an axis reads it.
	Tree func() *worktree.Tree
	// Contract is the contract axis's result when the review changes an
	// OpenAPI description; nil: Contract(ctx, a, tree, Cache).
	Contract func(ctx context.Context, t *worktree.Tree) *contract.Result
	Cache    *contract.Cache
	// Visual is the visual axis's host (visual.Host, or the editor's
	// background renderer).
	Visual visual.Options
	// Sums, which may be nil, keeps the patches' sums the finalize
	// record is checked against.
	Sums *verdict.Sums
	// Record, when not nil, is the finalize record the reviewers' axes
	// are read from instead of the review's own (a finalize about to be
	// written).
	Record *verdict.Record
}

// ReviewAxes are every axis of the review, in the lens's order, and the
// contract axis's result (nil when the review changes no OpenAPI
// description): the one place the contract, the reviewers' and the
// visual axis are put together.
func ReviewAxes(ctx context.Context, an *anchor.Analysis, from AxesFrom) ([]verdict.Axis, *contract.Result) {
	spec, ui := contract.HasSpec(an.Index), visual.Touches(an.Index)
	var t *worktree.Tree
	if (spec || ui) && from.Tree != nil {
		t = from.Tree()
	}
	var res *contract.Result
	switch {
	case !spec:
	case from.Contract != nil:
		res = from.Contract(ctx, t)
	default:
		res = Contract(ctx, an, t, from.Cache)
	}
	var vis verdict.Axis
	if ui {
		vis = visual.Evaluate(ctx, an, t, from.Visual).Axis()
	}
	axes := VerdictAxes(an, res, vis, from.Sums)
	if from.Record != nil {
		copy(axes[1:1+len(verdict.Reviewers)], verdict.RecordedAxes(from.Record, nil, an.Doc, nil))
	}
	return axes, res
}

// Judged reports whether the review has a verdict to carry beyond "not
// finalized": a finalize record, or an axis that applies on its own (the
// contract, the visual axis). Only then do `check` and the publishes
// carry the verdict diagnostic; the lens says it always.
func Judged(axes []verdict.Axis) bool {
	for _, ax := range axes {
		if ax.Applies && ax.Detail != verdict.NotFinalized {
			return true
		}
	}
	return false
}

// VerdictLens is the axes and the verdict over the document's first
// brace, going where the verdict is made: the contract's first breaking
// change still undecided when the contract axis holds the verdict where
// it is (res: the contract axis's result, or nil), else the finalize
// record, else the first brace itself.
func VerdictLens(an *anchor.Analysis, axes []verdict.Axis, res *contract.Result) (Lens, bool) {
	root := an.Doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return Lens{}, false
	}
	top := exchange.Range{Start: root.Start, End: root.Start + 1}
	target := exchange.Range{Start: root.Start, End: root.Start}
	if n := root.Member(verdict.Member); n != nil {
		target = exchange.Range{Start: n.KeyStart(), End: n.KeyStart()}
	}
	if res != nil && res.Verdict == verdict.Of(axes) {
		if l, ok := ContractLens(an, res); ok {
			target = l.Target
		}
	}
	return Lens{Range: top, Title: verdict.Line(axes), Target: target}, true
}

// VerdictDiagnostics are ds, the axes' own diagnostics, and the
// verdict's diagnostic when the review is judged.
func VerdictDiagnostics(an *anchor.Analysis, ds []exchange.Diagnostic, axes []verdict.Axis) []exchange.Diagnostic {
	out := append(make([]exchange.Diagnostic, 0, len(ds)+1), ds...)
	root := an.Doc.Root
	if root == nil || !Judged(axes) {
		return out
	}
	sev := exchange.SeverityInformation
	switch verdict.Of(axes) {
	case verdict.Block:
		sev = exchange.SeverityError
	case verdict.Hold:
		sev = exchange.SeverityWarning
	}
	top := exchange.Range{Start: root.Start, End: root.Start + 1}
	d := exchange.Diagnostic{Range: top, Severity: sev, Code: verdict.Code, Message: verdict.Line(axes)}
	// The visual axis has no diagnostics of its own: why it could not
	// run or finish (the harness's output) rides on the verdict's.
	for _, ax := range axes {
		if ax.Name == verdict.Visual && ax.Applies && ax.Reason != "" && (ax.Status == verdict.Unavailable || ax.Status == verdict.Partial) {
			d.Related = append(d.Related, exchange.Related{Range: top, Message: ax.Label() + ": " + ax.Reason})
		}
	}
	out = append(out, d)
	exchange.SortDiagnostics(out)
	return out
}
