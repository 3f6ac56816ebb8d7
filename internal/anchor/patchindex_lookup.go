package anchor

import "sort"

// lookup holds what BuildIndex precomputes for the lookups. An Index built
// by hand (tests) has none, and the lookups then scan.
type lookup struct {
	byName [2]map[string]int // side → name → first file with that name on that side
	paths  []string
}

func newLookup(files []*FileDiff) *lookup {
	lk := &lookup{byName: [2]map[string]int{make(map[string]int, len(files)), make(map[string]int, len(files))}}
	seen := make(map[string]bool, 2*len(files))
	for i, f := range files {
		for s, name := range [2]string{f.OldName, f.NewName} {
			if name == "" {
				continue
			}
			if _, dup := lk.byName[s][name]; !dup {
				lk.byName[s][name] = i
			}
			if !seen[name] {
				seen[name] = true
				lk.paths = append(lk.paths, name)
			}
		}
	}
	return lk
}

// name returns f's name on side s.
func (f *FileDiff) name(s Side) string {
	if s == Left {
		return f.OldName
	}
	return f.NewName
}

// FileFor returns the file diff whose name on side matches path exactly
// (new name for RIGHT, old name for LEFT), and, failing that, a renamed
// file whose other name matches (renamed=true). The first file in patch
// order wins when several match.
func (ix *Index) FileFor(path string, s Side) (f *FileDiff, renamed bool) {
	if ix == nil || path == "" || s > Right {
		return nil, false
	}
	if ix.look != nil {
		if i, ok := ix.look.byName[s][path]; ok {
			return ix.Files[i], false
		}
	} else {
		for _, f := range ix.Files {
			if f.name(s) == path {
				return f, false
			}
		}
	}
	for _, f := range ix.Files {
		if f.Status == Renamed && f.name(1-s) == path {
			return f, true
		}
	}
	return nil, false
}

// Paths returns every distinct old and new name, in patch order, for
// nearest-path suggestions. The slice is the caller's.
func (ix *Index) Paths() []string {
	if ix == nil {
		return nil
	}
	if ix.look != nil {
		return append([]string(nil), ix.look.paths...)
	}
	return newLookup(ix.Files).paths
}

// span returns the numbers of the first and last lines of the hunk's image
// on side s, read from the body; last < first when the hunk shows no line
// of that image.
func (h *Hunk) span(s Side) (first, last int) {
	for i := range h.Lines {
		if m := h.Lines[i].Number(s); m > 0 {
			first = m
			break
		}
	}
	if first == 0 {
		f := h.firstNumber(s)
		return f, f - 1
	}
	for i := len(h.Lines) - 1; ; i-- {
		if n := h.Lines[i].Number(s); n > 0 {
			return first, n
		}
	}
}

// Find returns the hunk index and line index of image line n on side s,
// or ok=false. It binary-searches the hunks (their images ascend in any
// patch git writes; a patch whose hunks overlap is searched in order),
// then walks the hunk jumping over image lines it need not look at.
func (f *FileDiff) Find(s Side, n int) (hunk, line int, ok bool) {
	if f == nil || n <= 0 || s > Right {
		return -1, -1, false
	}
	hs := f.Hunks
	if f.ordered[s] {
		// The last hunk whose image starts at or before n is the only one
		// that can hold it.
		k := sort.Search(len(hs), func(i int) bool { return hs[i].firstNumber(s) > n }) - 1
		if k >= 0 {
			if i, ok := hs[k].find(s, n); ok {
				return k, i, true
			}
		}
		return -1, -1, false
	}
	for k := range hs {
		if i, ok := hs[k].find(s, n); ok {
			return k, i, true
		}
	}
	return -1, -1, false
}

// firstNumber is the number the hunk's first line on side s has, or would
// have: BuildIndex numbers from the header (see firstNumber).
func (h *Hunk) firstNumber(s Side) int {
	if s == Left {
		return firstNumber(h.OldStart, h.OldCount)
	}
	return firstNumber(h.NewStart, h.NewCount)
}

// find returns the index in h.Lines of image line n on side s. Image
// lines are numbered consecutively, so from an image line numbered m the
// line numbered n is at least n-m lines further: the walk jumps there and
// only steps one by one over lines of the other image.
func (h *Hunk) find(s Side, n int) (int, bool) {
	for i := 0; i < len(h.Lines); {
		m := h.Lines[i].Number(s)
		switch {
		case m == 0:
			i++
		case m == n:
			return i, true
		case m > n:
			return -1, false
		default:
			i += n - m
		}
	}
	return -1, false
}

// LineAt returns the file, hunk and line indexes for a p.Lines index (for
// hover and references on a patch element). ok is false for lines outside
// hunk bodies: for a hunk's "@@" line file and hunk are set and line is
// -1; for another line inside a file diff (its headers, text between
// hunks) file is set and hunk is -1; outside every file diff all are -1.
func (ix *Index) LineAt(patchLine int) (file, hunk, line int, ok bool) {
	if ix == nil {
		return -1, -1, -1, false
	}
	fs := ix.Files
	fi := sort.Search(len(fs), func(i int) bool { return fs[i].Last >= patchLine })
	if fi == len(fs) || fs[fi].First > patchLine {
		return -1, -1, -1, false
	}
	hs := fs[fi].Hunks
	hi := sort.Search(len(hs), func(i int) bool { return hs[i].Header+len(hs[i].Lines) >= patchLine })
	if hi == len(hs) || hs[hi].Header > patchLine {
		return fi, -1, -1, false
	}
	if patchLine == hs[hi].Header {
		return fi, hi, -1, false
	}
	li := patchLine - hs[hi].Header - 1
	if hs[hi].Lines[li].Patch != patchLine { // not built by BuildIndex
		for j := range hs[hi].Lines {
			if hs[hi].Lines[j].Patch == patchLine {
				return fi, hi, j, true
			}
		}
		return fi, hi, -1, false
	}
	return fi, hi, li, true
}
