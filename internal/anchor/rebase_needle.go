package anchor

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// What rebase looks for and where: the comment's old place, its needle and
// context, the line it is expected at in the new patch, and the choice
// among the places the search found.

// oldPlace is where a comment was in the old patch: image img of file f
// at position p, when its anchor resolved there.
type oldPlace struct {
	f      *FileDiff
	si     *sideIndex // nil when the anchor did not resolve
	img, p int
	rangeW int // image lines of its range
}

// oldPlace locates c in the old patch.
func (rb *rebaser) oldPlace(c *exchange.Comment, side Side, sideOK bool) oldPlace {
	op := oldPlace{p: -1, rangeW: max(1, c.EndLine-c.StartLine+1)}
	op.f, _ = rb.old.FileFor(c.Path, side)
	if op.f == nil || !sideOK || c.EndLine < c.StartLine {
		return op
	}
	h, i, ok := op.f.Find(side, c.StartLine)
	h2, i2, ok2 := op.f.Find(side, c.EndLine)
	if !ok || !ok2 || h != h2 {
		return op
	}
	si := rb.oldS.side(op.f, side, rb.old.Patch)
	p, p2 := si.posOfLine(h, i), si.posOfLine(h, i2)
	if p >= 0 && p2 >= p {
		op.si, op.img, op.p, op.rangeW = si, h, p, p2-p+1
	}
	return op
}

// lookFor is what a comment is looked for with.
type lookFor struct {
	nd          needle
	fromSnippet bool
	// trusted: the old place was found and agrees with the needle; then
	// the needle carries its context and the old number maps exactly.
	trusted bool
}

// lookFor builds what c is looked for with, or says why it cannot be
// looked for.
func (rb *rebaser) lookFor(c *exchange.Comment, side Side, old oldPlace) (lookFor, string) {
	lf := lookFor{nd: needle{rangeW: old.rangeW}}
	variants := snippetVariants(c.Snippet, side)
	lf.fromSnippet = len(variants) > 0
	if !lf.fromSnippet {
		if old.si == nil {
			where := "the old patch"
			if rb.same {
				where = "the patch"
			}
			return lf, fmt.Sprintf("no snippet, and %s is not in %s", LineSpan(side, c.StartLine, c.EndLine), where)
		}
		variants = [][]string{old.si.normRange(old.img, old.p, old.p+old.rangeW)}
	}
	lf.nd.lines = variants[0]
	if old.si == nil {
		// An anchor that does not resolve says nothing reliable about the
		// range's width: the snippet is "the anchored diff line(s)".
		lf.nd.rangeW = len(lf.nd.lines)
	} else {
		rb.trust(&lf, variants, old)
	}
	lf.nd.weak = weakSnippet(lf.nd.lines)
	return lf, ""
}

// what names what c is looked for by, for messages.
func (lf lookFor) what() string {
	if lf.fromSnippet {
		return "snippet"
	}
	return "the text of its lines"
}

// trust looks for a reading of the snippet at the old place: found, the
// old place is trusted and its context taken.
func (rb *rebaser) trust(lf *lookFor, variants [][]string, old oldPlace) {
	size := old.si.size(old.img)
	for _, v := range variants {
		w := max(old.rangeW, len(v))
		if old.p+w > size {
			continue
		}
		norm := old.si.normRange(old.img, old.p, old.p+w)
		for off := 0; off+len(v) <= w; off++ {
			if linesMatch(v, norm[off:off+len(v)], weakSnippet(v)) {
				lf.nd.lines, lf.nd.off, lf.trusted = v, off, true
				lf.nd.before = old.si.normRange(old.img, old.p-contextLines, old.p)
				lf.nd.after = old.si.normRange(old.img, old.p+w, old.p+w+contextLines)
				return
			}
		}
	}
}

// linesMatch reports whether needle lines equal as many lines, or are
// each a part of them (never for a weak needle: ")" is a part of most
// lines).
func linesMatch(needle, got []string, weak bool) bool {
	if len(needle) != len(got) || len(needle) == 0 {
		return false
	}
	for i := range needle {
		if needle[i] != got[i] && (weak || needle[i] == "" || !strings.Contains(got[i], needle[i])) {
			return false
		}
	}
	return true
}

// expected returns the line number, in side t of newF, where c's old
// start line lands when carried through the hunk offsets, and whether that
// is exact (it went only through unchanged lines). Rebase assumes the two
// patches share their old image (a newer revision of the same change).
func (rb *rebaser) expected(c *exchange.Comment, side Side, oldF, newF *FileDiff, t Side, trusted bool) (int, bool) {
	n := c.StartLine
	if rb.same {
		if t == side {
			return n, trusted
		}
		m, ok := rb.newS.side(newF, side, rb.new.Patch).mapLine(n)
		return m, ok && trusted
	}
	base, exact := n, trusted
	if side == Right {
		if oldF == nil {
			exact = false
		} else {
			var ok bool
			base, ok = rb.oldS.side(oldF, Right, rb.old.Patch).mapLine(n)
			exact = exact && ok
		}
	}
	if t == Left {
		return base, exact
	}
	m, ok := rb.newS.side(newF, Left, rb.new.Patch).mapLine(base)
	return m, exact && ok
}

