package exchange

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// unifiedContext is how many unchanged lines a unified diff shows around
// a change, as diff -u and git do.
const unifiedContext = 3

// lineRegion is a run of whole lines of before, [a0, a1), replaced by the
// whole lines text.
type lineRegion struct {
	a0, a1 int
	edits  []Edit
	text   []byte
}

// Unified returns the change from before to after as a unified diff of
// the file name ("--- a/NAME", "+++ b/NAME", hunks with three lines of
// context): what a change to a review looks like to a reader before it is
// written. It is built from Diff's edits widened to whole lines. Equal
// texts give "".
func Unified(name string, before, after []byte) string {
	edits := Diff(before, after)
	if len(edits) == 0 {
		return ""
	}
	starts := diffLineStarts(before)
	regions := unifiedRegions(before, starts, edits)
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	shift := 0 // after's line number minus before's, before the current hunk
	for i := 0; i < len(regions); {
		j := i + 1
		for j < len(regions) && regions[j].a0-regions[j-1].a1 <= 2*unifiedContext {
			j++
		}
		shift = writeUnifiedHunk(&b, before, starts, regions[i:j], shift)
		i = j
	}
	return b.String()
}

// unifiedRegions widens edits (sorted, not overlapping) to whole lines of
// before and merges those that share a line.
func unifiedRegions(before []byte, starts []int, edits []Edit) []lineRegion {
	n := len(starts) - 1 // lines of before
	lineOf := func(off int) int {
		return max(0, sort.Search(n, func(i int) bool { return starts[i] > off })-1)
	}
	var out []lineRegion
	for _, e := range edits {
		a0 := lineOf(e.Start)
		if e.Start == len(before) && len(before) > 0 && before[len(before)-1] == '\n' {
			a0 = n // appending after the last line
		}
		s := starts[a0]
		var a1 int
		switch {
		case e.End == e.Start && e.Start == s && (strings.HasSuffix(e.NewText, "\n") || a0 == n):
			a1 = a0 // whole lines inserted before line a0
		case e.End > e.Start && (e.End == len(before) || e.End == starts[lineOf(e.End)]) && e.End != s:
			a1 = lineOf(e.End-1) + 1
		default:
			a1 = lineOf(e.End) + 1
		}
		if k := len(out) - 1; k >= 0 && out[k].a1 >= a0 {
			// Shares a line with the previous region: one region.
			out[k].a1 = max(out[k].a1, a1)
			out[k].edits = append(out[k].edits, e)
			continue
		}
		out = append(out, lineRegion{a0: a0, a1: a1, edits: []Edit{e}})
	}
	for i := range out {
		r := &out[i]
		s, end := starts[r.a0], starts[min(r.a1, n)]
		var text []byte
		for _, e := range r.edits {
			text = append(append(text, before[s:e.Start]...), e.NewText...)
			s = e.End
		}
		r.text = append(text, before[s:end]...)
	}
	return out
}

// writeUnifiedHunk writes one hunk holding regions (close enough to share
// their context) and returns the line shift after it.
func writeUnifiedHunk(b *strings.Builder, before []byte, starts []int, regions []lineRegion, shift int) int {
	n := len(starts) - 1
	from := max(0, regions[0].a0-unifiedContext)
	to := min(n, regions[len(regions)-1].a1+unifiedContext)
	var body strings.Builder
	oldCount, newCount := 0, 0
	line := func(marker byte, text []byte) {
		body.WriteByte(marker)
		body.Write(bytes.TrimSuffix(text, []byte("\n")))
		body.WriteByte('\n')
		if !bytes.HasSuffix(text, []byte("\n")) {
			body.WriteString("\\ No newline at end of file\n")
		}
	}
	at := from
	for _, r := range regions {
		for ; at < r.a0; at++ {
			line(' ', before[starts[at]:starts[at+1]])
			oldCount++
			newCount++
		}
		for ; at < r.a1; at++ {
			line('-', before[starts[at]:starts[at+1]])
			oldCount++
		}
		for rest := r.text; len(rest) > 0; {
			k := bytes.IndexByte(rest, '\n') + 1
			if k == 0 {
				k = len(rest)
			}
			line('+', rest[:k])
			rest = rest[k:]
			newCount++
		}
	}
	for ; at < to; at++ {
		line(' ', before[starts[at]:starts[at+1]])
		oldCount++
		newCount++
	}
	newFrom := from + shift
	fmt.Fprintf(b, "@@ -%s +%s @@\n", unifiedRange(from, oldCount), unifiedRange(newFrom, newCount))
	b.WriteString(body.String())
	return shift + newCount - oldCount
}

// unifiedRange writes a hunk range: 1-based start and count, the start of
// an empty range being the line before it.
func unifiedRange(from, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, count)
}
