package anchor

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// The one ranking of candidate places (diagnostics.md, "Ranking drift
// candidates"), used by diagnostics, quick fixes, `fix`, the stale-anchor
// fix and `rebase` alike:
//
//  1. quality: an exact match of the snippet (after the spec's
//     normalisation) beats a white-space-insensitive one, which beats a
//     partial one (the snippet is a part of the lines); a line that
//     changed but whose context confirms the place (rebase only) comes
//     last;
//  2. on equal quality, the comment's own side beats the other side — and
//     only then: an exact match on the other side beats a partial match on
//     the own side, which is what fixes a comment written on the wrong
//     side of a removed or added line;
//  3. then the place nearest the line where the comment is expected (its
//     start_line; for rebase, where that line maps in the new patch) wins;
//  4. equal quality, side and distance is a tie. A tie is never applied
//     automatically: `fix` and `rebase` leave the comment alone (rebase
//     marks it orphaned) and the diagnostic lists the places.
//
// Context lines (rebase) never rank: they only decide whether a place of
// a weak snippet ("}") or a changed line may be taken at all.

// rankPlaces sorts ps best first for a comment on side own.
func rankPlaces(ps []place, own Side) {
	slices.SortStableFunc(ps, func(a, b place) int { return compareRank(&a, &b, own) })
}

// compareRank orders a before b (-1), after b (1), or as a tie (0).
func compareRank(a, b *place, own Side) int {
	switch {
	case a.q != b.q:
		return cmp.Compare(b.q, a.q)
	case (a.side == own) != (b.side == own):
		if a.side == own {
			return -1
		}
		return 1
	case a.dist != b.dist:
		return cmp.Compare(a.dist, b.dist)
	}
	return 0
}

// tied returns how many places rank equal with the best one (1 when it is
// unique). ps is ranked.
func tied(ps []place, own Side) int {
	n := 0
	for n < len(ps) && compareRank(&ps[0], &ps[n], own) == 0 {
		n++
	}
	return n
}

// tieMessage describes a tie between the first n places: "2 equally good
// places: RIGHT 21, RIGHT 24".
func tieMessage(ps []place, n int) string {
	top := append([]place(nil), ps[:n]...)
	slices.SortStableFunc(top, func(a, b place) int { return cmp.Compare(a.start, b.start) })
	// Places in several files (an unknown path's guesses) name theirs.
	files := slices.ContainsFunc(top, func(p place) bool { return p.path != top[0].path })
	names := make([]string, 0, min(n, 5))
	for i, p := range top {
		if i == 4 {
			names = append(names, "…")
			break
		}
		name := LineSpan(p.side, p.start, p.end)
		if files {
			name = p.path + " " + name
		}
		names = append(names, name)
	}
	return fmt.Sprintf("%d equally good places: %s", n, strings.Join(names, ", "))
}

// qualityWord names a quality in messages.
func (q quality) String() string {
	switch q {
	case qualityExact:
		return "exact"
	case qualityLoose:
		return "white space aside"
	case qualityPartial:
		return "partial"
	case qualitySimilar:
		return "by context"
	}
	return "none"
}
