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
//     what was inserted or deleted before it, exactly, whatever its text:
//     each line is tracked as the bytes of its text, so that text typed
//     at a line's start and then broken off by Enter is a line above it.
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
	// ends are, by hunk, the index in lines after the hunk's lines
	// (shared too): they tell which hunk a line is of.
	ends []int32
	// spans are, by index in lines, the bytes of the text holding each
	// line, its terminator included; a span whose Start is
	// unknown (-1) was not placed, lost (-2) was deleted by an edit at
	// End.
	spans []Span
	// at is the diff's result, by index in lines: the line (from 1)
	// holding it, 0 when not placed. Used only while tracking is made.
	at []int32
}

// Span is a line in a text, in bytes.
type Span struct{ Start, End int }

const (
	unknown = -1
	lost    = -2
)

// TextEdit is one change of a text: the bytes from Start to End were
// replaced by New bytes.
type TextEdit struct {
	Start, End, New int
}

// rightLines are f's RIGHT lines in the order of their numbers, their
// texts read from p, and by hunk the index in them after the hunk's lines;
// a line whose number is not above the previous one's (hunks out of
// order) is left out: it is never placed.
func rightLines(p *exchange.Patch, f *FileDiff) (out []DiffLine, texts []string, ends []int32) {
	out = make([]DiffLine, 0, len(f.lines))
	texts = make([]string, 0, len(f.lines))
	ends = make([]int32, len(f.Hunks))
	last := int32(0)
	for h := range f.Hunks {
		hk := &f.Hunks[h]
		for j, l := range hk.Lines {
			if l.New > last {
				out = append(out, l)
				texts = append(texts, f.Content(p, hk.PatchLine(j)))
				last = l.New
			}
		}
		ends[h] = int32(len(out))
	}
	return out, texts, ends
}

