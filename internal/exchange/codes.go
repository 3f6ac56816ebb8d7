package exchange

// The diagnostic codes: the project's public vocabulary (diagnostics.md).
// Users and scripts filter on them, so they never change once shipped.
// Every package that reports a code names it through these constants, and
// Codes describes each one; TestCodesDocumented checks the README, the VS
// Code settings enum and the Neovim help against Codes.
const (
	CodeSyntax                = "syntax"
	CodeVersionMissing        = "version-missing"
	CodeVersionUnknown        = "version-unknown"
	CodeVersionNotFirst       = "version-not-first"
	CodeSchema                = "schema"
	CodeUnknownField          = "unknown-field"
	CodeHTMLEscape            = "html-escape"
	CodePatchStringForm       = "patch-string-form"
	CodePatchTrailingEmpty    = "patch-trailing-empty"
	CodePatchMultilineElement = "patch-multiline-element"
	CodePatchEmpty            = "patch-empty"
	CodePatchParse            = "patch-parse"
	CodeHunkCountMismatch     = "hunk-count-mismatch"
	CodeOrphanedAnchor        = "orphaned-anchor"
	CodeSnippetMismatch       = "snippet-mismatch"
	CodeOrphanedResolves      = "orphaned-resolves"
	CodeStaleAnchor           = "stale-anchor"
	CodeIDMissing             = "id-missing"
	CodeIDDuplicate           = "id-duplicate"

	// Codes this project adds to diagnostics.md's table; `check` reports
	// them too.

	// CodeRenamedPath is the hint on a path that names a renamed file by
	// its other name (review-exchange.md, "Decision — paths").
	CodeRenamedPath = "renamed-path"
	// CodeHeaderPath is the hint on a path that names a plain diff's file
	// as its "---"/"+++" line writes it (a/x, x.orig) rather than by its
	// repository path.
	CodeHeaderPath = "header-path"
	// CodeLoneSurrogate is the warning on a \u escape of half a surrogate
	// pair, which the document keeps as written (surrogate.go).
	CodeLoneSurrogate = "lone-surrogate"
	// CodeDuplicateMember is on the later of two members of one name in
	// one object: readers disagree on which one counts.
	CodeDuplicateMember = "duplicate-member"

	// CodeSourceChanged is the information on an active comment whose
	// lines the working tree no longer holds; CodeWorktreeDiffers the one
	// on the patch when the working tree is not the reviewed revision.
	// Only the language server publishes them: they depend on the files
	// beside the review.
	CodeSourceChanged   = "source-changed"
	CodeWorktreeDiffers = "worktree-differs"
	// CodeSuggestionApplied is the information on an active comment whose
	// suggestion the working tree holds where its lines were: it replaces
	// source-changed there, the change being the one asked for.
	CodeSuggestionApplied = "suggestion-applied"

	// The contract axis (internal/contract): a breaking change of an
	// OpenAPI description the patch changes, on the line that makes it;
	// a non-breaking or informative one; a decision comment whose change
	// the description no longer makes; a description that could not be
	// compared (its status and the verdict are CodeVerdict's). `check`
	// reports them when it can rebuild the files.
	CodeContractBreaking    = "contract-breaking"
	CodeContractChange      = "contract-change"
	CodeContractStale       = "contract-decision-stale"
	CodeContractUnavailable = "contract-unavailable"

	// CodeVerdict is every axis of the review and its one verdict, on
	// the document's opening brace: an error when Block, a warning when
	// Hold, information when Ship (internal/verdict), wherever a review
	// is judged: finalized, or an axis that applies on its own.
	CodeVerdict = "verdict"
	// CodeBranchMoved is the review-level warning that the working tree's
	// branch has commits touching the reviewed files after the state the
	// patch describes, or no longer holds that state (a force-push): only
	// the language server publishes it, from git.
	CodeBranchMoved = "branch-moved"

	// CodeTooLarge replaces the diagnostics of a file the server refused
	// to read: only the language server publishes it.
	CodeTooLarge = "too-large"
	// CodeDismissed greys out a dismissed comment (an Unnecessary-tagged
	// hint): only the language server publishes it.
	CodeDismissed = "dismissed"
	// CodeReviewComment is an active comment of a review in scope,
	// published on the source file it is about, over its lines there:
	// only the language server publishes it, on files that are not
	// reviews.
	CodeReviewComment = "review-comment"
	// CodeDependencyChange is on a manifest's changed line that adds,
	// removes, upgrades or downgrades a dependency (internal/cohort):
	// only the language server publishes it; `cohorts --deps` lists them.
	CodeDependencyChange = "dependency-change"
)

// CodeInfo describes one diagnostic code.
type CodeInfo struct {
	Code string
	// Severity is the usual one; orphaned-anchor and snippet-mismatch are
	// milder (or absent) on comments already marked orphaned or dismissed.
	Severity Severity
	// Fix says a quick fix may be offered; FixAll that source.fixAll (and
	// `lreview-lsp fix`) may apply one without asking.
	Fix, FixAll bool
	// EditorOnly codes come from the language server only, never `check`.
	// Every code, these too, can be silenced with diagnostics.disabled.
	EditorOnly bool
	// Description is one sentence for SARIF rules and the docs.
	Description string
}

