package anchor

import (
	"hash/maphash"
	"sort"
	"strings"
	"sync"
)

// Drift: finding where a comment's snippet really is (review-exchange.md,
// "Decision — drift"). The search runs in the comment's file (or, for an
// unknown path, in the nearest known paths' files): on the comment's side
// first, nearest to start_line, then on the other side. Exact matches of
// the normalised lines come from a hash index; only when a side has none
// is the file scanned for the snippet as a part of its lines (LLMs quote
// the key part of a long line). Multi-line snippets match as a block of
// consecutive lines of one hunk.

// maxCandidates bounds the candidate list (and so the fixes offered).
const maxCandidates = 5

// contentIndex maps the normalised text of every diff line to where it
// occurs, file by file. Each file's part is built on the first drift search
// in that file, so that a document without drift pays nothing and
// thousands of drifted comments on a large patch each cost a map lookup.
//
// It depends on the patch alone, so it hangs off the Index and serves
// every version of a document whose patch did not change; mu guards the
// files built so far, since requests analyse versions concurrently.
type contentIndex struct {
	seed  maphash.Seed
	mu    sync.Mutex
	files []*fileContent
}

func newContentIndex(files int) *contentIndex {
	return &contentIndex{seed: maphash.MakeSeed(), files: make([]*fileContent, files)}
}

type fileContent struct {
	at map[uint64][]linePos
	// norm[hunk][line] is the normalised text of each line.
	norm [][]string
}

type linePos struct{ hunk, line int32 }

// file returns the content index of file fi, building it if needed.
func (an *analyzer) fileContent(fi int) *fileContent {
	if an.content == nil {
		an.content = an.ix.content
		if an.content == nil || len(an.content.files) != len(an.ix.Files) {
			an.content = newContentIndex(len(an.ix.Files)) // a hand-built index
		}
	}
	ci := an.content
	ci.mu.Lock()
	defer ci.mu.Unlock()
	if fc := ci.files[fi]; fc != nil {
		return fc
	}
	f := an.ix.Files[fi]
	n := 0
	for hi := range f.Hunks {
		n += len(f.Hunks[hi].Lines)
	}
	fc := &fileContent{at: make(map[uint64][]linePos, n), norm: make([][]string, len(f.Hunks))}
	for hi := range f.Hunks {
		h := &f.Hunks[hi]
		ns := make([]string, len(h.Lines))
		for li, l := range h.Lines {
			if l.Kind == NoNewline {
				continue
			}
			ns[li] = normLine(l.Content)
			if ns[li] == "" {
				continue // blank lines never start a match
			}
			k := maphash.String(ci.seed, ns[li])
			fc.at[k] = append(fc.at[k], linePos{int32(hi), int32(li)})
		}
		fc.norm[hi] = ns
	}
	ci.files[fi] = fc
	return fc
}

// place is a block of diff lines of one hunk: indexes in Hunk.Lines.
type place struct{ hunk, first, last int }

