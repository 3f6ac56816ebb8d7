package verdict

import "github.com/leanreview/lreview-lsp/internal/exchange"

// Code is the diagnostic that carries every axis of the review and its
// one verdict, on the document's opening brace: an error when Block, a
// warning when Hold, information when Ship, wherever a review is judged:
// finalized, or an axis that applies on its own. Public vocabulary, as
// the format's codes are (internal/exchange/codes.go).
const Code = "verdict"

// Codes describes the verdict's code for the one table (features.Codes).
// Each call returns a fresh slice.
func Codes() []exchange.CodeInfo {
	return []exchange.CodeInfo{
		{Code: Code, Severity: exchange.SeverityError, Description: "Every axis of the review (contract, correctness, security, test gap, visual) and its verdict: an error when Block, a warning when Hold, information when Ship."},
	}
}
