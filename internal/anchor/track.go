package anchor

import (
	"hash/maphash"
	"slices"
	"sort"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Tracking the lines a review describes through a file's changes (issue
// 45). A comment is on RIGHT lines of a file diff; the file as it is now
// (on disk, or an editor's buffer) is that RIGHT image changed since.
// Where each of the file diff's RIGHT lines is now is told in one of two
// ways, never by searching for a comment's lines near their old place
// (which, for a `}` or a `return err`, finds the wrong one):
//
//   - a line diff of the file against the lines the review describes
//     (TrackLines), for a file read from disk or a buffer first seen:
//     lines found once in both are anchors, kept in order (the longest
//     increasing run); the lines next to an anchor in the review are
//     taken where they are next to it in the file; the lines between two
//     anchors that moved by the same offset are taken at that offset; a
//     block holding an anchor that moved out of order is taken where it
//     went. Any other line is not placed: where it is cannot be told;
//   - the editor's changes (LineTrack.Edited), which move every line by
//     what was inserted or deleted above it, exactly, whatever its text.
//
// A line is only ever placed where the text is its text (Place checks),
// so a comment whose lines were changed reads as outdated, never as a
// comment on another line.

// LineTrack is where each RIGHT line of one file diff is in one text.
// It is immutable: Edited makes a new one.
type LineTrack struct {
	// lines are the file diff's RIGHT lines, in the order of their
	// numbers (shared by every track of the file diff).
	lines []DiffLine
	// at is, by index in lines, the line of the text (from 1) that holds
	// it; 0 when its place is not known; -n when it was lost to an edit
	// near line n.
	at []int32
}

// LineEdit is one change of a text in lines: the Old lines from Line
// (from 0) were replaced by New lines. The lines before are unchanged,
// those after moved by New-Old. A replacement of as many lines as it
// removes keeps each line's place (Place then compares texts).
type LineEdit struct {
	Line, Old, New int
}

// rightLines are f's RIGHT lines in the order of their numbers; a line
// whose number is not above the previous one's (hunks out of order) is
// left out: it is never placed.
func rightLines(f *FileDiff) []DiffLine {
	out := make([]DiffLine, 0, len(f.lines))
	last := int32(0)
	for _, l := range f.lines {
		if l.New > last {
			out = append(out, l)
			last = l.New
		}
	}
	return out
}

// TrackLines places f's RIGHT lines in lines, a file's text split in
// lines (without terminators): where the file is the RIGHT image, every
// line where the review has it; else by a line diff (see above). p is
// the patch of a version whose index holds f.
func TrackLines(p *exchange.Patch, f *FileDiff, lines []string) *LineTrack {
	t := &LineTrack{lines: rightLines(f)}
	t.at = make([]int32, len(t.lines))
	texts := make([]string, len(t.lines))
	same := true
	for i, l := range t.lines {
		texts[i] = f.Content(p, l)
		n := int(l.New)
		if same && (n > len(lines) || !SameLine(lines[n-1], texts[i])) {
			same = false
		}
	}
	if same {
		for i, l := range t.lines {
			t.at[i] = l.New
		}
		return t
	}
	t.align(texts, lines)
	return t
}

// SameLine reports whether two lines are the same text: the same
// indentation, and the rest the same white space aside (the spec's
// normalisation, as the drift search compares: gofmt aligning a column
// changes no line). Indentation counts: a `}` closing a function is not
// the `\t}` closing an `if`.
func SameLine(a, b string) bool {
	if a == b {
		return true
	}
	ia, ib := indent(a), indent(b)
	if ia == len(a) && ib == len(b) {
		return true // blank lines, whatever their white space
	}
	return a[:ia] == b[:ib] && looseEqual(normLine(a[ia:]), normLine(b[ib:]))
}

// indent is the length of s's leading spaces and tabs.
func indent(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// lineHash hashes a line's indentation and its other bytes but white
// space, so that lines SameLine calls equal hash alike (a collision is
// told apart by SameLine).
func lineHash(seed maphash.Seed, s string) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	i := indent(s)
	if i < len(s) {
		h.WriteString(s[:i])
	}
	h.WriteByte(0)
	start := i
	for ; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
			h.WriteString(s[start:i])
			start = i + 1
		}
	}
	h.WriteString(s[start:])
	return h.Sum64()
}

