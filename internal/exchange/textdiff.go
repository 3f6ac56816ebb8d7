package exchange

import (
	"bytes"
	"hash/maphash"
	"unicode/utf8"
)

// FormatEdits returns the edits that turn doc's source into its canonical
// form: what the language server answers a formatting request with. Editors
// apply a small edit set without moving the cursor off unchanged lines or
// making undo replace the whole buffer.
func FormatEdits(doc *Document) ([]Edit, error) {
	out, err := Format(doc)
	if err != nil {
		return nil, err
	}
	return Diff(doc.Text.Bytes(), out), nil
}

// diffBudget bounds the work of the line diff (steps of the edit-graph
// search). Past it the remaining differences become one edit each: a
// larger edit, never a slow or memory-hungry one.
const diffBudget = 20_000_000

// Diff returns a small set of non-overlapping edits, sorted, with offsets
// into before, that turn before into after. It compares lines (trimming the
// common head and tail first, then running Myers' linear-space diff on the
// rest), then trims each changed block to the bytes that differ. No edit
// boundary splits a UTF-8 sequence or a CRLF pair, so that every edit maps
// to LSP positions exactly. Equal inputs give no edits.
func Diff(before, after []byte) []Edit {
	if bytes.Equal(before, after) {
		return nil
	}
	a, b := diffLineStarts(before), diffLineStarts(after)
	na, nb := len(a)-1, len(b)-1
	line := func(text []byte, starts []int, i int) []byte { return text[starts[i]:starts[i+1]] }

	pre := 0
	for pre < na && pre < nb && bytes.Equal(line(before, a, pre), line(after, b, pre)) {
		pre++
	}
	suf := 0
	for suf < na-pre && suf < nb-pre && bytes.Equal(line(before, a, na-1-suf), line(after, b, nb-1-suf)) {
		suf++
	}

	d := &lineDiff{budget: diffBudget}
	ma, mb := na-pre-suf, nb-pre-suf
	switch {
	case ma == 0 || mb == 0:
		d.add(lineHunk{0, ma, 0, mb})
	case ma == 1:
		// One line against many (a compact document being expanded): only
		// equality with that line matters, no need to number the others.
		d.a, d.b = []int32{0}, markEqual(line(before, a, pre), after, b[pre:pre+mb+1])
		d.compare(0, ma, 0, mb)
	case mb == 1:
		d.a, d.b = markEqual(line(after, b, pre), before, a[pre:pre+ma+1]), []int32{0}
		d.compare(0, ma, 0, mb)
	default:
		d.a, d.b = numberLines(before, a[pre:pre+ma+1], after, b[pre:pre+mb+1])
		d.compare(0, ma, 0, mb)
	}

	edits := make([]Edit, 0, len(d.hunks))
	for _, h := range d.hunks {
		s, e := a[pre+h.a0], a[pre+h.a1]
		ns, ne := b[pre+h.b0], b[pre+h.b1]
		s, e, ns, ne = trimDiffEdit(before, after, s, e, ns, ne)
		if s == e && ns == ne {
			continue
		}
		edits = append(edits, Edit{Start: s, End: e, NewText: string(after[ns:ne])})
	}
	return edits
}

// numberLines gives each line of a and b (delimited by the offsets in sa
// and sb) a number, equal for equal lines, so that the search compares
// integers. Lines are keyed by a hash and checked against the line that
// got the number first; a (never seen) collision just gets a number of its
// own, which costs a larger edit, never a wrong one.
func numberLines(a []byte, sa []int, b []byte, sb []int) ([]int32, []int32) {
	seed := maphash.MakeSeed()
	ids := make(map[uint64]int32, len(sa)+len(sb))
	var reps [][]byte
	number := func(text []byte, starts []int) []int32 {
		out := make([]int32, len(starts)-1)
		for i := range out {
			l := text[starts[i]:starts[i+1]]
			h := maphash.Bytes(seed, l)
			id, ok := ids[h]
			if !ok {
				id = int32(len(reps))
				ids[h] = id
				reps = append(reps, l)
			} else if !bytes.Equal(reps[id], l) {
				id = int32(len(reps))
				reps = append(reps, l)
			}
			out[i] = id
		}
		return out
	}
	return number(a, sa), number(b, sb)
}

// markEqual numbers the lines of text (delimited by starts) 0 when they
// equal one and 1 otherwise.
func markEqual(one, text []byte, starts []int) []int32 {
	out := make([]int32, len(starts)-1)
	for i := range out {
		if !bytes.Equal(text[starts[i]:starts[i+1]], one) {
			out[i] = 1
		}
	}
	return out
}

