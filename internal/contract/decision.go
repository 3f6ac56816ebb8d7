package contract

import (
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// A decision on a breaking change is a review comment whose body's first
// line reads "contract: approved — <summary>" or "contract: rejected —
// <summary>", the rest of the body free text. A comment, not a member of
// its own: tools between the person and the agent drop members they do
// not know, and comments survive every round trip.
//
// Words alone decide nothing: a decision counts only when a person could
// have made it where it stands (Counts) — its comment active (no state,
// or exactly "active": dismissed, orphaned, stale and misspelt states
// never decide), anchored (it resolves to lines of the file whose change
// it decides, its snippet, if any, matching them) and written by a person
// (a named author that is not an agent's, ByAgent). The MCP tools refuse
// to write one. The file cannot prove who wrote it — whoever edits the
// JSON can type a name — so the axis names each decider where it reports
// the decision, for the person reading the verdict to see.

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

// AgentAuthor is the name the MCP tools write as by default, the spec's
// name for the LLM that writes a review.
const AgentAuthor = "assistant"

// ByAgent reports whether author names an agent rather than a person:
// AgentAuthor in any case, or a forge's bot account ("…[bot]", as GitHub
// names its apps). An agent's words inform a decision, never make it.
func ByAgent(author string) bool {
	a := strings.ToLower(strings.TrimSpace(author))
	return a == AgentAuthor || strings.HasSuffix(a, "[bot]")
}

// Counts says why the decision comment c, resolved as r, does not count
// (a sentence naming what is missing), or "" when it does.
func Counts(c *exchange.Comment, r *anchor.Resolution, p *exchange.Patch) string {
	switch {
	case c.State != "" && c.State != exchange.StateActive:
		return "it is " + quoteState(c.State) + ", not active"
	case strings.TrimSpace(c.Author) == "":
		return "it names no author, so no person is known to have decided"
	case ByAgent(c.Author):
		return "its author " + c.Author + " is an agent: a person decides"
	case r == nil || !r.Resolved:
		return "it does not anchor to lines of the patch"
	case !anchor.SnippetMatches(c.Snippet, r.Side, p, r.File, r.Lines()):
		return "its snippet is not what its lines hold"
	}
	return ""
}

func quoteState(s string) string {
	switch s {
	case exchange.StateDismissed, exchange.StateOrphaned, exchange.StateStale:
		return s
	}
	return "in the state \"" + s + "\""
}
