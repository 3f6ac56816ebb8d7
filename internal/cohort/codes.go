package cohort

import "github.com/leanreview/lreview-lsp/internal/exchange"

// CodeDependencyChange is on a manifest's changed line that adds,
// removes, upgrades or downgrades a dependency (deps.go): only the
// language server publishes it; `cohorts --deps` lists them. Public
// vocabulary, as the format's codes are (internal/exchange/codes.go).
const CodeDependencyChange = "dependency-change"

// Codes describes the cohorts' code for the one table (features.Codes).
// Each call returns a fresh slice.
func Codes() []exchange.CodeInfo {
	return []exchange.CodeInfo{
		{Code: CodeDependencyChange, Severity: exchange.SeverityHint, EditorOnly: true, Description: "A manifest's changed line adds, removes, upgrades or downgrades a dependency (information when its major version changes)."},
	}
}
