package features

import (
	"slices"

	"github.com/leanreview/lreview-lsp/internal/branch"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/verdict"
)

// The codes only editors see, declared here because these features word
// them; the language server publishes them, `check` never reports them.
// Public vocabulary, as the format's codes are (internal/exchange/codes.go).
const (
	// CodeTooLarge replaces the diagnostics of a file the server refused
	// to read.
	CodeTooLarge = "too-large"
	// CodeDismissed greys out a dismissed comment (an Unnecessary-tagged
	// hint: dismissed.go).
	CodeDismissed = "dismissed"
	// CodeSourceChanged is the information on an active comment whose
	// lines the working tree no longer holds; CodeWorktreeDiffers the one
	// on the patch when the working tree is not the reviewed revision
	// (worktree.go).
	CodeSourceChanged   = "source-changed"
	CodeWorktreeDiffers = "worktree-differs"
	// CodeReviewComment is an active comment of a review in scope,
	// published on the source file it is about, over its lines there.
	CodeReviewComment = "review-comment"
	// CodeSuggestionApplied is the information on an active comment whose
	// suggestion the working tree holds where its lines were: it replaces
	// source-changed there, the change being the one asked for
	// (applied.go).
	CodeSuggestionApplied = "suggestion-applied"
)

// Codes is the one table of diagnostic codes, each row declared by the
// layer that reports it: the format's (diagnostics.md's, in its order,
// then this project's additions), the contract axis's, the verdict's,
// then the editor-only ones (these features', the branch's, the
// cohorts'). The SARIF rules are built from it, and TestCodesDocumented
// checks the README, the VS Code setting and the Neovim help against it.
// Each call returns a fresh slice: there is no package state to mutate.
func Codes() []exchange.CodeInfo {
	return slices.Concat(exchange.Codes(), contract.Codes(), verdict.Codes(), editorCodes(), branch.Codes(), cohort.Codes())
}

// editorCodes describes the codes declared above.
func editorCodes() []exchange.CodeInfo {
	return []exchange.CodeInfo{
		{Code: CodeTooLarge, Severity: exchange.SeverityError, EditorOnly: true, Description: "The file was not checked: a message carrying it exceeded the size limit."},
		{Code: CodeDismissed, Severity: exchange.SeverityHint, EditorOnly: true, Description: "A dismissed comment, greyed out; it must not be acted on."},
		{Code: CodeSourceChanged, Severity: exchange.SeverityInformation, EditorOnly: true, Description: "The working tree no longer holds an active comment's RIGHT lines: the code changed since the review."},
		{Code: CodeWorktreeDiffers, Severity: exchange.SeverityInformation, EditorOnly: true, Description: "The working tree is not the reviewed revision: fewer than half of the patch's files hold their RIGHT lines."},
		{Code: CodeReviewComment, Severity: exchange.SeverityInformation, EditorOnly: true, Description: "An active comment of a review in scope, shown on the source file over its lines there (a hint when the file no longer holds them: outdated)."},
		{Code: CodeSuggestionApplied, Severity: exchange.SeverityInformation, EditorOnly: true, Fix: true, Description: "The working tree holds an active comment's suggestion where its lines were: the suggestion is applied, and the comment can be dismissed or answered."},
	}
}
