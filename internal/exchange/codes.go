package exchange

// The format's diagnostic codes: diagnostics.md's table and the checks of
// the format's own rules this project adds. Codes are public vocabulary:
// users and scripts filter on them, so they never change once shipped.
// Each layer above declares the codes it reports (the contract axis in
// internal/contract, the verdict in internal/verdict, the editors' own in
// internal/features…), as CodeInfo rows of this type; features.Codes
// assembles the one table the docs, SARIF and the editors are checked
// against.
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

	// Codes this project adds to diagnostics.md's table for the format's
	// own rules; `check` reports them too.

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

// Codes lists the format's codes: diagnostics.md's, in its order (a test
// reads the spec's table), then this project's additions. Each call
// returns a fresh slice: there is no package state to mutate.
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
	}
}
