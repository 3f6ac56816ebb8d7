package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/visual"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review's verdict (features/verdict.go) in the session: every axis
// and the verdict in the lens on the first brace, always (before any
// finalize it says the reviewers' axes are unavailable: Hold), and as the
// `verdict` diagnostic once the review is judged. The contract axis's
// result is the one contract.go keeps per version; the finalize record
// is read from the version itself, its patch's sum kept by the patch's
// origin (verdictState.sums).

// axes are the review's axes, and its contract axis's diagnostics.
func (s *Server) axes(ctx context.Context, docURI protocol.DocumentURI, an *anchor.Analysis) ([]verdict.Axis, *contract.Result, []exchange.Diagnostic) {
	axes, res := features.ReviewAxes(ctx, an, features.AxesFrom{
		Tree:     func() *worktree.Tree { return s.treeFor(docURI) },
		Contract: func(ctx context.Context, _ *worktree.Tree) *contract.Result { return s.contractResult(ctx, docURI, an) },
		Visual:   visual.Host(), Sums: &s.sums,
	})
	var ds []exchange.Diagnostic
	if res != nil {
		ds = features.ContractDiagnostics(an, res)
	}
	return axes, res, ds
}

// verdictDiagnostics are the axes' diagnostics and the verdict's.
func (s *Server) verdictDiagnostics(ctx context.Context, docURI protocol.DocumentURI, an *anchor.Analysis) []exchange.Diagnostic {
	axes, _, ds := s.axes(ctx, docURI, an)
	return features.VerdictDiagnostics(an, ds, axes)
}

// verdictLens is the verdict's lens, and the diagnostics the problems
// lens counts with the document's own.
func (s *Server) verdictLens(ctx context.Context, docURI protocol.DocumentURI, an *anchor.Analysis) (features.Lens, []exchange.Diagnostic, bool) {
	axes, res, ds := s.axes(ctx, docURI, an)
	l, ok := features.VerdictLens(an, axes, res)
	return l, features.VerdictDiagnostics(an, ds, axes), ok
}