// find searches c in newF with the one search and ranking, and takes the
// best place when it is unique and acceptable; else it says why not. On a
// tie it also returns where c's old range lands on its side of the new
// patch (the line distances were measured from): a comment kept there
// shows `check` the same tie, which it then will not resolve either.
func (rb *rebaser) find(c *exchange.Comment, side Side, oldF, newF *FileDiff, lf lookFor) (found *place, why string, tie *place) {
	sides := make([]sideQuery, 2)
	for i, s := range [2]Side{side, side.other()} {
		if !HasImage(newF, s) {
			continue
		}
		nd := lf.nd
		if s != side {
			nd.before, nd.after = nil, nil // context is of the old side
		}
		sq := &sides[i]
		sq.si, sq.needles = rb.newS.side(newF, s, rb.new.Patch), []*needle{&nd}
		sq.expect, sq.exactMap = rb.expected(c, side, oldF, newF, s, lf.trusted)
	}
	res := search(sides, rb.budget)
	ps := res.places
	if len(ps) == 0 && sides[0].si != nil && !lf.nd.weak {
		ps = similarPlaces(&sides[0], &lf.nd)
	}
	if len(ps) == 0 {
		why := fmt.Sprintf("not found: %s is not in %s", lf.what(), strconv.Quote(newF.DisplayName()))
		if res.cut {
			why += " (search cut short)"
		}
		return nil, why, nil
	}
	rankPlaces(ps, side)
	if n := tied(ps, side); n > 1 {
		if ps[0].side == side && sides[0].si != nil {
			start := sides[0].expect
			tie = &place{side: side, start: start, end: start + max(0, c.EndLine-c.StartLine)}
		}
		return nil, tieMessage(ps, n), tie
	}
	best := ps[0]
	need := contextNeeded(len(lf.nd.before) + len(lf.nd.after))
	switch {
	case best.q >= qualityPartial && !lf.nd.weak:
	case best.exactMap:
	case best.ctx >= need:
	default:
		return nil, fmt.Sprintf("%s is too weak to re-anchor by (no letter or digit) and its context does not confirm a place", lf.what()), nil
	}
	return &best, "", nil
}

// contextNeeded is how many context lines must be found to confirm a
// place by context: half of those known, and at least two.
func contextNeeded(avail int) int {
	if avail == 0 {
		return 1 << 30 // no context: it can confirm nothing
	}
	return max(2, (avail+1)/2)
}

// similarity is the Dice coefficient a changed line must keep with the
// needle to be taken on its context.
const similarity = 0.6

// similarPlaces finds, when the needle is nowhere, the places where a line
// only resembles it but enough of its old context is around: windows
// within contextLines of a context line (after a line of before, before
// a line of after), found through the exact index rather than by scoring
// every window.
func similarPlaces(sq *sideQuery, nd *needle) []place {
	avail := len(nd.before) + len(nd.after)
	if avail == 0 {
		return nil
	}
	si := sq.si
	need := contextNeeded(avail)
	w := max(nd.rangeW, len(nd.lines)+nd.off)
	// A window is marked at least once per context line it would find, so
	// one marked fewer than need times cannot be confirmed by its context.
	marks := map[pos]int{}
	for k, l := range slices.Concat(nd.before, nd.after) {
		for _, i := range si.equalAt(l) {
			q := si.pos(i)
			if si.norm(q) != l {
				continue
			}
			// After a line of before, else before a line of after.
			from, to := int(q.p)+1, min(int(q.p)+contextLines, si.size(int(q.img))-w)
			if k >= len(nd.before) {
				from, to = max(0, int(q.p)-w-contextLines+1), int(q.p)-w
			}
			for p := from; p <= to; p++ {
				marks[pos{q.img, int32(p)}]++
			}
		}
	}
	var at []pos
	for q, n := range marks {
		if n >= need {
			at = append(at, q)
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i].img < at[j].img || at[i].img == at[j].img && at[i].p < at[j].p })
	joined := strings.Join(nd.lines, "\n")
	var out []place
	for _, q := range at {
		p := int(q.p)
		got := si.normRange(int(q.img), p+nd.off, p+nd.off+len(nd.lines))
		pl := sq.place(nd, int(q.img), p+nd.off, p+nd.off+len(nd.lines)-1, qualitySimilar)
		if pl.ctx >= need && dice(joined, strings.Join(got, "\n")) >= similarity {
			out = append(out, pl)
		}
	}
	return out
}

// dice is the Dice coefficient of the byte bigrams of a and b: 1 for equal
// strings, near 1 for a line with a small edit.
func dice(a, b string) float64 {
	if a == b {
		return 1
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	grams := make(map[string]int, len(a))
	for i := 0; i+2 <= len(a); i++ {
		grams[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+2 <= len(b); i++ {
		if g := b[i : i+2]; grams[g] > 0 {
			grams[g]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}

// foundWhy says where c was found, for the Move's reason.
func foundWhy(c *exchange.Comment, side Side, p *place, lf lookFor, renamed bool, f *FileDiff) string {
	what := "snippet"
	if !lf.fromSnippet {
		what = "its lines"
	}
	if p.q == qualitySimilar {
		what = "its context (the line changed)"
	}
	var where string
	switch d := p.start - c.StartLine; {
	case p.side != side:
		where = fmt.Sprintf("found on the %s side at line %d", p.side, p.start)
	case d == 0:
		where = "found at the same place"
	case d > 0:
		where = fmt.Sprintf("found %s lower", Plural(d, "line", "lines"))
	default:
		where = fmt.Sprintf("found %s higher", Plural(-d, "line", "lines"))
	}
	s := what + " " + where
	if renamed && f.Status == Renamed { // not a name a plain diff's header writes
		s += " in renamed file " + strconv.Quote(cmp.Or(f.Name(p.side), f.DisplayName()))
	}
	return s
}