// Codes lists every diagnostic code: diagnostics.md's, in its order, then
// this project's additions, then the editor-only ones. Each
// call returns a fresh slice: there is no package state to mutate.
func Codes() []CodeInfo {
	return []CodeInfo{
		{Code: CodeSyntax, Severity: SeverityError, Description: "The document is not valid JSON."},
		{Code: CodeVersionMissing, Severity: SeverityError, Description: "The document has no leanreview_review member."},
		{Code: CodeVersionUnknown, Severity: SeverityError, Description: "leanreview_review names a version other than 1."},
		{Code: CodeVersionNotFirst, Severity: SeverityWarning, Fix: true, Description: "leanreview_review is not the first member, where detection looks for it."},
		{Code: CodeSchema, Severity: SeverityError, Description: "A value violates the review exchange JSON Schema."},
		{Code: CodeUnknownField, Severity: SeverityHint, Fix: true, Description: "A member the format does not define; leanreview's rewrite drops it."},
		{Code: CodeHTMLEscape, Severity: SeverityHint, Fix: true, FixAll: true, Description: "An HTML escape (\\u003c, \\u003e, \\u0026) where the literal character reads better."},
		{Code: CodePatchStringForm, Severity: SeverityHint, Fix: true, Description: "The patch is one string rather than an array of diff lines."},
		{Code: CodePatchTrailingEmpty, Severity: SeverityWarning, Fix: true, FixAll: true, Description: "The patch array ends with a forbidden empty element."},
		{Code: CodePatchMultilineElement, Severity: SeverityWarning, Fix: true, Description: "One patch element holds several diff lines."},
		{Code: CodePatchEmpty, Severity: SeverityWarning, Description: "The patch holds no file diff."},
		{Code: CodePatchParse, Severity: SeverityError, Description: "A diff header or hunk header is malformed."},
		{Code: CodeHunkCountMismatch, Severity: SeverityWarning, Fix: true, FixAll: true, Description: "A hunk header's line counts differ from its body."},
		{Code: CodeOrphanedAnchor, Severity: SeverityError, Fix: true, FixAll: true, Description: "A comment's anchor does not resolve to lines of the patch."},
		{Code: CodeSnippetMismatch, Severity: SeverityWarning, Fix: true, FixAll: true, Description: "A comment's snippet is not what its anchor points at."},
		{Code: CodeOrphanedResolves, Severity: SeverityInformation, Fix: true, Description: "A comment marked orphaned resolves again."},
		{Code: CodeStaleAnchor, Severity: SeverityInformation, Fix: true, Description: "A comment marked stale awaits re-anchoring."},
		{Code: CodeIDMissing, Severity: SeverityHint, Fix: true, Description: "A comment has no id."},
		{Code: CodeIDDuplicate, Severity: SeverityError, Fix: true, Description: "Two comments share an id."},
		{Code: CodeRenamedPath, Severity: SeverityHint, Fix: true, Description: "A comment names a renamed file by its other name."},
		{Code: CodeHeaderPath, Severity: SeverityHint, Fix: true, FixAll: true, Description: "A comment names a file of a plain diff as its ---/+++ line writes it (a/x, x.orig) rather than by its path."},
		{Code: CodeDuplicateMember, Severity: SeverityWarning, Description: "An object has two members of one name: readers that keep the first and those that keep the last see different reviews (an error for leanreview_review, patch and comments)."},
		{Code: CodeLoneSurrogate, Severity: SeverityWarning, Description: "A \\u escape of half a UTF-16 surrogate pair, which encodes no character; it is kept as written."},
		{Code: CodeContractBreaking, Severity: SeverityError, Description: "A breaking change of an OpenAPI description the patch changes, undecided or rejected (a warning once approved, or when the comparison is derived)."},
		{Code: CodeContractChange, Severity: SeverityHint, Description: "A non-breaking or informative change of an OpenAPI description the patch changes."},
		{Code: CodeContractStale, Severity: SeverityWarning, Description: "A decision comment on a breaking change the OpenAPI description no longer makes."},
		{Code: CodeContractUnavailable, Severity: SeverityWarning, Description: "An OpenAPI description the patch changes could not be compared: its texts could not be rebuilt or read, or its comparison exceeds its budget."},
		{Code: CodeVerdict, Severity: SeverityError, Description: "Every axis of the review (contract, correctness, security, test gap, visual) and its verdict: an error when Block, a warning when Hold, information when Ship."},
		{Code: CodeTooLarge, Severity: SeverityError, EditorOnly: true, Description: "The file was not checked: a message carrying it exceeded the size limit."},
		{Code: CodeDismissed, Severity: SeverityHint, EditorOnly: true, Description: "A dismissed comment, greyed out; it must not be acted on."},
		{Code: CodeSourceChanged, Severity: SeverityInformation, EditorOnly: true, Description: "The working tree no longer holds an active comment's RIGHT lines: the code changed since the review."},
		{Code: CodeWorktreeDiffers, Severity: SeverityInformation, EditorOnly: true, Description: "The working tree is not the reviewed revision: fewer than half of the patch's files hold their RIGHT lines."},
		{Code: CodeReviewComment, Severity: SeverityInformation, EditorOnly: true, Description: "An active comment of a review in scope, shown on the source file over its lines there (a hint when the file no longer holds them: outdated)."},
		{Code: CodeBranchMoved, Severity: SeverityWarning, EditorOnly: true, Fix: true, Description: "The branch moved past the review: commits after the reviewed state touch its files, or the reviewed commit is no longer an ancestor of HEAD (a force-push); rebase the review."},
		{Code: CodeSuggestionApplied, Severity: SeverityInformation, EditorOnly: true, Fix: true, Description: "The working tree holds an active comment's suggestion where its lines were: the suggestion is applied, and the comment can be dismissed or answered."},
		{Code: CodeDependencyChange, Severity: SeverityHint, EditorOnly: true, Description: "A manifest's changed line adds, removes, upgrades or downgrades a dependency (information when its major version changes)."},
	}
}
