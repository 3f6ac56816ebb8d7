package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/branch"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The staleness banner (internal/branch): when the working tree's branch
// has moved past the review, a warning and a lens on the document's first
// brace say so, and a quick fix rebases the review onto the branch.

// BranchDiagnostic is the banner's diagnostic, ok false when the branch
// has not moved past the review.
func BranchDiagnostic(an *anchor.Analysis, st branch.State) (exchange.Diagnostic, bool) {
	root := an.Doc.Root
	words := st.Words()
	if root == nil || words == "" {
		return exchange.Diagnostic{}, false
	}
	return exchange.Diagnostic{Range: exchange.Range{Start: root.Start, End: root.Start + 1}, Severity: exchange.SeverityWarning,
		Code: branch.CodeMoved, Message: words}, true
}

// BranchLens is the banner over the document's first brace.
func BranchLens(an *anchor.Analysis, st branch.State) (Lens, bool) {
	d, ok := BranchDiagnostic(an, st)
	if !ok {
		return Lens{}, false
	}
	return Lens{Range: d.Range, Title: d.Message, Target: exchange.Range{Start: d.Range.Start, End: d.Range.Start}}, true
}

// RebaseTitle is the banner's quick fix.
const RebaseTitle = "Rebase the review onto the branch (git diff of its base and HEAD)"

// BranchRebase is the quick fix's edits: the review rebased onto diff
// (branch.Diff), every comment moved by content, as `rebase` does.
func BranchRebase(an *anchor.Analysis, diff []byte) ([]exchange.Edit, error) {
	lines, err := anchor.DiffLines(diff)
	if err != nil {
		return nil, err
	}
	edits, _, err := anchor.Rebase(an.Doc, lines)
	return edits, err
}
