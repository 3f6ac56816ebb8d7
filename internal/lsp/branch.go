package lsp

import (
	"context"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/branch"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// The staleness banner (features/branch.go) in the session: how the
// working tree's branch stands to a review is asked of git (read-only)
// once per HEAD and patch — a publish runs `git rev-parse HEAD` and, when
// HEAD or the patch changed, walks the history — and kept in
// branchState. A review outside a git working tree, or whose patch names
// no blobs, runs nothing.

// branchState keeps the last answers, by working tree, HEAD and patch.
// mu is a leaf.
type branchState struct {
	mu sync.Mutex
	m  map[branchKey]branch.State
}

type branchKey struct {
	root, head string
	patch      *exchange.PatchOrigin
}

const (
	maxBranchMemo = 32
	// branchTimeout bounds the git commands of one look.
	branchTimeout = 5 * time.Second
)

// branch is how the branch stands to the review at docURI, and the
// working tree's root ("" when there is none).
func (s *Server) branch(docURI protocol.DocumentURI, an *anchor.Analysis) (branch.State, string) {
	t := s.treeFor(docURI)
	if t == nil {
		return branch.State{}, ""
	}
	files := branch.Files(&an.Doc.Review.Patch, an.Index)
	if len(files) == 0 {
		return branch.State{}, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), branchTimeout)
	defer cancel()
	root := t.Root()
	head := branch.Head(ctx, branch.Run, root)
	if head == "" {
		return branch.State{}, ""
	}
	key := branchKey{root: root, head: head, patch: an.Doc.Review.Patch.Origin()}
	st := &s.branches
	st.mu.Lock()
	got, ok := st.m[key]
	st.mu.Unlock()
	if ok && key.patch != nil {
		return got, root
	}
	got, err := branch.Examine(ctx, branch.Run, root, files)
	if err != nil {
		return branch.State{}, root // git could not say: no banner
	}
	st.mu.Lock()
	if st.m == nil || len(st.m) >= maxBranchMemo {
		st.m = map[branchKey]branch.State{}
	}
	st.m[key] = got
	st.mu.Unlock()
	return got, root
}

// branchDiagnostics are the banner's diagnostic, when the branch moved.
func (s *Server) branchDiagnostics(docURI protocol.DocumentURI, an *anchor.Analysis) []exchange.Diagnostic {
	st, _ := s.branch(docURI, an)
	if d, ok := features.BranchDiagnostic(an, st); ok {
		return []exchange.Diagnostic{d}
	}
	return nil
}

// branchActions are the banner's quick fix: the review rebased onto the
// diff of its base and HEAD, when the span holds the banner.
func (s *Server) branchActions(docURI protocol.DocumentURI, an *anchor.Analysis, req actionRequest) []protocol.CodeAction {
	if !req.wants(protocol.QuickFix) {
		return nil
	}
	st, root := s.branch(docURI, an)
	d, ok := features.BranchDiagnostic(an, st)
	if !ok || st.Base == "" || d.Range.End < req.span.Start || d.Range.Start > req.span.End {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), branchTimeout)
	defer cancel()
	diff, err := branch.Diff(ctx, branch.Run, root, st)
	if err != nil {
		return nil
	}
	edits, err := features.BranchRebase(an, diff)
	if err != nil || len(edits) == 0 {
		return nil
	}
	return []protocol.CodeAction{{
		Title: features.RebaseTitle, Kind: protocol.QuickFix, Edit: req.edit(edits),
		Diagnostics: req.conv.Diagnostics(req.uri, []exchange.Diagnostic{d}),
	}}
}
