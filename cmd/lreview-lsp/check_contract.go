package main

import (
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/visual"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// contractAxis is the contract axis of `check`: a review that changes an
// OpenAPI description gets the editor's contract diagnostics, the
// verdict among them (an error when it is Block, so that check exits 1),
// its files rebuilt from --root or the nearest ancestor holding .git, or
// from the patch alone. A review that changes none pays one look at its
// file names. Its comparisons are shared by the check's workers.
type contractAxis struct {
	root  string
	cache contract.Cache
	// visual is the visual axis's host, kept for the whole check (its
	// renders are kept by their inputs); zero: a host of its own.
	visual visual.Options
}

// tree is the working tree of the review name, or nil.
func (a *contractAxis) tree(name string) *worktree.Tree {
	root := a.root
	if root == "" && name != "-" {
		root = worktree.FindRoot(name)
	}
	if root == "" {
		return nil
	}
	t, err := worktree.Open(root)
	if err != nil {
		return nil
	}
	return t
}
