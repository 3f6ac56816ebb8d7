package forge

import "strings"

// The review's verdict in the exported body: a section after the summary
// that names the verdict, the axis that made it, and the breaking
// changes no comment decides yet, so that the pull request's readers see
// what blocks it. An import drops the section (dropVerdict): it is
// computed from the review, not written in it.

const verdictHead = "**Verdict: "

// VerdictSection is the section: "**Verdict: Block** — contract: fail (2
// breaking, undecided)" and the undecided changes as a list.
func VerdictSection(verdict, axis string, undecided []string) string {
	var b strings.Builder
	b.WriteString(verdictHead + verdict + "** — " + axis)
	if len(undecided) > 0 {
		b.WriteString("\n\nBreaking changes without a decision:\n")
		for _, u := range undecided {
			b.WriteString("\n- " + u)
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
