// Package verdict makes the review's one verdict from its axes: the API
// contract (internal/contract), the reviewers' correctness, security and
// test gap (recorded when the lead agent finalizes the review: record.go)
// and the visual axis (golden images compared, handed in as an Axis). Each axis reports pass, warn,
// fail, partial or unavailable; only pass and warn lift its gate. The
// verdict is the strictest any axis allows: a failing axis forces Block,
// a partial or unavailable one at least Hold. No axis can lower it, and
// an axis that could not run never turns the verdict green.
package verdict

import (
	"strings"

	"github.com/leanreview/lreview-lsp/internal/contract"
)

// Status and Verdict are the contract axis's words, which every axis
// shares: one name per concept.
type (
	Status  = contract.Status
	Verdict = contract.Verdict
)

const (
	Pass        = contract.Pass
	Warn        = contract.Warn
	Fail        = contract.Fail
	Partial     = contract.Partial
	Unavailable = contract.Unavailable

	Ship  = contract.Ship
	Hold  = contract.Hold
	Block = contract.Block
)

// The axes' names, in the order the lens shows them.
const (
	Contract    = "contract"
	Correctness = "correctness"
	Security    = "security"
	TestGap     = "test_gap"
	Visual      = "visual"
)

// Reviewers are the axes the reviewing agents judge and the lead agent
// records when it finalizes.
var Reviewers = []string{Correctness, Security, TestGap}

// Axis is one axis as the verdict reads it.
type Axis struct {
	Name string
	// Applies is false for an axis that does not apply to this review (no
	// OpenAPI description, no Flutter interface code): it shows n/a and
	// does not gate.
	Applies bool
	Status  Status
	// Detail is what the lens shows in brackets after the status: the
	// evidence ("c4"), the contract's count of breaking changes, why it is
	// unavailable. Reason is the reviewer's own words, for the hover,
	// check's JSON and exports.
	Detail string
	Reason string
	// Evidence are the comments a reviewer named (ids); Stale those of
	// them a person dismissed since, or that are gone.
	Evidence []string
	Stale    []string
	// Floor is the least strict verdict the axis allows. Zero: the one
	// its status implies (FloorOf).
	Floor Verdict
	// Shown, when set, is what the lens shows after the axis's name in
	// place of its status and detail (the contract axis words its own).
	Shown string
}

// Label is the axis's name as people read it: "test gap".
func (a Axis) Label() string { return strings.ReplaceAll(a.Name, "_", " ") }

// FloorOf is the verdict a status allows at best: only pass and warn
// lift the gate; fail blocks; partial and unavailable hold.
func FloorOf(s Status) Verdict {
	switch s {
	case Pass, Warn:
		return Ship
	case Fail:
		return Block
	}
	return Hold
}

// floor is the axis's Floor, or the one its status implies.
func (a Axis) floor() Verdict {
	if !a.Applies {
		return Ship
	}
	if a.Floor != "" {
		return a.Floor
	}
	return FloorOf(a.Status)
}

var rank = map[Verdict]int{Ship: 0, Hold: 1, Block: 2}

func stricter(a, b Verdict) Verdict {
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// Of is the verdict of axes: the strictest any of them allows. An empty
// list is Hold: nothing was judged.
func Of(axes []Axis) Verdict {
	if len(axes) == 0 {
		return Hold
	}
	v := Ship
	for _, a := range axes {
		v = stricter(v, a.floor())
	}
	return v
}

// Words is the axis as the lens shows it: "correctness: warn",
// "security: fail (c4)", "visual: n/a".
func (a Axis) Words() string {
	if !a.Applies {
		return a.Label() + ": n/a"
	}
	if a.Shown != "" {
		return a.Label() + ": " + a.Shown
	}
	s := a.Label() + ": " + string(a.Status)
	if a.Detail != "" {
		s += " (" + a.Detail + ")"
	}
	return s
}

// Line is the axes and their verdict in one line, as the lens on the
// review's first brace reads it:
// "contract: pass · correctness: warn · security: fail (c4) · test gap:
// unavailable · visual: n/a · verdict: Block".
func Line(axes []Axis) string {
	return AxesLine(axes) + " · verdict: " + string(Of(axes))
}

// AxesLine is Line without the verdict: "contract: pass · … · visual: n/a".
func AxesLine(axes []Axis) string {
	parts := make([]string, 0, len(axes)+1)
	for i := 0; i < len(axes); i++ {
		a := axes[i]
		// The reviewers' axes before any finalize read as one.
		if a.Detail == NotFinalized {
			names := []string{a.Label()}
			for i+1 < len(axes) && axes[i+1].Detail == NotFinalized {
				i++
				names = append(names, axes[i].Label())
			}
			parts = append(parts, strings.Join(names, ", ")+": "+string(a.Status)+" ("+NotFinalized+")")
			continue
		}
		parts = append(parts, a.Words())
	}
	return strings.Join(parts, " · ")
}