// occurrence counts a hash's lines and remembers the last one.
type occurrence struct{ n, at int32 }

// align is the line diff of texts (the RIGHT lines) against lines.
func (t *LineTrack) align(texts, lines []string) {
	seed := maphash.MakeSeed()
	inFile := make(map[uint64]occurrence, len(lines))
	for j, s := range lines {
		h := lineHash(seed, s)
		o := inFile[h]
		inFile[h] = occurrence{n: o.n + 1, at: int32(j)}
	}
	inReview := make(map[uint64]occurrence, len(texts))
	hashes := make([]uint64, len(texts))
	for i, s := range texts {
		hashes[i] = lineHash(seed, s)
		o := inReview[hashes[i]]
		inReview[hashes[i]] = occurrence{n: o.n + 1, at: int32(i)}
	}
	// Anchors: lines found once on each side, not blank.
	type pair struct{ i, j int32 }
	var cands []pair
	for i, s := range texts {
		if normLine(s) == "" || inReview[hashes[i]].n != 1 {
			continue
		}
		if o := inFile[hashes[i]]; o.n == 1 && SameLine(lines[o.at], s) {
			cands = append(cands, pair{int32(i), o.at})
		}
	}
	taken := make([]bool, len(lines))
	same := func(i, j int) bool { return j >= 0 && j < len(lines) && SameLine(lines[j], texts[i]) }
	take := func(i, j int) bool {
		if j < 0 || j >= len(lines) || taken[j] || t.at[i] != 0 || !same(i, j) {
			return false
		}
		t.at[i], taken[j] = int32(j+1), true
		return true
	}
	inOrder := increasingRun(len(cands), func(k int) int32 { return cands[k].j })
	anchors := make([]int, 0, len(inOrder))
	for _, k := range inOrder {
		if take(int(cands[k].i), int(cands[k].j)) {
			anchors = append(anchors, int(cands[k].i))
		}
	}
	t.fillBetween(anchors, same, take, true)
	// Blocks that moved out of order: an anchor the increasing run left
	// out is still the one line of its text on each side; the lines
	// between two of them that moved alike are taken too.
	var moved []int
	for _, c := range cands {
		if take(int(c.i), int(c.j)) {
			moved = append(moved, int(c.i))
		}
	}
	t.fillBetween(moved, same, take, false)
}

// fillBetween places the lines between consecutive anchors (indexes of
// placed lines, in order; when fromStart, the start of the file stands
// for a line 0 placed at 0). Between an anchor A that moved by a and the
// next, B, that moved by b, lines were inserted or deleted at some place
// p: those before p moved by a, those after by b. p is at or before the
// first line that is not its text moved by a (ma), and after the last
// that is not its text moved by b (mb-1): the lines before mb moved by a,
// those from ma by b, and where p may be, between, cannot be told.
// The anchors of blocks that moved (not fromStart) have only the lines
// between two that moved alike placed, when all are their text.
func (t *LineTrack) fillBetween(anchors []int, same func(i, j int) bool, take func(i, j int) bool, fromStart bool) {
	prev := -1
	if !fromStart {
		if len(anchors) == 0 {
			return
		}
		prev, anchors = anchors[0], anchors[1:]
	}
	for _, b := range anchors {
		prevNum, prevAt := int32(0), int32(0)
		if prev >= 0 {
			prevNum, prevAt = t.lines[prev].New, t.at[prev]
		}
		offA, offB := prevAt-prevNum, t.at[b]-t.lines[b].New
		fits := func(k int, off int32) bool {
			j := t.lines[k].New + off
			return j > prevAt && j < t.at[b] && same(k, int(j)-1)
		}
		switch {
		case offA == offB:
			// Nothing inserted or deleted between them, or as much of
			// each: every line that is its text there is placed.
			all := true
			for k := prev + 1; k < b; k++ {
				all = all && fits(k, offA)
			}
			for k := prev + 1; k < b && (all || fromStart); k++ {
				if fits(k, offA) {
					take(k, int(t.lines[k].New+offA)-1)
				}
			}
		case fromStart:
			ma, mb := b, prev+1
			for k := prev + 1; k < b; k++ {
				if !fits(k, offA) {
					ma = k
					break
				}
			}
			for k := b - 1; k > prev; k-- {
				if !fits(k, offB) {
					mb = k + 1
					break
				}
			}
			if mb > ma {
				break // no one place p fits: more than one edit, or changed lines
			}
			for k := prev + 1; k < mb; k++ {
				take(k, int(t.lines[k].New+offA)-1)
			}
			for k := ma; k < b; k++ {
				take(k, int(t.lines[k].New+offB)-1)
			}
		}
		prev = b
	}
}

