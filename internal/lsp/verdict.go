package lsp

import (
	"context"
	"maps"
	"os/exec"
	"slices"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/visual"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review's verdict (features/verdict.go, ReviewAxes) in the session:
// every axis and the verdict in the lens on the first brace, always
// (before any finalize it says the reviewers' axes are unavailable:
// Hold), and as the
// `verdict` diagnostic once the review is judged. The contract axis's
// result is the one contract.go keeps per version; the finalize record
// is read from the version itself, its patch's sum kept by the patch's
// origin (verdictState.sums).

// visualState renders the visual axis's golden images in the
// background: a publish never runs flutter. A publish whose images are
// not rendered yet shows the axis partial ("rendering the golden
// images") and queues its job; one job renders at a time (the newest
// queued next, those between dropped), and when it ends every open
// review is published again, reading the images from the renderer's
// memo (kept by the inputs' sum: the patch and every file's stat). The
// server's exit cancels a render and kills flutter. mu is a leaf.
type visualState struct {
	flutter visual.Flutter
	mu      sync.Mutex
	running string // the key of the job rendering, "" when none
	next    *visual.Job
}

// visualRenderer is the visual axis's renderer in the session.
type visualRenderer struct{ s *Server }

// Render answers from the memo, or queues the job: visual.ErrPending.
func (r visualRenderer) Render(_ context.Context, job *visual.Job) (base, head map[string][]byte, err error) {
	st := &r.s.visual
	if base, head, err, ok := st.flutter.Cached(job.Key); ok {
		return base, head, err
	}
	st.mu.Lock()
	switch st.running {
	case job.Key:
	case "":
		st.running = job.Key
		st.mu.Unlock()
		if !r.s.spawn(func() { r.s.renderVisual(job) }) {
			st.mu.Lock()
			st.running = ""
			st.mu.Unlock()
		}
		return nil, nil, visual.ErrPending
	default:
		st.next = job
	}
	st.mu.Unlock()
	return nil, nil, visual.ErrPending
}

// renderVisual renders job, then the newest job queued meanwhile, each
// followed by a publish of every open review and a refresh of the
// client's lenses.
func (s *Server) renderVisual(job *visual.Job) {
	st := &s.visual
	for job != nil {
		_, _, _ = st.flutter.Render(s.bg, job)
		s.republishAll()
		s.refreshLenses() // the lens said: rendering
		st.mu.Lock()
		job, st.next = st.next, nil
		if job == nil || s.bg.Err() != nil {
			job = nil
		}
		st.running = ""
		if job != nil {
			st.running = job.Key
		}
		st.mu.Unlock()
	}
}

// republishAll publishes every open review again.
func (s *Server) republishAll() {
	s.mu.Lock()
	files := slices.Collect(maps.Values(s.files))
	s.mu.Unlock()
	for _, f := range files {
		s.schedule(f, 0, nil)
	}
}

// axes are the review's axes, and its contract axis's diagnostics.
func (s *Server) axes(ctx context.Context, docURI protocol.DocumentURI, an *anchor.Analysis) ([]verdict.Axis, *contract.Result, []exchange.Diagnostic) {
	axes, res := features.ReviewAxes(ctx, an, features.AxesFrom{
		Tree:     func() *worktree.Tree { return s.treeFor(docURI) },
		Contract: func(ctx context.Context, _ *worktree.Tree) *contract.Result { return s.contractResult(ctx, docURI, an) },
		Visual:   visual.Options{LookPath: exec.LookPath, Renderer: visualRenderer{s}}, Sums: &s.sums,
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
