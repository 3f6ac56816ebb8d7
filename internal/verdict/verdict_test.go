package verdict

import "testing"

// TestOf: only pass and warn lift a gate; a fail blocks, partial and
// unavailable hold; an axis that does not apply does not gate; an axis's
// own floor (the contract's derived fail holds) is kept.
func TestOf(t *testing.T) {
	ax := func(s Status) Axis { return Axis{Name: Correctness, Applies: true, Status: s} }
	na := Axis{Name: Visual}
	for _, tc := range []struct {
		axes []Axis
		want Verdict
	}{
		{nil, Hold},
		{[]Axis{ax(Pass), ax(Warn), na}, Ship},
		{[]Axis{ax(Pass), ax(Partial)}, Hold},
		{[]Axis{ax(Unavailable), ax(Pass)}, Hold},
		{[]Axis{ax(Pass), ax(Fail), ax(Unavailable)}, Block},
		{[]Axis{{Name: Contract, Applies: true, Status: Fail, Floor: Hold}, ax(Pass)}, Hold},
		{[]Axis{{Name: Contract, Applies: true, Status: Warn, Floor: Hold}, ax(Pass)}, Hold},
		{[]Axis{na, {Name: Security, Applies: false, Status: Fail}}, Ship},
	} {
		if got := Of(tc.axes); got != tc.want {
			t.Errorf("%+v: got %s, want %s", tc.axes, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	axes := []Axis{
		{Name: Contract, Applies: true, Status: Pass, Shown: "pass (no breaking change)"},
		{Name: Correctness, Applies: true, Status: Warn},
		{Name: Security, Applies: true, Status: Fail, Detail: "c4"},
		{Name: TestGap, Applies: true, Status: Unavailable},
		{Name: Visual},
	}
	if got, want := Line(axes), "contract: pass (no breaking change) · correctness: warn · security: fail (c4) · test gap: unavailable · visual: n/a · verdict: Block"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
