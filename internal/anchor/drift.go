package anchor

import (
	"slices"
	"sort"
	"strings"
)

// Drift: finding where a comment's snippet really is (review-exchange.md,
// "Decision — drift"). The search runs in the comment's file (or, for an
// unknown path, in the nearest known paths' files) on both sides, with the
// one search and ranking of search.go and search_rank.go: what a
// diagnostic proposes is what `fix` applies and where `rebase` would put
// the comment. Multi-line snippets match as a block of consecutive lines
// of one hunk.

// sideIndex returns the search index of side s of f, made for this
// analysis on its first search in f and dropped with it: the comments of
// one analysis share it, and the next analysis resolves again only the
// comments an edit changed, whose files it indexes again if it searches
// them. Kept with the patch, every file side ever searched would stay in
// memory for as long as the document is open.
func (rv *resolver) sideIndex(f *FileDiff, s Side) *sideIndex {
	if rv.search == nil {
		rv.search = newSearchIndex()
	}
	return rv.search.side(f, s, rv.ix.Patch)
}

// driftQuery is the search of c's snippet in f: the comment's side first,
// each side with its readings of the snippet (markers stripped, then as
// written). Weak snippets ("}") are never searched: they are everywhere.
func (rv *resolver) driftQuery(r *Resolution, f *FileDiff) []sideQuery {
	c := r.Comment
	rangeW := max(1, c.EndLine-c.StartLine+1)
	off := min(leadingBlankLines(c.Snippet), rangeW-1)
	sides := make([]sideQuery, 2)
	var readings [2][][]string
	n := 0
	for i, s := range [2]Side{r.Side, r.Side.other()} {
		if HasImage(f, s) {
			readings[i] = slices.DeleteFunc(snippetVariants(c.Snippet, s), weakSnippet)
			n += len(readings[i])
		}
	}
	nds := make([]needle, 0, n) // one allocation; never outgrown, so the pointers hold
	for i, s := range [2]Side{r.Side, r.Side.other()} {
		for _, v := range readings[i] {
			nds = append(nds, needle{lines: v, rangeW: rangeW, off: off})
			sides[i].needles = append(sides[i].needles, &nds[len(nds)-1])
		}
		if len(sides[i].needles) > 0 {
			sides[i].si, sides[i].expect = rv.sideIndex(f, s), c.StartLine
		}
	}
	return sides
}

// leadingBlankLines counts the blank lines a snippet starts with: the
// normalised snippet drops them, but they say that the range starts that
// many lines above its first non-blank line.
func leadingBlankLines(snippet string) int {
	n := 0
	for {
		line, rest, ok := strings.Cut(snippet, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			return n
		}
		n, snippet = n+1, rest
	}
}

// candidates searches the drift candidates of r's comment in the files of
// paths, ranks them, and marks the best one Preferred when it is unique
// and is not where the comment already is. It records on r a tie
// (r.Tie), a search cut short (r.SearchCut) and a best place that is the
// comment's own (r.Here: the snippet differs from its lines in white
// space only).
func (rv *resolver) candidates(r *Resolution, files []*FileDiff, paths []string) []Candidate {
	c := r.Comment
	if c.Snippet == "" {
		return nil
	}
	var all []place
	for pi, f := range files {
		res := search(rv.driftQuery(r, f), rv.budget)
		r.SearchCut = r.SearchCut || res.cut
		for _, p := range res.places {
			p.path = paths[pi]
			all = append(all, p)
		}
	}
	if len(all) == 0 {
		return nil
	}
	r.SearchCut = false
	if best := all[0]; best.q == qualityLoose && best.path == c.Path && best.side == r.Side && best.start == c.StartLine {
		r.Respaced = rv.quoted(best)
	}
	rankPlaces(all, r.Side)
	n := tied(all, r.Side)
	if n > 1 {
		r.Tie = tieMessage(all, n)
	}
	out := make([]Candidate, 0, min(len(all), maxCandidates))
	for i, p := range all {
		if p.path == c.Path && p.side == r.Side && p.start == c.StartLine && p.end == c.EndLine {
			r.Here = i < n
			continue // where it already is
		}
		if len(out) == maxCandidates {
			break
		}
		k := Candidate{Path: p.path, Side: p.side, Start: p.start, End: p.end, Distance: p.dist,
			Preferred: i == 0 && n == 1}
		if p.q == qualityLoose {
			k.respaced = rv.quoted(p)
		}
		out = append(out, k)
	}
	return out
}

// quoted is the snippet the lines matched at p make: a snippet that
// matched them white space aside is rewritten as them, so that the moved
// comment's snippet matches.
func (rv *resolver) quoted(p place) string {
	f := rv.ix.FileEither(p.path, p.side)
	if f == nil || p.hunk >= len(f.Hunks) {
		return ""
	}
	return SnippetOf(rv.ix.Patch, f, imageLines(&f.Hunks[p.hunk], p.line, p.lastLine, p.side))
}

// normalisePath spells a path as a patch would: forward slashes, without
// leading "./". The forms it may stand for are it and, when it starts with
// "a/" or "b/" (a git prefix copied from the diff header), it without that
// prefix.
func normalisePath(path string) []string {
	p := strings.ReplaceAll(path, "\\", "/")
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	forms := []string{p}
	for _, pre := range []string{"a/", "b/"} {
		if q, ok := strings.CutPrefix(p, pre); ok && q != "" {
			forms = append(forms, q)
		}
	}
	return forms
}

// normalisedPaths returns the patch paths an unknown path names once
// normalised (normalisePath), in patch order: exactly one is a fix that
// needs no choice (diagnostics.md's fixAll set); several are a choice.
func (rv *resolver) normalisedPaths(path string) []string {
	forms := normalisePath(path)
	var out []string
	for _, k := range rv.ix.Paths() {
		if k != path && slices.Contains(forms, k) {
			out = append(out, k)
		}
	}
	return out
}

// nearPaths returns the known paths nearest to an unknown one, all equally
// near (at most three): the paths it names once normalised
// (normalisePath); else the same path ignoring case; then a path that ends
// with it, or that it ends with, at a directory boundary (an LLM dropping
// or adding a leading directory); then a small edit distance (a typo).
// Anything farther is no guess at all.
func (rv *resolver) nearPaths(path string) []string {
	if ps, ok := rv.near[path]; ok {
		return ps
	}
	if rv.near == nil {
		rv.near = map[string][]string{}
	}
	if ps := rv.normalisedPaths(path); len(ps) > 0 {
		rv.near[path] = ps[:min(3, len(ps))]
		return rv.near[path]
	}
	p := normalisePath(path)[0]
	p = strings.TrimPrefix(p, "/")
	if forms := normalisePath(p); len(forms) > 1 {
		p = forms[1]
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
	for _, k := range rv.ix.Paths() {
		if k == "" || k == path {
			continue
		}
		lk := strings.ToLower(k)
		switch {
		case lk == lp:
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
	best = best[:min(3, len(best))]
	rv.near[path] = best
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
			v := min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit+1)
}
