package branch

import "github.com/leanreview/lreview-lsp/internal/exchange"

// CodeMoved is the review-level warning that the working tree's branch
// has commits touching the reviewed files after the state the patch
// describes, or no longer holds that state (a force-push): only the
// language server publishes it, from git. Public vocabulary, as the
// format's codes are (internal/exchange/codes.go).
const CodeMoved = "branch-moved"

// Codes describes the branch's code for the one table (features.Codes).
// Each call returns a fresh slice.
func Codes() []exchange.CodeInfo {
	return []exchange.CodeInfo{
		{Code: CodeMoved, Severity: exchange.SeverityWarning, EditorOnly: true, Fix: true, Description: "The branch moved past the review: commits after the reviewed state touch its files, or the reviewed commit is no longer an ancestor of HEAD (a force-push); rebase the review."},
	}
}
