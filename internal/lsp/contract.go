package lsp

import (
	"context"
	"slices"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The contract axis (features/contract.go) in the session: its
// diagnostics join each publish, its lens the summary lenses, its
// decisions the code actions. A review that changes no OpenAPI
// description pays a look at its file names; one that does rebuilds the
// descriptions from the working tree as it is now (its files cached by
// size and modification time) and compares each pair of texts once
// (contractState.cache, by their content). The result is kept per
// version with the files it was read from: a publish, the lenses and the
// code actions of one version compute it once, and again only when one
// of those files changed on disk.
//
// A comparison is bounded (contract.Budget) and runs once per pair of
// texts at a time, one at a time (contract.Cache): a publish waits for
// it with its version's context, which a newer version cancels (the
// publish is then dropped, and the newer version's joins the same
// comparison when the description's texts are the same, or starts its
// own), and the exit cancels; neither waits for oasdiff to end. A
// result cut short that way is not kept for the version.

// contractState is the session's contract axis: its comparisons, and the
// result of the versions asked last. mu is a leaf: nothing else is
// locked while it is held.
type contractState struct {
	cache contract.Cache
	mu    sync.Mutex
	byVer map[*anchor.Analysis]contractMemo
}

// contractMemo is a version's result and the working-tree files (nil
// where none was read) it was computed from.
type contractMemo struct {
	res   *contract.Result
	tree  bool
	files []*worktree.File
}

// maxContractMemo bounds the versions kept: a few are open or being
// edited at once.
const maxContractMemo = 16

// contractResult is the axis of an analysis of the review at docURI, or
// nil when the review changes no description.
func (s *Server) contractResult(ctx context.Context, docURI protocol.DocumentURI, an *anchor.Analysis) *contract.Result {
	if !contract.HasSpec(an.Index) {
		return nil
	}
	t := s.treeFor(docURI)
	files := specFiles(t, an)
	st := &s.contracts
	st.mu.Lock()
	m, ok := st.byVer[an]
	st.mu.Unlock()
	if ok && m.tree == (t != nil) && slices.Equal(m.files, files) {
		return m.res
	}
	res := features.Contract(ctx, an, t, &st.cache)
	if ctx.Err() != nil || slices.ContainsFunc(res.Files, func(f *contract.File) bool { return f.Cut }) {
		return res // for this caller only: the next one compares again, or finds it cached
	}
	st.mu.Lock()
	if st.byVer == nil || len(st.byVer) >= maxContractMemo {
		st.byVer = map[*anchor.Analysis]contractMemo{}
	}
	st.byVer[an] = contractMemo{res: res, tree: t != nil, files: files}
	st.mu.Unlock()
	return res
}

// specFiles are the working tree's files of the descriptions the review
// changes, as read now (the tree caches them by size and modification
// time: the same *File while a file is unchanged).
func specFiles(t *worktree.Tree, an *anchor.Analysis) []*worktree.File {
	if t == nil {
		return nil
	}
	var out []*worktree.File
	for _, fd := range an.Index.Files {
		if contract.SpecName(fd) == "" {
			continue
		}
		for _, name := range []string{fd.NewName, fd.OldName} {
			if name != "" {
				f, _ := t.Read(name)
				out = append(out, f)
			}
		}
	}
	return out
}

// contractActions are the decisions on the breaking changes in span, as
// quick fixes of their diagnostics.
func (s *Server) contractActions(ctx context.Context, docURI protocol.DocumentURI, an *anchor.Analysis, req actionRequest) []protocol.CodeAction {
	if !req.wants(protocol.QuickFix) && !req.wants(protocol.RefactorRewrite) {
		return nil
	}
	res := s.contractResult(ctx, docURI, an)
	if res == nil {
		return nil
	}
	var out []protocol.CodeAction
	for _, a := range features.ContractActions(an, res, req.span.Start, req.span.End, req.opts) {
		ca := protocol.CodeAction{Title: a.Title, Kind: protocol.RefactorRewrite, Edit: req.edit(a.Edits)}
		if req.wants(protocol.QuickFix) {
			ca.Kind = protocol.QuickFix
			ca.Diagnostics = req.conv.Diagnostics(req.uri, []exchange.Diagnostic{*a.Resolves})
		}
		out = append(out, ca)
	}
	return out
}
