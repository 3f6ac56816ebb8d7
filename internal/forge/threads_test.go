package forge

import (
	"slices"
	"strconv"
	"testing"
)

// TestLinkThreads: chains, replies to posts not listed, self-replies and
// cycles (with a tail leading into them) each end in one first post, and
// every post is in a thread.
func TestLinkThreads(t *testing.T) {
	tests := []struct {
		name    string
		parents []int // parents[i]: the post i replies to, 0 for none (posts are 1-based)
		roots   []int
		orphans []int
		cycles  [][]int
	}{
		{"chain", []int{0, 1, 2, 3}, []int{1, 1, 1, 1}, nil, nil},
		{"two threads", []int{0, 0, 1, 2}, []int{1, 2, 1, 2}, nil, nil},
		{"parent not listed", []int{9, 1}, []int{1, 1}, []int{1}, nil},
		{"self-reply", []int{1, 1}, []int{1, 1}, nil, nil},
		{"1 and 2 reply to each other", []int{2, 1}, []int{1, 1}, nil, [][]int{{1, 2}}},
		{"tail into a cycle of three", []int{3, 1, 2, 3, 4}, []int{1, 1, 1, 1, 1}, nil, [][]int{{1, 3, 2}}},
		{"cycle entered late", []int{0, 3, 2, 3}, []int{1, 2, 2, 2}, nil, [][]int{{2, 3}}},
	}
	for _, tt := range tests {
		l := linkThreads(len(tt.parents),
			func(i int) string { return strconv.Itoa(i + 1) },
			func(i int) (string, bool) { return strconv.Itoa(tt.parents[i]), tt.parents[i] != 0 },
			func(i, j int) bool { return i < j })
		var roots, orphans []int
		for _, r := range l.root {
			roots = append(roots, r+1)
		}
		for _, o := range l.orphans {
			orphans = append(orphans, o+1)
		}
		if !slices.Equal(roots, tt.roots) || !slices.Equal(orphans, tt.orphans) {
			t.Errorf("%s: got roots %v orphans %v, want %v and %v", tt.name, roots, orphans, tt.roots, tt.orphans)
		}
		if len(l.cycles) != len(tt.cycles) {
			t.Errorf("%s: got cycles %v, want %v", tt.name, l.cycles, tt.cycles)
			continue
		}
		for k, c := range l.cycles {
			got := make([]int, len(c))
			for m, i := range c {
				got[m] = i + 1
			}
			if got[0] != tt.cycles[k][0] || len(got) != len(tt.cycles[k]) {
				t.Errorf("%s: got cycle %v, want %v (its earliest post first)", tt.name, got, tt.cycles[k])
			}
		}
	}
}
