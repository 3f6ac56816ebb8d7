package forge

import "strings"

// The review's verdict in the exported body: a section after the summary
// that names the verdict, the axis that made it, and the breaking
// changes no comment decides yet, so that the pull request's readers see
// what blocks it. An import drops the section (dropVerdict): it is
// computed from the review, not written in it.

const verdictHead = "**Verdict: "

// VerdictSection is the section: "**Verdict: Block** — contract: fail (2
// breaking, undecided)", the undecided changes as a list, then the
// decided ones, each with who decided it ("DELETE /orders/{id}: … —
// approved by hduran").
func VerdictSection(verdict, axis string, undecided, decided []string) string {
	var b strings.Builder
	b.WriteString(verdictHead + verdict + "** — " + axis)
	for _, list := range []struct {
		head  string
		items []string
	}{{"Breaking changes without a decision:", undecided}, {"Breaking changes decided:", decided}} {
		if len(list.items) > 0 {
			b.WriteString("\n\n" + list.head + "\n")
			for _, u := range list.items {
				b.WriteString("\n- " + u)
			}
		}
	}
	return b.String()
}

// dropVerdict is summary without the verdict section, which is last.
func dropVerdict(summary string) string {
	if strings.HasPrefix(summary, verdictHead) {
		return ""
	}
	if i := strings.Index(summary, "\n\n"+verdictHead); i >= 0 {
		return summary[:i]
	}
	return summary
}
