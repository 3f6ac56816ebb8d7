package anchor

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The candidate search: where a comment's text is in a file diff. It is
// the one search behind every re-anchoring — drift candidates of the
// orphaned-anchor and snippet-mismatch diagnostics, their quick fixes,
// `fix`, the stale-anchor fix and `rebase` — so that they never propose
// different places for the same comment; search_rank.go orders what it
// finds.
//
// The search is indexed and bounded (review-exchange.md asks for bounded
// work on hostile input):
//   - exact and white-space-insensitive matches come from hash indexes of
//     the lines (search_index.go), their positions visited nearest first;
//   - a partial match (the snippet is a part of the lines) is looked for by
//     scanning outward from the expected line, nearest first, and stops
//     once the nearest match is known and its tie checked; a trigram
//     bitset of the side's lines spares the scan for text that is nowhere;
//   - every visit is work: a search does at most maxSearchWork, and an
//     analysis at most its budget (two visits per line of the patch),
//     so that any number of drifted comments costs about one more pass
//     over the patch. A search stopped by a limit before it settled says so
//     (searchCut), and the diagnostic tells the reader.

// quality is how well a place's lines match the needle, best last.
type quality int8

const (
	qualityNone    quality = iota
	qualitySimilar         // rebase only: the line changed, its context confirms the place
	qualityPartial         // the needle is a part of the lines
	qualityLoose           // the lines equal the needle once white space is removed
	qualityExact           // the lines equal the needle (the spec's snippet normalisation)
)

// Work limits of the search, in lines visited (lineWork).
const (
	// maxSearchWork bounds one comment's search.
	maxSearchWork = 4096
	// minSearchWork is what a comment still gets once the analysis budget
	// is spent: enough for an off-by-a-few drift.
	minSearchWork = 64
	// listWork is what a search spends, once the nearest match is settled,
	// on finding more places to list.
	listWork = 32
	// wantPlaces is how many places a search collects: the candidates
	// listed and one more, to tell a tie.
	wantPlaces = maxCandidates + 1
)

// maxCandidates bounds the candidate list (and so the fixes offered).
const maxCandidates = 5

// needle is what a comment is looked for with on one side.
type needle struct {
	lines []string // normalised, blank runs collapsed
	weak  bool     // no letter or digit: exact matches only
	// off is where the needle sits in the comment's range and rangeW the
	// range's lines (image positions): a window keeps the range's extent.
	off, rangeW int
	// before and after are context lines (rebase of a trusted place).
	before, after []string
	// probeText caches probe.
	probeText string
	probeSet  bool
}

// place is one place a needle was found.
type place struct {
	path       string
	side       Side
	start, end int
	q          quality
	dist       int
	ctx        int // context lines found around it (rebase)
	// hunk and line (an index in Hunk.Lines) identify the first matched
	// diff line, whatever the side; lastLine the last.
	hunk, line, lastLine int
	exactMap             bool // rebase: its old line maps here through unchanged lines
}

// budget is an analysis's search work left.
type budget struct{ left int }

// newBudget gives an analysis of patch p its budget: two visits per line
// of the patch, a long line counting as one per workBytes of it.
func newBudget(p *exchange.Patch) *budget {
	n := 0
	if p != nil {
		// From each line's length alone: reading the texts would visit
		// every element of the patch.
		for i := range p.LineCount() {
			n += lenWork(p.LineLen(i))
		}
	}
	return &budget{left: 1<<16 + 2*n}
}

// workBytes is how much of a long line one unit of work covers: a long
// line costs in proportion to its length, so that a patch of a few huge
// lines cannot make every comment's search scan the whole of them.
const workBytes = 64

// lineWork is what visiting line s costs.
func lineWork(s string) int { return lenWork(len(s)) }

// lenWork is what visiting a line of n bytes costs.
func lenWork(n int) int { return 1 + n/workBytes }

// allowance is the work one search may do.
func (b *budget) allowance() int {
	if b == nil {
		return maxSearchWork
	}
	return max(minSearchWork, min(maxSearchWork, b.left))
}

func (b *budget) spend(n int) {
	if b != nil {
		b.left -= n
	}
}

// sideQuery is one side to search: its index, its needle readings (in
// order: a reading is tried only when the previous found nothing) and the
// line where the comment is expected on that side.
type sideQuery struct {
	si       *sideIndex
	needles  []*needle
	expect   int
	exactMap bool
}

// searchResult is what a search found: the places of the best quality
// there was, and whether a limit stopped it before it settled.
type searchResult struct {
	places []place
	cut    bool
}

