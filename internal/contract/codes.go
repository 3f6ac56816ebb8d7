package contract

import "github.com/leanreview/lreview-lsp/internal/exchange"

// The contract axis's diagnostic codes, public vocabulary as the format's
// are (internal/exchange/codes.go): a breaking change of an OpenAPI
// description the patch changes, on the line that makes it; a
// non-breaking or informative one; a decision comment whose change the
// description no longer makes; a description that could not be compared
// (its status and the verdict are verdict.Code's). features places them
// in the review; `check` reports them when it can rebuild the files.
const (
	CodeBreaking    = "contract-breaking"
	CodeChange      = "contract-change"
	CodeStale       = "contract-decision-stale"
	CodeUnavailable = "contract-unavailable"
)

// Codes describes the contract axis's codes for the one table
// (features.Codes). Each call returns a fresh slice.
func Codes() []exchange.CodeInfo {
	return []exchange.CodeInfo{
		{Code: CodeBreaking, Severity: exchange.SeverityError, Description: "A breaking change of an OpenAPI description the patch changes, undecided or rejected (a warning once approved, or when the comparison is derived)."},
		{Code: CodeChange, Severity: exchange.SeverityHint, Description: "A non-breaking or informative change of an OpenAPI description the patch changes."},
		{Code: CodeStale, Severity: exchange.SeverityWarning, Description: "A decision comment on a breaking change the OpenAPI description no longer makes."},
		{Code: CodeUnavailable, Severity: exchange.SeverityWarning, Description: "An OpenAPI description the patch changes could not be compared: its texts could not be rebuilt or read, or its comparison exceeds its budget."},
	}
}
