package lsp

import (
	"context"
	"fmt"
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
// in the background, never on the publish path. A publish reads what
// HEAD is from the repository's files (branch.HeadStamp: HEAD and the
// ref it names, no git run) and the last answer for the review's files;
// when there is none for this HEAD — the review opened, its patch
// changed, the branch moved — it starts a look in the background, shows
// the last answer meanwhile (none for a new patch), and every open
// review is published again when the look ends. A review outside a git
// working tree, or whose patch names no blobs, runs nothing.

// branchState keeps the last answers, by working tree and the patch's
// files (their paths and blobs: all a look reads of the review), with
// the HEAD they were found at, and the looks under way. mu is a leaf.
type branchState struct {
	mu      sync.Mutex
	m       map[string]branchMemo
	running map[string]bool
}

type branchMemo struct {
	head string // branch.HeadStamp when looked
	st   branch.State
}

const (
	maxBranchMemo = 32
	// branchTimeout bounds the git commands of one look.
	branchTimeout = 5 * time.Second
)

// git is how the session runs git: branch.Run, or the tests' own.
func (s *Server) git() branch.Git {
	if s.opts.git != nil {
		return s.opts.git
	}
	return branch.Run
}

// branch is how the branch stands to the review at docURI, as last
// found, and the working tree's root ("" when there is none).
func (s *Server) branch(docURI protocol.DocumentURI, an *anchor.Analysis) (branch.State, string) {
	t := s.treeFor(docURI)
	if t == nil {
		return branch.State{}, ""
	}
	files := branch.Files(&an.Doc.Review.Patch, an.Index)
	if len(files) == 0 {
		return branch.State{}, ""
	}
	root := t.Root()
	head := branch.HeadStamp(t.Files(), root)
	if head == "" {
		return branch.State{}, ""
	}
	key := root + "\x00" + fmt.Sprint(files)
	st := &s.branches
	st.mu.Lock()
	m, ok := st.m[key]
	look := (!ok || m.head != head) && !st.running[key]
	if look {
		st.running[key] = true
	}
	st.mu.Unlock()
	if look && !s.spawn(func() { s.lookAtBranch(key, root, head, files) }) {
		st.mu.Lock()
		delete(st.running, key)
		st.mu.Unlock()
	}
	return m.st, root
}

// lookAtBranch asks git how the branch stands to the review's files,
// keeps the answer (none when git could not say: no banner, and no look
// again until HEAD moves) and publishes the open reviews again; when the
// banner's words changed, it asks the client for its lenses again.
func (s *Server) lookAtBranch(key, root, head string, files []branch.File) {
	ctx, cancel := context.WithTimeout(s.bg, branchTimeout)
	got, err := branch.Examine(ctx, s.git(), root, files)
	cancel()
	if err != nil {
		got = branch.State{}
	}
	st := &s.branches
	st.mu.Lock()
	delete(st.running, key)
	said := st.m[key].st.Words()
	if s.bg.Err() == nil {
		if st.m == nil || len(st.m) >= maxBranchMemo {
			st.m = map[string]branchMemo{}
		}
		st.m[key] = branchMemo{head: head, st: got}
	}
	st.mu.Unlock()
	s.republishAll()
	if got.Words() != said {
		s.refreshLenses() // the banner is in the lens too
	}
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
	diff, err := branch.Diff(ctx, s.git(), root, st)
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
