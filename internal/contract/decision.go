package contract

import "strings"

// A decision on a breaking change is a review comment whose body's first
// line reads "contract: approved — <summary>" or "contract: rejected —
// <summary>", the rest of the body free text. A comment, not a member of
// its own: tools between the person and the agent drop members they do
// not know, and comments survive every round trip.

// DecisionPrefix begins the first line of a decision.
const DecisionPrefix = "contract: "

// Decision words.
const (
	Approved = "approved"
	Rejected = "rejected"
)

// DecisionLine is the first line of a decision on the change summary.
func DecisionLine(word, summary string) string {
	return DecisionPrefix + word + " — " + summary
}

// ParseDecision reads a comment body's first line: the decision word and
// the summary of the change it decides. The dash may be an em dash, "--"
// or "-", as people type it.
func ParseDecision(body string) (word, summary string, ok bool) {
	line, _, _ := strings.Cut(body, "\n")
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	rest, ok := strings.CutPrefix(line, DecisionPrefix)
	if !ok {
		return "", "", false
	}
	for _, w := range []string{Approved, Rejected} {
		after, ok := strings.CutPrefix(rest, w)
		if !ok {
			continue
		}
		after = strings.TrimSpace(after)
		for _, dash := range []string{"—", "--", "-", "–"} {
			if s, ok := strings.CutPrefix(after, dash); ok {
				if s = strings.TrimSpace(s); s != "" {
					return w, s, true
				}
			}
		}
	}
	return "", "", false
}