// increasingRun returns the indexes of a longest run of n values (val)
// that increases, in order.
func increasingRun(n int, val func(k int) int32) []int {
	var tails []int // tails[l]: index of the smallest value ending a run of l+1
	back := make([]int, n)
	for k := range n {
		l := sort.Search(len(tails), func(x int) bool { return val(tails[x]) >= val(k) })
		back[k] = -1
		if l > 0 {
			back[k] = tails[l-1]
		}
		if l == len(tails) {
			tails = append(tails, k)
		} else {
			tails[l] = k
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([]int, len(tails))
	for k, x := len(tails)-1, tails[len(tails)-1]; k >= 0; k, x = k-1, back[x] {
		out[k] = x
	}
	return out
}

// Edited returns the track after edits, in order: each line moved by
// the lines inserted and deleted above it; a line in a replacement of
// another number of lines is lost.
func (t *LineTrack) Edited(edits []LineEdit) *LineTrack {
	at := slices.Clone(t.at)
	for _, e := range edits {
		if e.Old == e.New {
			continue
		}
		for i, v := range at {
			n, lost := v, v < 0
			if lost {
				n = -v
			}
			switch {
			case n == 0 || int(n)-1 < e.Line:
				continue
			case int(n)-1 >= e.Line+e.Old:
				n += int32(e.New - e.Old)
			default:
				n, lost = int32(e.Line+1), true
			}
			if lost {
				n = -n
			}
			at[i] = n
		}
	}
	return &LineTrack{lines: t.lines, at: at}
}

// Placed is where a run of RIGHT lines is in a text.
type Placed struct {
	// Start and End are the lines holding them, from 1, when OK.
	Start, End int
	OK         bool
	// Exact: the lines are the same text, white space too.
	Exact bool
	// Near is, when not OK, the line nearest where they were (0 if
	// nothing tells).
	Near int
}

// Place returns where ls, consecutive RIGHT lines of the file diff, are
// in lines (the text the track is of): OK when each is placed, the one
// after the other, and is its text there. p is the patch of a version
// whose index holds f.
func (t *LineTrack) Place(p *exchange.Patch, f *FileDiff, ls []DiffLine, lines []string) Placed {
	if len(ls) == 0 {
		return Placed{}
	}
	first := t.index(ls[0])
	out := Placed{OK: first >= 0, Exact: true}
	for k, l := range ls {
		i := first + k
		if !out.OK || i >= len(t.lines) || t.lines[i] != l {
			out.OK = false
			break
		}
		n := int(t.at[i])
		if n <= 0 || n > len(lines) || k > 0 && n != out.End+1 {
			out.OK = false
			break
		}
		text := f.Content(p, l)
		if !SameLine(lines[n-1], text) {
			out.OK = false
			break
		}
		out.Exact = out.Exact && lines[n-1] == text
		if k == 0 {
			out.Start = n
		}
		out.End = n
	}
	if out.OK {
		return out
	}
	out.Start, out.End, out.Exact = 0, 0, false
	out.Near = t.near(first, ls[0])
	return out
}

// index is l's index in t.lines, -1 when it is not one of them.
func (t *LineTrack) index(l DiffLine) int {
	i, ok := slices.BinarySearchFunc(t.lines, l.New, func(x DiffLine, n int32) int { return int(x.New - n) })
	if !ok || t.lines[i] != l {
		return -1
	}
	return i
}

// near is where line i (l) was: its own place or the edit it was lost
// to, else moved as the nearest placed line before it, else after it.
func (t *LineTrack) near(i int, l DiffLine) int {
	if i < 0 {
		return int(l.New)
	}
	if v := t.at[i]; v != 0 {
		return int(max(v, -v))
	}
	for k := i - 1; k >= 0; k-- {
		if v := t.at[k]; v > 0 {
			return int(v + l.New - t.lines[k].New)
		}
	}
	for k := i + 1; k < len(t.lines); k++ {
		if v := t.at[k]; v > 0 {
			return max(1, int(v-(t.lines[k].New-l.New)))
		}
	}
	return int(l.New)
}
