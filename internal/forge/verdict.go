package forge

import (
	"strconv"
	"strings"
)

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

// dropVerdict is summary without the verdict section and the cohorts
// section after it (both computed, last).
func dropVerdict(summary string) string {
	for _, head := range []string{verdictHead, cohortsHead} {
		if strings.HasPrefix(summary, head) {
			return ""
		}
		if i := strings.Index(summary, "\n\n"+head); i >= 0 {
			summary = summary[:i]
		}
	}
	return summary
}

// cohortsHead begins the cohorts section (Plan.Cohorts): the review's
// cohorts in order with their reasons (internal/cohort), computed like
// the verdict and dropped by an import like it.
const cohortsHead = "**Review order** — "

// CohortsSection is the section: a head and one list item per cohort.
func CohortsSection(items []string) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(cohortsHead + "cohorts, riskiest first:\n")
	for i, it := range items {
		b.WriteString("\n" + strconv.Itoa(i+1) + ". " + it)
	}
	return b.String()
}
