package features

import (
	"strings"
	"testing"
)

// TestSourceLineChanged: a patch line whose text changed in the tree goes
// to the place it had, moved as its neighbours moved.
func TestSourceLineChanged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shift  int
		change func(string) string
		want   int
	}{
		{"changed in place", 0, func(s string) string {
			return strings.Replace(s, "    result, err := calculate(input)\n", "    result, err := calculate(input, opts)\n", 1)
		}, 72},
		{"changed and moved", 3, func(s string) string {
			return strings.Replace(s, "    result, err := calculate(input)\n", "    result, err := calculate(input, opts)\n", 1)
		}, 75},
		{"the hunk rewritten", 0, func(s string) string {
			return strings.Replace(s, "    ctx := context.Background()\n    defer cancel(ctx)\n    result, err := calculate(input)\n    _ = err // 🚀 later\n    return result, nil\n", "    panic(1)\n", 1)
		}, 71}, // the file has 71 lines now: the line's number, within it
	} {
		t.Run(tc.name, func(t *testing.T) {
			an, tree := appliedTree(t, tc.shift, tc.change)
			loc, ok := SourceLine(an, tree, at(t, `"+    result, err`, 0))
			if !ok || loc.Start != tc.want || loc.End != tc.want {
				t.Errorf("got %d–%d, %v (%v), want line %d", loc.Start, loc.End, ok, loc.Err, tc.want)
			}
		})
	}
	// The tree still holding the line: its own place, as before.
	an, tree := wtAnalysis(t, 2, "")
	if loc, ok := SourceLine(an, tree, at(t, `"+    result, err`, 0)); !ok || loc.Start != 74 {
		t.Errorf("unchanged: got %d, %v, want 74", loc.Start, ok)
	}
}