// search looks for the needles in the sides (the comment's own side
// first), tier by tier: exact and white-space-insensitive on either side
// (one lookup), then partial on the own side, then partial on the other.
// Only the best quality found is returned: a worse match never outranks it
// (search_rank.go).
func search(sides []sideQuery, b *budget) searchResult {
	work := b.allowance()
	allowed := work
	defer func() { b.spend(allowed - work) }()
	var res searchResult
	for _, q := range []quality{qualityExact, qualityPartial} {
		var seen [][2]int // the own side's places: a few, a list is enough
		for i, sq := range sides {
			if sq.si == nil {
				continue
			}
			if q == qualityPartial && i > 0 && len(res.places) > 0 {
				break // the own side's partial matches rank first
			}
			for _, nd := range sq.needles {
				if nd.weak && q == qualityPartial {
					continue
				}
				ps, cut := sq.find(nd, q, &work)
				res.cut = res.cut || cut
				if len(ps) == 0 {
					continue
				}
				// A context line is in both images: found on the own side,
				// it is not offered again as a place on the other.
				for _, p := range ps {
					k := [2]int{p.hunk, p.line}
					if i == 0 {
						seen = append(seen, k)
					} else if slices.Contains(seen, k) {
						continue
					}
					res.places = append(res.places, p)
				}
				break
			}
		}
		if len(res.places) > 0 {
			res.cut = false // settled at this tier: a worse one never outranks it
			res.places = bestQuality(res.places)
			return res
		}
	}
	return res
}

// bestQuality keeps the places of the best quality among ps.
func bestQuality(ps []place) []place {
	best := qualityNone
	for _, p := range ps {
		best = max(best, p.q)
	}
	return slices.DeleteFunc(ps, func(p place) bool { return p.q != best })
}

// find returns the places on the query's side, nearest first: partial
// ones for qualityPartial, else the exact and white-space-insensitive
// ones. cut reports that the work ran out before the nearest was settled.
func (sq *sideQuery) find(nd *needle, q quality, work *int) ([]place, bool) {
	si := sq.si
	if q == qualityPartial {
		return sq.scan(nd, work)
	}
	at := si.equalAt(nd.lines[0])
	if len(at) == 0 {
		return nil, false
	}
	// Visit the positions nearest the expected line first.
	hi := sort.Search(len(at), func(i int) bool { return si.num(int(at[i])) >= sq.expect })
	lo := hi - 1
	// Loose matches do not stop the walk: an exact one farther away
	// outranks them all.
	var out []place
	exact := 0
	for (lo >= 0 || hi < len(at)) && exact < wantPlaces {
		var i int32
		if hi >= len(at) || lo >= 0 && sq.expect-si.num(int(at[lo])) <= si.num(int(at[hi]))-sq.expect {
			i, lo = at[lo], lo-1
		} else {
			i, hi = at[hi], hi+1
		}
		if cost := lineWork(si.raw(int(i))); cost <= *work {
			*work -= cost
		} else {
			sortNearest(out)
			return out, len(out) == 0
		}
		a := si.pos(i)
		if last, ok := matchAt(si, int(a.img), int(a.p), nd, qualityExact); ok {
			out = append(out, sq.place(nd, int(a.img), int(a.p), last, qualityExact))
			exact++
		} else if len(out)-exact >= wantPlaces || nd.weak {
			continue
		} else if last, ok := matchAt(si, int(a.img), int(a.p), nd, qualityLoose); ok {
			out = append(out, sq.place(nd, int(a.img), int(a.p), last, qualityLoose))
		}
	}
	sortNearest(out)
	return out, false
}

// scan looks for partial matches outward from the expected line. Once the
// nearest match is found at distance d, the scan finishes distance d (a
// tie) and spends at most listWork more on places to list.
func (sq *sideQuery) scan(nd *needle, work *int) ([]place, bool) {
	si := sq.si
	if si.nowhere(nd.probe()) {
		return nil, false // no line holds one of its trigrams
	}
	n := len(si.flat)
	hi := si.nearest(sq.expect)
	lo := hi - 1
	var out []place
	settled, extra := -1, listWork
	for lo >= 0 || hi < n {
		var i int
		if hi >= n || lo >= 0 && sq.expect-si.num(lo) <= si.num(hi)-sq.expect {
			i, lo = lo, lo-1
		} else {
			i, hi = hi, hi+1
		}
		d := abs(si.num(i) - sq.expect)
		if settled >= 0 && d > settled {
			if extra--; extra < 0 || len(out) >= wantPlaces {
				break
			}
		}
		raw := si.raw(i)
		if cost := lineWork(raw); cost <= *work {
			*work -= cost
		} else {
			if len(out) == 0 && !si.mayHold(nd.probe()) {
				return nil, false // not cut short: it is nowhere
			}
			sortNearest(out)
			return out, settled < 0 || d <= settled
		}
		if !strings.Contains(raw, nd.probe()) || !partialStart(normLine(raw), nd) {
			continue
		}
		a := si.pos(int32(i))
		if last, ok := matchAt(si, int(a.img), int(a.p), nd, qualityPartial); ok {
			out = append(out, sq.place(nd, int(a.img), int(a.p), last, qualityPartial))
			if settled < 0 {
				settled = d
			}
		}
	}
	sortNearest(out)
	return out, false
}

