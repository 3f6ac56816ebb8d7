package features

import "github.com/leanreview/lreview-lsp/internal/exchange"

// DismissedHints greys out dismissed comments. Editors fade a range only
// through a diagnostic tagged Unnecessary, so each dismissed comment gets
// a hint with the editor-only code "dismissed"; `check` does not print it,
// since nothing is wrong.
func DismissedHints(doc *exchange.Document) []exchange.Diagnostic {
	var out []exchange.Diagnostic
	for _, c := range doc.Review.Comments {
		if c.StateNorm() == exchange.StateDismissed {
			out = append(out, exchange.Diagnostic{
				Range:       exchange.NodeRange(c.Node),
				Severity:    exchange.SeverityHint,
				Code:        CodeDismissed,
				Message:     "dismissed: a person rejected this comment; it stays as information and must not be acted on",
				Unnecessary: true,
			})
		}
	}
	return out
}