// TrackLines places f's RIGHT lines in lines, a file's text split in
// lines (without terminators): where the file is the RIGHT image, every
// line where the review has it; else by a line diff (see above). p is
// the patch of a version whose index holds f.
// starts are the lines' offsets in the text.
func TrackLines(p *exchange.Patch, f *FileDiff, lines []string, starts []int) *LineTrack {
	t := &LineTrack{}
	var texts []string
	t.lines, texts, t.ends = rightLines(p, f)
	t.at = make([]int32, len(t.lines))
	same := true
	for i, l := range t.lines {
		n := int(l.New)
		if same && (n > len(lines) || !SameLine(lines[n-1], texts[i])) {
			same = false
		}
	}
	if same {
		for i, l := range t.lines {
			t.at[i] = l.New
		}
	} else {
		t.align(texts, lines)
	}
	t.spans = make([]Span, len(t.lines))
	for i, n := range t.at {
		t.spans[i] = Span{Start: unknown}
		if n > 0 {
			end := starts[n-1] + len(lines[n-1])
			if int(n) < len(starts) {
				end = starts[n]
			}
			t.spans[i] = Span{Start: starts[n-1], End: end}
		}
	}
	t.at = nil
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

// SameText is the drift search's "the same text": white space aside,
// indentation too. Where a line is placed it is compared so (a file gofmt
// re-indented still has its comments); the diff tells lines apart by
// SameLine, whose indentation counts.
func SameText(a, b string) bool {
	return a == b || looseEqual(normLine(a), normLine(b))
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
		inFile[h] = occurrence{n: inFile[h].n + 1, at: int32(j)}
	}
	inReview := make(map[uint64]occurrence, len(texts))
	hashes := make([]uint64, len(texts))
	for i, s := range texts {
		hashes[i] = lineHash(seed, s)
		inReview[hashes[i]] = occurrence{n: inReview[hashes[i]].n + 1, at: int32(i)}
	}
	// Anchors: lines found once on each side, not blank.
	var cands []anchorPair
	for i, s := range texts {
		if normLine(s) == "" || inReview[hashes[i]].n != 1 {
			continue
		}
		if o := inFile[hashes[i]]; o.n == 1 && SameLine(lines[o.at], s) {
			cands = append(cands, anchorPair{int32(i), o.at})
		}
	}
	taken := make([]bool, len(lines))
	same := func(i, j int) bool { return j >= 0 && j < len(lines) && SameLine(lines[j], texts[i]) }
	similar := func(i, j int) bool { return j >= 0 && j < len(lines) && SameText(lines[j], texts[i]) }
	take := func(i, j int) bool {
		if j < 0 || j >= len(lines) || taken[j] || t.at[i] != 0 || !similar(i, j) {
			return false
		}
		t.at[i], taken[j] = int32(j+1), true
		return true
	}
	inOrder := increasingRun(len(cands), func(k int) int32 { return cands[k].j })
	ordered := make([]anchorPair, len(inOrder))
	for n, k := range inOrder {
		ordered[n] = cands[k]
		cands[k].j = -1 // not a moved block's anchor below
	}
	// A dubious anchor (see agreed) is not placed, and nothing between
	// it and its neighbours is: it bounds the lines around it, so that
	// no line is placed across it as though nothing moved there.
	agreed := t.agreed(ordered, true, same)
	dubious := map[int]bool{}
	anchors := make([]int, 0, len(inOrder))
	for n, c := range ordered {
		if !agreed[n] {
			t.at[c.i], taken[c.j] = int32(c.j+1), true
			dubious[int(c.i)] = true
			anchors = append(anchors, int(c.i))
		} else if take(int(c.i), int(c.j)) {
			anchors = append(anchors, int(c.i))
		}
	}
	t.fillBetween(anchors, dubious, same, similar, take, true)
	for i := range dubious {
		t.at[i] = 0
	}
	// After the last anchor nothing bounds where lines were added: the
	// lines of its run (its hunk) are taken where they follow it.
	if len(anchors) > 0 && !dubious[anchors[len(anchors)-1]] {
		for k := anchors[len(anchors)-1] + 1; k < len(t.lines) && t.lines[k].New == t.lines[k-1].New+1; k++ {
			if !same(k, int(t.at[k-1])) || !take(k, int(t.at[k-1])) {
				break
			}
		}
	}
	// Blocks that moved out of order: an anchor the increasing run left
	// out is still the one line of its text on each side; the lines
	// between two of them that moved alike are taken too.
	out := slices.DeleteFunc(cands, func(c anchorPair) bool { return c.j < 0 })
	var moved []int
	for n, keep := range t.agreed(out, false, nil) {
		if c := out[n]; keep && take(int(c.i), int(c.j)) {
			moved = append(moved, int(c.i))
		}
	}
	t.fillBetween(moved, nil, same, similar, take, false)
}

// anchorPair is a line found once in the review's RIGHT lines (index i)
// and once in the file (line j, from 0).
type anchorPair struct{ i, j int32 }

// agreed tells which anchors (in the review's order) are certain: those
// whose offset (how far the line moved) a neighbour's shares (the anchor
// before or after it, or, before the first when fromStart, the file's
// start, offset 0). Once in the review's RIGHT lines is not once in the
// file the review was made on: a line outside the hunks may have the
// same text, and once the reviewed line is deleted or changed that twin
// is the only one left; taken, it would carry the comment to another
// function. An anchor that moved unlike the anchors on both its sides is
// that, or a line between two edits: either way its place is not
// certain. An anchor with a neighbour on one side only (the last) and
// another offset is certain when the review's lines between them fit
// one insertion or deletion (fits, as fillBetween places them); with
// fits nil (blocks that moved), it is not.
func (t *LineTrack) agreed(ps []anchorPair, fromStart bool, fits func(i, j int) bool) []bool {
	off := func(k int) int32 {
		if k < 0 {
			return 0 // the file's start
		}
		return ps[k].j + 1 - t.lines[ps[k].i].New
	}
	keep := make([]bool, len(ps))
	for k := range ps {
		o := off(k)
		hasPrev, hasNext := k > 0 || fromStart, k+1 < len(ps)
		switch {
		case hasPrev && off(k-1) == o, hasNext && off(k+1) == o:
			keep[k] = true
		case hasPrev && !hasNext && fits != nil:
			keep[k] = t.oneEdit(ps, k, off(k-1), o, fits)
		}
	}
	return keep
}