func sortNearest(ps []place) {
	slices.SortStableFunc(ps, func(a, b place) int {
		return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.start, b.start))
	})
}

// probe is a part of the needle's first line that any line starting a
// partial match holds as it is, white space and all: its longest run
// without white space. Looking for it in the raw line spares normalising
// most of the lines a scan visits.
func (nd *needle) probe() string {
	if nd.probeSet {
		return nd.probeText
	}
	best := ""
	for _, f := range strings.Fields(nd.lines[0]) {
		if len(f) > len(best) {
			best = f
		}
	}
	nd.probeText, nd.probeSet = best, true
	return best
}

// partialStart is the test a line passes to start a partial match.
func partialStart(line string, nd *needle) bool {
	if line == "" {
		return false
	}
	if len(nd.lines) == 1 {
		return strings.Contains(line, nd.lines[0])
	}
	return strings.HasSuffix(line, nd.lines[0])
}

// place makes the place of a match of nd at image img, positions first
// to last: the comment's range is kept when the hunk has room for it.
func (sq *sideQuery) place(nd *needle, img, first, last int, q quality) place {
	si := sq.si
	p := first - nd.off
	if p < 0 {
		p = first
	}
	end := max(p+nd.rangeW-1, last)
	if end >= si.size(img) {
		end = last
	}
	pl := place{side: si.side, start: si.number(img, p), end: si.number(img, end), q: q,
		hunk: img, line: si.hunkLine(img, first), lastLine: si.hunkLine(img, last)}
	pl.dist = abs(pl.start - sq.expect)
	pl.exactMap = sq.exactMap && pl.dist == 0
	if len(nd.before)+len(nd.after) > 0 {
		pl.ctx = countCommon(nd.before, si.normRange(img, p-contextLines, p)) +
			countCommon(nd.after, si.normRange(img, end+1, end+1+contextLines))
	}
	return pl
}

// matchAt matches nd against image img from position i with quality q,
// and returns the position of the last line matched. Exact and loose
// matches demand equal lines; a partial match lets the snippet be a part
// of the text (its first line a suffix of the first line, its last a
// prefix of the last, a single line anywhere inside). Runs of blank lines
// count as one blank line, as in the snippet.
func matchAt(si *sideIndex, img, i int, nd *needle, q quality) (last int, ok bool) {
	size := si.size(img)
	snip := nd.lines
	prevBlank := false
	k := 0
	for j := i; j < size && k < len(snip); j++ {
		n := si.normAt(img, j)
		if n == "" && prevBlank {
			last = j
			continue
		}
		prevBlank = n == ""
		s := snip[k]
		var good bool
		switch {
		case q == qualityExact || nd.weak:
			good = n == s
		case q == qualityLoose:
			good = looseEqual(n, s)
		case len(snip) == 1:
			good = strings.Contains(n, s)
		case k == 0:
			good = strings.HasSuffix(n, s)
		case k == len(snip)-1:
			good = strings.HasPrefix(n, s)
		default:
			good = n == s
		}
		if !good {
			return 0, false
		}
		last = j
		k++
	}
	return last, k == len(snip)
}

// looseEqual reports whether normalised lines a and b are equal once their
// white space is removed (normLine leaves single ASCII spaces only).
func looseEqual(a, b string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && a[i] == ' ' {
			i++
		}
		for j < len(b) && b[j] == ' ' {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// contextLines is how many lines of context rebase takes above and below
// a comment's old place.
const contextLines = 3

// countCommon counts the lines of want found in got (a multiset
// intersection: a context line may have shifted by one or two).
func countCommon(want, got []string) int {
	if len(want) == 0 || len(got) == 0 {
		return 0
	}
	var usedBuf [2 * contextLines]bool
	var used []bool
	if len(got) <= len(usedBuf) {
		used = usedBuf[:len(got)]
	} else {
		used = make([]bool, len(got))
	}
	n := 0
	for _, w := range want {
		for j, g := range got {
			if !used[j] && g == w {
				used[j] = true
				n++
				break
			}
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