// diffLineStarts returns the offset of each line's first byte and, last, the
// length of text. Lines end after '\n', so a CRLF pair is always inside one
// line and a line boundary is never inside a UTF-8 sequence.
func diffLineStarts(text []byte) []int {
	starts := make([]int, 1, bytes.Count(text, []byte{'\n'})+2)
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	if starts[len(starts)-1] != len(text) {
		starts = append(starts, len(text))
	}
	return starts
}

// trimDiffEdit shrinks the replacement of before[s:e] by after[ns:ne] to the
// bytes that differ, keeping the boundaries off the inside of UTF-8
// sequences and CRLF pairs.
func trimDiffEdit(before, after []byte, s, e, ns, ne int) (int, int, int, int) {
	p := 0
	for s+p < e && ns+p < ne && before[s+p] == after[ns+p] {
		p++
	}
	for p > 0 && (cutsCharacter(before, s+p) || cutsCharacter(after, ns+p)) {
		p--
	}
	s, ns = s+p, ns+p
	q := 0
	for s < e-q && ns < ne-q && before[e-q-1] == after[ne-q-1] {
		q++
	}
	for q > 0 && (cutsCharacter(before, e-q) || cutsCharacter(after, ne-q)) {
		q--
	}
	return s, e - q, ns, ne - q
}

// cutsCharacter reports whether a boundary at off would cut text inside a UTF-8
// sequence or between the two bytes of a CRLF pair.
func cutsCharacter(text []byte, off int) bool {
	if off <= 0 || off >= len(text) {
		return false
	}
	return !utf8.RuneStart(text[off]) || text[off-1] == '\r' && text[off] == '\n'
}

// lineHunk is a changed block: lines [a0, a1) of the old middle replaced by
// lines [b0, b1) of the new one.
type lineHunk struct{ a0, a1, b0, b1 int }

// lineDiff runs Myers' divide-and-conquer diff ("An O(ND) Difference
// Algorithm and Its Variations", section 4b) on line numbers: O(N+M)
// memory, O((N+M)·D) time, capped by budget.
type lineDiff struct {
	a, b   []int32
	vf, vb []int // furthest reaching x per diagonal, forward and backward
	budget int
	hunks  []lineHunk
}

func (d *lineDiff) add(h lineHunk) {
	if h.a0 == h.a1 && h.b0 == h.b1 {
		return
	}
	if k := len(d.hunks); k > 0 && d.hunks[k-1].a1 == h.a0 && d.hunks[k-1].b1 == h.b0 {
		d.hunks[k-1].a1, d.hunks[k-1].b1 = h.a1, h.b1
		return
	}
	d.hunks = append(d.hunks, h)
}

// compare diffs a[a0:a1] against b[b0:b1], appending hunks in order.
func (d *lineDiff) compare(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && d.a[a1-1] == d.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	if a0 == a1 || b0 == b1 {
		d.add(lineHunk{a0, a1, b0, b1})
		return
	}
	if a1-a0 == 1 || b1-b0 == 1 {
		// One line against many (a compact document being expanded): the
		// longest common subsequence is that line or nothing.
		d.single(a0, a1, b0, b1)
		return
	}
	x, y, ok := d.split(a0, a1, b0, b1)
	if !ok || x < a0 || x > a1 || y < b0 || y > b1 || x+y == a0+b0 || x+y == a1+b1 {
		// Over budget, or (never seen) a point on the box's edge that
		// would not shrink the problem: one coarse edit.
		d.add(lineHunk{a0, a1, b0, b1})
		return
	}
	d.compare(a0, x, b0, y)
	d.compare(x, a1, y, b1)
}

// single diffs a box one of whose sides is a single line: it matches that
// line with its first occurrence on the other side, if any.
func (d *lineDiff) single(a0, a1, b0, b1 int) {
	if a1-a0 == 1 {
		for j := b0; j < b1; j++ {
			if d.b[j] == d.a[a0] {
				d.add(lineHunk{a0, a0, b0, j})
				d.add(lineHunk{a1, a1, j + 1, b1})
				return
			}
		}
	} else {
		for i := a0; i < a1; i++ {
			if d.a[i] == d.b[b0] {
				d.add(lineHunk{a0, i, b0, b0})
				d.add(lineHunk{i + 1, a1, b1, b1})
				return
			}
		}
	}
	d.add(lineHunk{a0, a1, b0, b1})
}

