package anchor

import "sync"

// Text is a file's text outside any patch — the working tree's copy of a
// file the patch changes — searched with the one drift search and ranking
// (search.go, search_rank.go): where a patch's lines are in it is found as
// a drifted comment's snippet is found in the patch. The text is one hunk
// of context lines numbered from 1, so that every part of the search runs
// on it unchanged.
type Text struct {
	lines []string
	// f and ix are built on the first search: most lookups find their
	// lines where expected (holdsAt) and need neither.
	once sync.Once
	f    *FileDiff
	ix   *searchIndex
}

// NewText makes the Text of lines (without their terminators), which it
// keeps: the caller must not change them.
func NewText(lines []string) *Text {
	if lines == nil {
		lines = []string{}
	}
	return &Text{lines: lines}
}

// side is the search index of the text, built on first use.
func (t *Text) side() *sideIndex {
	t.once.Do(func() {
		body := make([]DiffLine, len(t.lines))
		for i := range body {
			body[i] = DiffLine{Old: int32(i + 1), New: int32(i + 1)}
		}
		n := len(t.lines)
		t.f = &FileDiff{
			Hunks: []Hunk{{Header: -1, OldStart: 1, OldCount: n, NewStart: 1, NewCount: n, Lines: body}},
			lines: body,
			plain: t.lines,
		}
		t.ix = newSearchIndex()
	})
	return t.ix.side(t.f, Right, nil)
}

// TextMatch is a place of a Text where lines were found.
type TextMatch struct {
	// Start and End are its first and last line, from 1.
	Start, End int
	// Exact: the lines are the same text (the spec's normalisation);
	// Partial: they are a part of it. Neither: the same white space aside.
	Exact, Partial bool
	// Distance is |Start - the line expected|.
	Distance int
	// Tie is set when another place ranks as well.
	Tie bool
}

// Find looks for lines, a run of one image of a patch, in t, expected at
// line expect: the same text first, then the same white space aside, then
// (ok, Partial set) the lines as a part of the text, each nearest expect
// first, within the search's bounds. Lines without a letter or digit ("}")
// are only matched exactly. ok is false when no place was found.
func (t *Text) Find(lines []string, expect int) (TextMatch, bool) {
	nd, ok := textNeedle(lines)
	if !ok {
		return TextMatch{}, false
	}
	if t.holdsAt(lines, expect) {
		return TextMatch{Start: expect, End: expect + len(lines) - 1, Exact: true}, true
	}
	sq := sideQuery{si: t.side(), needles: []*needle{nd}, expect: expect}
	res := search([]sideQuery{sq}, nil)
	if len(res.places) == 0 {
		return TextMatch{}, false
	}
	rankPlaces(res.places, Right)
	p := res.places[0]
	return TextMatch{Start: p.start, End: p.end, Exact: p.q == qualityExact, Partial: p.q == qualityPartial,
		Distance: p.dist, Tie: tied(res.places, Right) > 1}, true
}

// holdsAt reports whether t holds lines at line n exactly, line for line:
// most working trees are the reviewed revision, and this spares building
// the search index of their files.
func (t *Text) holdsAt(lines []string, n int) bool {
	if n < 1 || n-1+len(lines) > len(t.lines) {
		return false
	}
	for k, l := range lines {
		if normLine(t.lines[n-1+k]) != normLine(l) {
			return false
		}
	}
	return true
}

// textNeedle is the needle of lines: normalised, blank runs collapsed,
// leading and trailing blank lines dropped (the leading ones kept as the
// needle's offset in the range). ok is false for blank lines only.
func textNeedle(lines []string) (*needle, bool) {
	var norm []string
	lead, blank := 0, false
	for _, l := range lines {
		n := normLine(l)
		switch {
		case n == "" && len(norm) == 0:
			lead++
		case n == "":
			blank = true
		default:
			if blank {
				norm = append(norm, "")
			}
			norm, blank = append(norm, n), false
		}
	}
	if len(norm) == 0 {
		return nil, false
	}
	return &needle{lines: norm, weak: weakSnippet(norm), off: lead, rangeW: len(lines)}, true
}
