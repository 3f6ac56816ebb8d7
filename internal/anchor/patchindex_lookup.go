package anchor

import (
	"cmp"
	"sort"
)

// lookup holds what BuildIndex precomputes for the lookups. An Index built
// by hand (tests) has none, and the lookups then scan.
type lookup struct {
	byName  [2]map[string]int // side → name → first file with that name on that side
	written map[string]int    // a name a plain diff's header writes → first file it names
	paths   []string
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
		for _, name := range f.Written {
			if _, dup := lk.written[name]; name != "" && !dup {
				if lk.written == nil {
					lk.written = map[string]int{}
				}
				lk.written[name] = i
			}
		}
	}
	return lk
}

// Name returns f's name on side s ("" for the absent side of a new or
// deleted file).
func (f *FileDiff) Name(s Side) string {
	if s == Left {
		return f.OldName
	}
	return f.NewName
}

// DisplayName names f whatever its sides: the new name, or the old one of
// a deleted file.
func (f *FileDiff) DisplayName() string { return cmp.Or(f.NewName, f.OldName) }

// FileFor returns the file diff whose name on side matches path exactly
// (new name for RIGHT, old name for LEFT), and, failing that (other=true),
// a renamed file whose other name matches, or a plain diff's file whose
// header writes path on either side (FileDiff.Written). The first file in
// patch order wins when several match.
func (ix *Index) FileFor(path string, s Side) (f *FileDiff, other bool) {
	if ix == nil || path == "" || s > Right {
		return nil, false
	}
	if ix.look != nil {
		if i, ok := ix.look.byName[s][path]; ok {
			return ix.Files[i], false
		}
	} else {
		for _, f := range ix.Files {
			if f.Name(s) == path {
				return f, false
			}
		}
	}
	for _, f := range ix.Files {
		if f.Status == Renamed && f.Name(1-s) == path {
			return f, true
		}
	}
	if ix.look != nil {
		if i, ok := ix.look.written[path]; ok && ix.Files[i].writes(path, s) {
			return ix.Files[i], true
		}
		return nil, false
	}
	for _, f := range ix.Files {
		if f.writes(path, s) {
			return f, true
		}
	}
	return nil, false
}

// writes reports whether f's header writes path for side s: either name
// when f has one path (both names alike, or one side absent), else only
// that side's.
func (f *FileDiff) writes(path string, s Side) bool {
	if f.OldName == f.NewName || f.OldName == "" || f.NewName == "" {
		return f.Written[Left] == path || f.Written[Right] == path
	}
	return f.Written[s] == path
}

// isWritten reports whether path names f only as a plain diff's header
// writes it, not by its name on either side.
func (f *FileDiff) isWritten(path string) bool {
	return path != "" && path != f.OldName && path != f.NewName && (f.Written[Left] == path || f.Written[Right] == path)
}

// FileEither is FileFor on side s, then on the other side: the file a
// path names whatever the side, for drift candidates (which may sit on
// the other side) and for pointing at a file's header.
func (ix *Index) FileEither(path string, s Side) *FileDiff {
	if f, _ := ix.FileFor(path, s); f != nil {
		return f
	}
	f, _ := ix.FileFor(path, s.other())
	return f
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

// LastLine returns the patch line that ends the hunk: its last body line,
// or its header when it has none.
func (h *Hunk) LastLine() int {
	if len(h.Lines) == 0 {
		return h.Header
	}
	return h.PatchLine(len(h.Lines) - 1)
}

// Span returns the numbers of the first and last lines of the hunk's image
// on side s, read from the body; last < first when the hunk shows no line
// of that image.
func (h *Hunk) Span(s Side) (first, last int) {
	for i := range h.Lines {
		if m := h.Lines[i].Number(s); m > 0 {
			first = m
			break
		}
	}
	if first == 0 {
		start, count := h.OldStart, h.OldCount
		if s == Right {
			start, count = h.NewStart, h.NewCount
		}
		f := firstNumber(start, count)
		return f, f - 1
	}
	for i := len(h.Lines) - 1; ; i-- {
		if n := h.Lines[i].Number(s); n > 0 {
			return first, n
		}
	}
}

// imageSpan is the numbers of a hunk's first and last lines in one image;
// last < first when the hunk shows no line of it.
type imageSpan struct{ first, last int }

// span returns hunk i's first and last line numbers in image s (Span),
// as BuildIndex stored them.
func (f *FileDiff) span(s Side, i int) (first, last int) {
	if spans := f.spans[s]; len(spans) == len(f.Hunks) {
		return spans[i].first, spans[i].last
	}
	return f.Hunks[i].Span(s) // not built by BuildIndex
}

// Find returns the hunk index and line index of image line n on side s,
// or ok=false. It binary-searches the hunks' image spans (they ascend in
// any patch git writes; overlapping hunks are searched in order), then
// walks the hunk from its nearer end, jumping over image lines it need not
// look at: the cost is O(log hunks) plus the lines of the other image
// passed on the way.
func (f *FileDiff) Find(s Side, n int) (hunk, line int, ok bool) {
	if f == nil || n <= 0 || s > Right {
		return -1, -1, false
	}
	hs, spans := f.Hunks, f.spans[s]
	if len(spans) == len(hs) && f.ordered[s] {
		// The last hunk whose image starts at or before n is the only one
		// that can hold it.
		k := sort.Search(len(spans), func(i int) bool { return spans[i].first > n }) - 1
		if k >= 0 {
			if i, ok := hs[k].find(s, n, spans[k].first, spans[k].last); ok {
				return k, i, true
			}
		}
		return -1, -1, false
	}
	for k := range hs { // unordered, or not built by BuildIndex
		first, last := f.span(s, k)
		if i, ok := hs[k].find(s, n, first, last); ok {
			return k, i, true
		}
	}
	return -1, -1, false
}

// find returns the index in h.Lines of image line n on side s, the hunk's
// image on that side being first..last. Image lines are numbered
// consecutively, so from an image line numbered m the line numbered n is
// at least |n-m| lines away: the walk jumps there and steps one by one
// only over lines of the other image.
func (h *Hunk) find(s Side, n, first, last int) (int, bool) {
	if n < first || n > last {
		return -1, false
	}
	i, step := 0, 1 // from the start, or (nearer) from the end backwards
	if n-first > last-n {
		i, step = len(h.Lines)-1, -1
	}
	for i >= 0 && i < len(h.Lines) {
		switch m := h.Lines[i].Number(s); {
		case m == 0:
			i += step
		case m == n:
			return i, true
		case (m-n)*step > 0: // walked past it
			return -1, false
		default:
			i += n - m
		}
	}
	return -1, false
}

// LineAt returns the file, hunk and line indexes for a patch line index (for
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
	return fi, hi, patchLine - hs[hi].Header - 1, true
}