// split finds a point (x, y) through which an edit path of (near) least
// cost passes, from the middle of the box: the end of the forward search
// where it first meets the backward one. Diagonals that run off the box
// are dropped from the searches, as in diff-match-patch's bisection. ok is
// false when the search runs out of budget.
func (d *lineDiff) split(a0, a1, b0, b1 int) (x, y int, ok bool) {
	s := d.newBisection(a0, a1, b0, b1)
	for step := 0; step <= s.maxD; step++ {
		d.budget -= 2*step + 2
		if d.budget < 0 {
			return 0, 0, false
		}
		if x, y, ok := s.forward(step); ok {
			return x, y, true
		}
		if x, y, ok := s.backward(step); ok {
			return x, y, true
		}
	}
	return 0, 0, false
}

// bisection is split's state: the box, and for each diagonal how far
// each search has reached.
type bisection struct {
	d                      *lineDiff
	a0, a1, b0, b1         int
	n, m, delta, maxD, off int
	odd                    bool
	vf, vb                 []int
	// Diagonals dropped at the low and high ends of each search.
	fLo, fHi, bLo, bHi int
}

func (d *lineDiff) newBisection(a0, a1, b0, b1 int) *bisection {
	s := &bisection{d: d, a0: a0, a1: a1, b0: b0, b1: b1, n: a1 - a0, m: b1 - b0}
	s.delta = s.n - s.m
	s.odd = s.delta&1 != 0
	s.maxD = (s.n + s.m + 1) / 2
	s.off = s.maxD + 1 // index of diagonal 0
	size := 2*s.maxD + 3
	if len(d.vf) < size {
		// The first box is the largest: this allocates once.
		d.vf, d.vb = make([]int, size), make([]int, size)
	}
	s.vf, s.vb = d.vf[:size], d.vb[:size]
	for i := range s.vf {
		s.vf[i], s.vb[i] = -1, -1
	}
	s.vf[s.off+1], s.vb[s.off+1] = 0, 0
	return s
}

// forward extends the forward search by one edit: vf[off+k] is the
// furthest x (from a0) on diagonal k = x - y reachable with step edits.
// It reports the point where it meets the backward search, if it does.
func (s *bisection) forward(step int) (x, y int, met bool) {
	d, vf, vb, off := s.d, s.vf, s.vb, s.off
	for k := -step + s.fLo; k <= step-s.fHi; k += 2 {
		i := off + k
		var x int
		if k == -step || (k != step && vf[i-1] < vf[i+1]) {
			x = vf[i+1] // down: insert b's line
		} else {
			x = vf[i-1] + 1 // right: delete a's line
		}
		y := x - k
		start := x
		for x < s.n && y < s.m && d.a[s.a0+x] == d.b[s.b0+y] {
			x, y = x+1, y+1
		}
		d.budget -= x - start
		vf[i] = x
		switch {
		case x > s.n:
			s.fHi += 2
		case y > s.m:
			s.fLo += 2
		case s.odd:
			// The backward search's diagonal kb = delta - k is this
			// one; it reached x = n - vb[off+kb].
			if j := off + s.delta - k; j >= 0 && j < len(vb) && vb[j] >= 0 && x+vb[j] >= s.n {
				return s.a0 + x, s.b0 + y, true
			}
		}
	}
	return 0, 0, false
}

// backward extends the backward search, on the reversed sequences, by
// one edit: vb[off+kb] is the furthest xr = n - x on diagonal kb = xr - yr.
func (s *bisection) backward(step int) (x, y int, met bool) {
	d, vf, vb, off := s.d, s.vf, s.vb, s.off
	for kb := -step + s.bLo; kb <= step-s.bHi; kb += 2 {
		j := off + kb
		var xr int
		if kb == -step || (kb != step && vb[j-1] < vb[j+1]) {
			xr = vb[j+1]
		} else {
			xr = vb[j-1] + 1
		}
		yr := xr - kb
		start := xr
		for xr < s.n && yr < s.m && d.a[s.a1-1-xr] == d.b[s.b1-1-yr] {
			xr, yr = xr+1, yr+1
		}
		d.budget -= xr - start
		vb[j] = xr
		switch {
		case xr > s.n:
			s.bHi += 2
		case yr > s.m:
			s.bLo += 2
		case !s.odd:
			k := s.delta - kb
			if i := off + k; i >= 0 && i < len(vf) && vf[i] >= 0 && vf[i]+xr >= s.n {
				x := vf[i]
				return s.a0 + x, s.b0 + x - k, true
			}
		}
	}
	return 0, 0, false
}