// matchBlock matches the normalised snippet lines against the image of
// side in hunk hi of file fi, starting at line index i. exact demands equal
// lines; otherwise the snippet may be part of the text (its first line a
// suffix of the first diff line, its last a prefix of the last, a single
// line anywhere inside). Runs of blank diff lines count as one blank line,
// as in the snippet.
func (fc *fileContent) matchBlock(f *FileDiff, hi, i int, side Side, snip []string, exact bool) (last int, ok bool) {
	lines := f.Hunks[hi].Lines
	norm := fc.norm[hi]
	prevBlank := false
	k := 0
	for j := i; j < len(lines) && k < len(snip); j++ {
		if !lines[j].In(side) {
			continue
		}
		n := norm[j]
		if n == "" && prevBlank {
			last = j
			continue
		}
		prevBlank = n == ""
		s := snip[k]
		var good bool
		switch {
		case exact:
			good = n == s
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

// findBlocks returns the places in file fi where snip matches on side,
// exact matches if there are any, else partial ones when partial is set
// (they cost a scan of the file).
func (an *analyzer) findBlocks(fi int, side Side, snip []string, partial bool) []place {
	fc := an.fileContent(fi)
	f := an.ix.Files[fi]
	var out []place
	for _, p := range fc.at[maphash.String(an.content.seed, snip[0])] {
		if !f.Hunks[p.hunk].Lines[p.line].In(side) {
			continue
		}
		if last, ok := fc.matchBlock(f, int(p.hunk), int(p.line), side, snip, true); ok {
			out = append(out, place{int(p.hunk), int(p.line), last})
		}
	}
	if len(out) > 0 || !partial {
		return out
	}
	for hi := range f.Hunks {
		for li, l := range f.Hunks[hi].Lines {
			if !l.In(side) || fc.norm[hi][li] == "" {
				continue
			}
			if last, ok := fc.matchBlock(f, hi, li, side, snip, false); ok {
				out = append(out, place{hi, li, last})
			}
		}
	}
	return out
}

// rankedCandidate is a candidate with its sort keys.
type rankedCandidate struct {
	Candidate
	sideRank, pathRank int
}

// candidates searches the drift candidates of r's comment in the files of
// paths (the comment's own file, or the nearest known paths'), nearest
// first, and marks the unique nearest one Preferred.
func (an *analyzer) candidates(r *Resolution, files []*FileDiff, paths []string) []Candidate {
	c := r.Comment
	if c.Snippet == "" {
		return nil
	}
	span := c.EndLine - c.StartLine
	if span < 0 {
		span = 0 // an inverted range moves as a block of the snippet's size
	}
	var all []rankedCandidate
	for pi, f := range files {
		fi, ok := an.files[f]
		if !ok {
			continue
		}
		// A context line is in both images: found on the comment's side, it
		// is not offered again as a place on the other side.
		sameSide := map[[2]int]bool{}
		for sideRank, side := range [2]Side{r.Side, r.Side.other()} {
			if !hasImage(f, side) {
				continue
			}
			for _, snip := range snippetVariants(c.Snippet, side) {
				if weakSnippet(snip) {
					continue
				}
				// The other side is scanned for a part of its lines only
				// when the comment's side had nothing at all.
				blocks := an.findBlocks(fi, side, snip, sideRank == 0 || len(all) == 0)
				for _, b := range blocks {
					if sideRank == 0 {
						sameSide[[2]int{b.hunk, b.first}] = true
					} else if sameSide[[2]int{b.hunk, b.first}] {
						continue
					}
					h := &f.Hunks[b.hunk]
					start, end := h.Lines[b.first].Number(side), h.Lines[b.last].Number(side)
					// Keep the comment's own extent when the hunk has room
					// for it: the snippet usually quotes the range's start.
					if start+span > end {
						if _, last := h.span(side); start+span <= last {
							end = start + span
						}
					}
					cand := Candidate{Path: paths[pi], Side: side, Start: start, End: end, Distance: abs(start - c.StartLine)}
					if cand.Path == c.Path && side == r.Side && start == c.StartLine && end == c.EndLine {
						continue // where it already is
					}
					all = append(all, rankedCandidate{cand, sideRank, pi})
				}
				if len(blocks) > 0 {
					break
				}
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.sideRank != b.sideRank {
			return a.sideRank < b.sideRank
		}
		if a.Distance != b.Distance {
			return a.Distance < b.Distance
		}
		if a.pathRank != b.pathRank {
			return a.pathRank < b.pathRank
		}
		return a.Start < b.Start
	})
	if len(all) == 0 {
		return nil
	}
	unique := len(all) == 1 || all[1].sideRank != all[0].sideRank || all[1].Distance != all[0].Distance
	out := make([]Candidate, 0, min(len(all), maxCandidates))
	for i, rc := range all {
		if i == maxCandidates {
			break
		}
		rc.Candidate.Preferred = i == 0 && unique
		out = append(out, rc.Candidate)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// nearPaths returns the known paths nearest to an unknown one, all equally
// near (at most three): the same path once an a/ or b/ prefix (or "./",
// "/") is removed or case is ignored; then a path that ends with it, or
// that it ends with, at a directory boundary (an LLM dropping or adding a
// leading directory); then a small edit distance (a typo). Anything
// farther is no guess at all.
func (an *analyzer) nearPaths(path string) []string {
	if ps, ok := an.near[path]; ok {
		return ps
	}
	if an.near == nil {
		an.near = map[string][]string{}
	}
	p := strings.TrimPrefix(path, "./")
	for _, pre := range []string{"a/", "b/", "/"} {
		if q := strings.TrimPrefix(p, pre); q != p {
			p = q
			break
		}
	}
	lp := strings.ToLower(p)
	limit := min(3, max(1, len(p)/4))
	best, bestRank := []string(nil), 1<<30
	consider := func(k string, rank int) {
		switch {
		case rank < bestRank:
			best, bestRank = []string{k}, rank
		case rank == bestRank:
			best = append(best, k)
		}
	}
	for _, k := range an.ix.Paths() {
		if k == "" || k == path {
			continue
		}
		lk := strings.ToLower(k)
		switch {
		case k == p || lk == lp:
			consider(k, 0)
		case strings.HasSuffix(lk, "/"+lp) || strings.HasSuffix(lp, "/"+lk):
			consider(k, 1)
		default:
			if d := editDistance(lp, lk, limit); d <= limit {
				consider(k, 1+d)
			}
		}
	}
	sort.Strings(best)
	if len(best) > 3 {
		best = best[:3]
	}
	an.near[path] = best
	return best
}

// editDistance is the Levenshtein distance of a and b in bytes, or
// limit+1 once it is known to exceed limit. Only a band of width
// 2*limit+1 around the diagonal is computed, so comparing a path with
// every path of a large patch stays cheap.
func editDistance(a, b string, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	const inf = 1 << 30
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
		if j > limit {
			prev[j] = inf
		}
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		for j := range cur {
			cur[j] = inf
		}
		if i <= limit {
			cur[0] = i
		}
		rowMin := cur[0]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[j-1] + cost
			if prev[j]+1 < v {
				v = prev[j] + 1
			}
			if cur[j-1]+1 < v {
				v = cur[j-1] + 1
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	if prev[len(b)] > limit {
		return limit + 1
	}
	return prev[len(b)]
}