// oneEdit reports whether the review's lines between anchor k-1 (the
// file's start when k is 0) and anchor k fit one insertion or deletion:
// those before some place moved by a, those after it by b.
func (t *LineTrack) oneEdit(ps []anchorPair, k int, a, b int32, fits func(i, j int) bool) bool {
	from, lo := 0, int32(-1)
	if k > 0 {
		from, lo = int(ps[k-1].i)+1, ps[k-1].j
	}
	to, hi := int(ps[k].i), ps[k].j
	at := func(q int, off int32) bool {
		j := t.lines[q].New + off - 1
		return j > lo && j < hi && fits(q, int(j))
	}
	p := from // the first line that is not its text moved by a
	for p < to && at(p, a) {
		p++
	}
	for q := p; q < to; q++ {
		if !at(q, b) {
			return false
		}
	}
	return true
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
// between two that moved alike placed, when all are their text. Nothing
// next to a dubious anchor is placed.
func (t *LineTrack) fillBetween(anchors []int, dubious map[int]bool, same, similar, take func(i, j int) bool, fromStart bool) {
	prev := -1
	if !fromStart {
		if len(anchors) == 0 {
			return
		}
		prev, anchors = anchors[0], anchors[1:]
	}
	for _, b := range anchors {
		if dubious[b] || prev >= 0 && dubious[prev] {
			prev = b
			continue
		}
		prevNum, prevAt := int32(0), int32(0)
		if prev >= 0 {
			prevNum, prevAt = t.lines[prev].New, t.at[prev]
		}
		offA, offB := prevAt-prevNum, t.at[b]-t.lines[b].New
		// lands: line k moved by off is between the two anchors, on a
		// line that match calls its text.
		lands := func(k int, off int32, match func(i, j int) bool) bool {
			j := t.lines[k].New + off
			return j > prevAt && j < t.at[b] && match(k, int(j)-1)
		}
		switch {
		case offA == offB:
			// Nothing inserted or deleted between them, or as much of
			// each: the lines that are their text there, white space
			// aside, are placed.
			// A line that is not: changed, or more than one edit between
			// them; the lines before the first such and after the last
			// are placed, and those between only when there is none.
			ma, mb := b, prev+1
			for k := prev + 1; k < b; k++ {
				if !lands(k, offA, similar) {
					ma = min(ma, k)
					mb = k + 1
				}
			}
			if !fromStart && ma != b {
				break
			}
			for k := prev + 1; k < b; k++ {
				if k < ma || k >= mb {
					take(k, int(t.lines[k].New+offA)-1)
				}
			}
		case fromStart:
			ma, mb := b, prev+1
			for k := prev + 1; k < b; k++ {
				if !lands(k, offA, same) {
					ma = k
					break
				}
			}
			for k := b - 1; k > prev; k-- {
				if !lands(k, offB, same) {
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

// Edited returns the track after edits, in order. A line before an edit
// keeps its place; one after it moves by what the edit inserted and
// deleted; text inserted at a line's start goes before it. A line the
// edit deleted, all of it and its line break, is lost; one it changed a
// part of keeps its place (Place compares its text).
func (t *LineTrack) Edited(edits []TextEdit) *LineTrack {
	spans := slices.Clone(t.spans)
	for _, e := range edits {
		delta := e.New - (e.End - e.Start)
		for i, sp := range spans {
			switch {
			case sp.Start == unknown:
			case sp.Start == lost:
				if sp.End >= e.End {
					spans[i].End += delta
				} else if sp.End > e.Start {
					spans[i].End = e.Start
				}
			case e.End <= sp.Start: // before it, an insertion at its start too
				spans[i] = Span{sp.Start + delta, sp.End + delta}
			case e.Start >= sp.End: // after it
			case e.Start <= sp.Start && e.End >= sp.End:
				spans[i] = Span{Start: lost, End: e.Start}
			case e.Start > sp.Start:
				spans[i].End = max(sp.End+delta, e.Start+e.New)
			default: // its start replaced
				spans[i] = Span{Start: e.Start, End: sp.End + delta}
			}
		}
	}
	return &LineTrack{lines: t.lines, ends: t.ends, spans: spans}
}

// Placed is where a run of RIGHT lines is in a text.
type Placed struct {
	// Start and End are the lines holding them, from 1, when OK.
	Start, End int
	OK         bool
	// Exact: the lines are the same text, white space too.
	Exact bool
	// Near is, when not OK, the line nearest where they were (0 if
	// nothing tells); PartStart and PartEnd the first run of them that
	// is placed and its text (0 if none).
	Near, PartStart, PartEnd int
}

// Place returns where ls, consecutive RIGHT lines of the file diff, are
// in the text the track is of (its lines and their starts): OK when each
// is placed, the one on the line after the other, each line its text
// there. p is the patch of a version whose index holds f.
func (t *LineTrack) Place(p *exchange.Patch, f *FileDiff, ls []ImageLine, lines []string, starts []int) Placed {
	if len(ls) == 0 {
		return Placed{}
	}
	// One walk finds the first run of them that is placed, each line after
	// the other and its text: they are OK when that run is all of them.
	first := t.index(f, ls[0])
	var out Placed
	exact, runFrom, k := true, -1, 0
walk:
	for ; first >= 0 && k < len(ls) && first+k < len(t.lines); k++ {
		n := lineAt(starts, t.spans[first+k].Start)
		text := ""
		intact := n > 0 && n <= len(lines) && t.is(f, first+k, ls[k])
		if intact {
			text = f.Content(p, ls[k].Patch)
			intact = SameText(lines[n-1], text)
		}
		switch {
		case intact && (out.PartStart == 0 || n == out.PartEnd+1):
			if out.PartStart == 0 {
				out.PartStart, runFrom = n, k
			}
			out.PartEnd = n
			exact = exact && lines[n-1] == text
		case out.PartStart > 0:
			break walk
		}
	}
	if runFrom == 0 && k == len(ls) {
		return Placed{Start: out.PartStart, End: out.PartEnd, OK: true, Exact: exact}
	}
	out.Near = t.near(first, ls[0].DiffLine, starts)
	return out
}

// lineAt is the line (from 1) holding offset off, 0 for a negative one.
func lineAt(starts []int, off int) int {
	if off < 0 {
		return 0
	}
	i, ok := slices.BinarySearch(starts, off)
	if ok {
		return i + 1
	}
	return i
}

// index is l's index in t.lines, -1 when it is not one of them.
func (t *LineTrack) index(f *FileDiff, l ImageLine) int {
	i, ok := slices.BinarySearchFunc(t.lines, l.New, func(x DiffLine, n int32) int { return int(x.New - n) })
	if !ok || !t.is(f, i, l) {
		return -1
	}
	return i
}

// is reports whether t.lines[i] is l, a line of f: the same numbers in
// the same hunk (hunks out of order may repeat numbers).
func (t *LineTrack) is(f *FileDiff, i int, l ImageLine) bool {
	if t.lines[i] != l.DiffLine {
		return false
	}
	h := sort.Search(len(t.ends), func(h int) bool { return t.ends[h] > int32(i) })
	return h < len(f.Hunks) && l.Patch > f.Hunks[h].Header && l.Patch <= f.Hunks[h].Header+len(f.Hunks[h].Lines)
}

// near is where line i (l) was: its own place or where the edit that
// deleted it was, else moved as the nearest placed line before it, else
// after it.
func (t *LineTrack) near(i int, l DiffLine, starts []int) int {
	if i < 0 {
		return int(l.New)
	}
	switch sp := t.spans[i]; sp.Start {
	case lost:
		return max(1, lineAt(starts, sp.End))
	case unknown:
	default:
		return lineAt(starts, sp.Start)
	}
	for k := i - 1; k >= 0; k-- {
		if n := lineAt(starts, t.spans[k].Start); n > 0 {
			return n + int(l.New-t.lines[k].New)
		}
	}
	for k := i + 1; k < len(t.lines); k++ {
		if n := lineAt(starts, t.spans[k].Start); n > 0 {
			return max(1, n-int(t.lines[k].New-l.New))
		}
	}
	return int(l.New)
}
