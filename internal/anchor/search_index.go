package anchor

import (
	"hash/maphash"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"sort"
	"sync"
	"sync/atomic"
)

// The content index the candidate search (search.go) runs on. One side
// (image) of one file diff is indexed on the first search in it, and the
// index is shared by every comment: a 200,000-line file with 5,000 drifted
// comments must cost one pass over the file, not one per comment.
//
// It depends on the patch alone, so an Index carries one (patchindex.go)
// and it serves every version of a document whose patch did not change;
// mu guards it, since requests analyze versions concurrently.
type searchIndex struct {
	seed  uint64 // salts the line keys (lineKey)
	mu    sync.Mutex
	sides map[*FileDiff]*[2]*sideData
	texts map[*FileDiff]*fileText
}

func newSearchIndex() *searchIndex {
	return &searchIndex{seed: maphash.String(maphash.MakeSeed(), "lreview"), sides: map[*FileDiff]*[2]*sideData{}, texts: map[*FileDiff]*fileText{}}
}

// fileText is the key (lineKey) of every body line of a file diff, in
// FileDiff.body order, 0 for a blank line: computed once for both sides,
// since context lines are in both.
type fileText struct {
	key []uint32
}

func (si *searchIndex) text(f *FileDiff, p *exchange.Patch) *fileText {
	if ft := si.texts[f]; ft != nil {
		return ft
	}
	ft := &fileText{key: make([]uint32, len(f.body()))}
	var lr *exchange.LineReader
	if f.plain == nil {
		lr = p.NewLineReader()
	}
	i := 0
	for h := range f.Hunks {
		hk := &f.Hunks[h]
		for j := range hk.Lines {
			var k uint64
			var blank bool
			if f.plain != nil {
				k, blank = lineKey(si.seed, f.plain[hk.PatchLine(j)])
			} else {
				k, blank = lineKey(si.seed, content(lr.Peek(hk.PatchLine(j)))) // hashed, then dropped
			}
			if !blank {
				ft.key[i] = key32(k)
			}
			i++
		}
	}
	si.texts[f] = ft
	return ft
}

// key32 folds a line key to the 32 bits the index keeps (half the memory
// of 64, and a random collision within one side of a patch still rare):
// never 0, which marks a blank line.
func key32(k uint64) uint32 {
	if x := uint32(k ^ k>>32); x != 0 {
		return x
	}
	return 1
}

// side returns the index of side s of f, building it on first use, for
// the version whose patch is p (see FileDiff.Content).
func (si *searchIndex) side(f *FileDiff, s Side, p *exchange.Patch) *sideIndex {
	si.mu.Lock()
	defer si.mu.Unlock()
	both := si.sides[f]
	if both == nil {
		both = &[2]*sideData{}
		si.sides[f] = both
	}
	if both[s] == nil {
		both[s] = buildSide(f, s, si.seed, si.text(f, p))
		if both[s.other()] != nil {
			delete(si.texts, f) // both sides built: no longer needed
		}
	}
	return &sideIndex{sideData: both[s], patch: p}
}

// sideIndex is one side of one file diff: its lines in image order (hunk
// by hunk), and where each line occurs, white space aside. A position is
// an index in flat; its image and place in it are found from imgs.
type sideIndex struct {
	*sideData
	// patch is the patch of the version searching, which the lines'
	// texts are read from (FileDiff.Content).
	patch *exchange.Patch
}

// sideData is what sideIndex reads, shared by every version of the patch:
// it holds no text.
type sideData struct {
	f    *FileDiff
	side Side
	seed uint64
	// body is the file diff's body lines, hunk after hunk (FileDiff.body).
	body []DiffLine
	imgs []image
	// flat lists every position in image order as the index in body of
	// its line, 32 bits: 4 bytes a line of a large review.
	flat []int32
	// equal lists the positions of each non-blank line by the key of its
	// text without white space: the lines equal to a needle line, and
	// those equal once white space is removed, in one lookup (callers
	// compare the text).
	equal postings
	// grams is a bitset of the hashed trigrams of the side's raw lines:
	// a needle holding a trigram that is not in it is nowhere, and a
	// partial search need not scan at all. It is built, guarded by
	// gramsOnce, when a scan runs out of work without finding its text
	// (gramsReady then set): a search whose scans find their text never
	// pays for it, and one that would be cut short learns whether the text
	// is anywhere at all.
	gramsOnce  sync.Once
	grams      []uint64
	gramsReady atomic.Bool
}

// The trigram bitset has about two bits per byte of the side's text (a
// side holds fewer distinct trigrams than bytes), between 1 Ki and 8 Mi
// bits: false positives only cost a scan.
const (
	minGramBits = 1 << 10
	maxGramBits = 1 << 23
)

func gramHash(a, b, c byte) uint32 {
	return (uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9E3779B1
}

// nowhere reports that no line of the side holds s as it is, when the
// trigram bitset is built; false when it cannot tell.
func (si *sideIndex) nowhere(s string) bool {
	return si.gramsReady.Load() && !si.mayHold(s)
}

// mayHold reports whether some line of the side may hold s as it is:
// false when a trigram of s is in none of them.
func (si *sideIndex) mayHold(s string) bool {
	if len(s) < 3 {
		return true
	}
	si.gramsOnce.Do(func() {
		size := 0
		for i := range si.flat {
			size += len(si.raw(i))
		}
		bits := minGramBits
		for bits < 2*size && bits < maxGramBits {
			bits *= 2
		}
		si.grams = make([]uint64, bits/64)
		mask := uint32(bits - 1)
		for i := range si.flat {
			l := si.raw(i)
			for i := 0; i+3 <= len(l); i++ {
				h := gramHash(l[i], l[i+1], l[i+2]) >> 9 & mask
				si.grams[h/64] |= 1 << (h % 64)
			}
		}
		si.gramsReady.Store(true)
	})
	mask := uint32(len(si.grams)*64 - 1)
	for i := 0; i+3 <= len(s); i++ {
		if h := gramHash(s[i], s[i+1], s[i+2]) >> 9 & mask; si.grams[h/64]&(1<<(h%64)) == 0 {
			return false
		}
	}
	return true
}

// pos is position p of image img (an index in sideIndex.imgs).
type pos struct{ img, p int32 }

// image is the image of one side in one hunk (imgs[h] is hunk h's): the
// hunk's lines that belong to it, in order, positions first to first+n-1.
// Their normalised text is computed when a search looks at them
// (sideIndex.normAt): building the index must not normalise 200,000 lines
// that no search visits.
type image struct {
	first, n int32
	// base is the index in sideIndex.body of the hunk's first line.
	base int32
	// other is the number of the hunk's lines in the other side's image,
	// which mapLine needs to carry a line across.
	other int32
}

// body returns f's body lines, hunk after hunk: the builder's slice, or,
// for a FileDiff built by hand, a copy.
func (f *FileDiff) body() []DiffLine {
	n := 0
	for h := range f.Hunks {
		n += len(f.Hunks[h].Lines)
	}
	if len(f.lines) == n {
		return f.lines
	}
	out := make([]DiffLine, 0, n)
	for h := range f.Hunks {
		out = append(out, f.Hunks[h].Lines...)
	}
	return out
}

func buildSide(f *FileDiff, s Side, seed uint64, ft *fileText) *sideData {
	body := f.body()
	n := 0
	for i := range body {
		if body[i].In(s) {
			n++
		}
	}
	si := &sideData{f: f, side: s, seed: seed, body: body, imgs: make([]image, len(f.Hunks)), flat: make([]int32, 0, n)}
	to := s.other()
	base := 0
	for h := range f.Hunks {
		hk := &f.Hunks[h]
		img := image{first: int32(len(si.flat)), base: int32(base)}
		for i := range hk.Lines {
			l := &hk.Lines[i]
			if l.In(to) {
				img.other++
			}
			if l.In(s) {
				si.flat = append(si.flat, int32(base+i))
			}
		}
		// A NoNewline line is in no image, so n counts the hunk's lines
		// of this side's image.
		img.n = int32(len(si.flat)) - img.first
		si.imgs[h] = img
		base += len(hk.Lines)
	}
	si.equal = newPostings(len(si.flat), func(i int) uint32 { return ft.key[si.flat[i]] })
	return si
}

// postings lists, for each key, the positions of the lines with that
// key, in image order: the keys sorted (a stable radix sort, a few passes
// over the array: no map, no allocation per line), each key's lines a run
// of at.
type postings struct {
	keys []uint32
	at   []int32
}

// newPostings indexes the n lines by key(i); lines whose key is 0 (blank)
// are left out.
func newPostings(n int, key func(i int) uint32) postings {
	m := 0
	for i := range n {
		if key(i) != 0 {
			m++
		}
	}
	keys, at := make([]uint32, 0, m), make([]int32, 0, m)
	for i := range n {
		if k := key(i); k != 0 {
			keys, at = append(keys, k), append(at, int32(i))
		}
	}
	// 16-bit digits for a large side, 8-bit ones for a small side (whose
	// counts would otherwise cost more than its lines).
	bits := 8
	if len(keys) > 1<<14 {
		bits = 16
	}
	mask := uint32(1)<<bits - 1
	count := make([]int32, 1<<bits)
	tk, ta := make([]uint32, len(keys)), make([]int32, len(at))
	for shift := 0; shift < 32; shift += bits {
		clear(count)
		for _, k := range keys {
			count[k>>shift&mask]++
		}
		sum := int32(0)
		for d, c := range count {
			count[d], sum = sum, sum+c
		}
		for i, k := range keys {
			d := k >> shift & mask
			tk[count[d]], ta[count[d]] = k, at[i]
			count[d]++
		}
		keys, tk, at, ta = tk, keys, ta, at
	}
	return postings{keys: keys, at: at}
}

// of returns the list of key k.
func (ps *postings) of(k uint32) []int32 {
	lo := sort.Search(len(ps.keys), func(i int) bool { return ps.keys[i] >= k })
	hi := lo
	for hi < len(ps.keys) && ps.keys[hi] == k {
		hi++
	}
	return ps.at[lo:hi]
}

// equalAt returns the positions of the lines that may equal normalised
// line s, white space aside: a superset (a hash), in image order.
func (si *sideData) equalAt(s string) []int32 {
	return si.equal.of(key32(looseKey(si.seed, s)))
}

// pos returns the image of position i and its place in it.
func (si *sideData) pos(i int32) pos {
	img := sort.Search(len(si.imgs), func(h int) bool { return si.imgs[h].first+si.imgs[h].n > i })
	return pos{int32(img), i - si.imgs[img].first}
}

// line is the diff line at position i.
func (si *sideData) line(i int32) *DiffLine { return &si.body[si.flat[i]] }

// num is the line number, in the index's side, at position i.
func (si *sideData) num(i int) int { return si.line(int32(i)).Number(si.side) }

// at is the position of place p of image img.
func (si *sideData) at(img, p int) int32 { return si.imgs[img].first + int32(p) }

// size is the number of positions of image img.
func (si *sideData) size(img int) int { return int(si.imgs[img].n) }

// hunkLine is the index in Hunk.Lines of place p of image img.
func (si *sideData) hunkLine(img, p int) int {
	return int(si.flat[si.at(img, p)] - si.imgs[img].base)
}

// posOfLine returns the place in image img of line i of its hunk (an index
// in Hunk.Lines), or -1 when the line is not in the image.
func (si *sideData) posOfLine(img, i int) int {
	im := si.imgs[img]
	want := im.base + int32(i)
	ps := si.flat[im.first : im.first+im.n]
	p := sort.Search(len(ps), func(k int) bool { return ps[k] >= want })
	if p < len(ps) && ps[p] == want {
		return p
	}
	return -1
}

// normAt is the normalised text of position p of image img.
func (si *sideIndex) normAt(img, p int) string {
	return normLine(si.f.Content(si.patch, si.f.Hunks[img].PatchLine(si.hunkLine(img, p))))
}

// raw is the text of the line at position i, as the patch has it.
func (si *sideIndex) raw(i int) string {
	at := si.pos(int32(i))
	return si.f.Content(si.patch, si.f.Hunks[at.img].PatchLine(si.hunkLine(int(at.img), int(at.p))))
}

func (si *sideIndex) norm(at pos) string { return si.normAt(int(at.img), int(at.p)) }

// normRange is the normalised text of positions from to to (exclusive) of
// image img, clamped to the image.
func (si *sideIndex) normRange(img, from, to int) []string {
	from, to = max(0, from), min(si.size(img), to)
	out := make([]string, 0, max(0, to-from))
	for p := from; p < to; p++ {
		out = append(out, si.normAt(img, p))
	}
	return out
}

// number is the line number, in the index's side, of position p of image
// img.
func (si *sideData) number(img, p int) int {
	return si.line(si.at(img, p)).Number(si.side)
}

// nearest returns the first position whose line number is at least n.
func (si *sideData) nearest(n int) int {
	return sort.Search(len(si.flat), func(i int) bool { return si.num(i) >= n })
}

// mapLine carries line n of side from of f to the other side: lines
// outside the hunks and context lines map exactly; an added or removed
// line maps next to where it would be, inexactly.
func (si *sideData) mapLine(n int) (int, bool) {
	f, from := si.f, si.side
	offset := 0
	for i := range f.Hunks {
		hk := &f.Hunks[i]
		fromStart, toStart := hk.OldStart, hk.NewStart
		if from == Right {
			fromStart, toStart = toStart, fromStart
		}
		if n < fromStart {
			return n + toStart - fromStart, true
		}
		first, last := f.span(from, i)
		if j, ok := hk.find(from, n, first, last); ok {
			if l := hk.Lines[j]; l.In(from.other()) {
				return l.Number(from.other()), true
			}
			prevTo := toStart - 1
			for j--; j >= 0; j-- {
				if m := hk.Lines[j].Number(from.other()); m > 0 {
					prevTo = m
					break
				}
			}
			return prevTo + 1, false
		}
		fromCount, toCount := int(si.imgs[i].n), int(si.imgs[i].other)
		if n < fromStart+fromCount {
			return n + toStart - fromStart, false // a truncated hunk
		}
		offset = (toStart + toCount) - (fromStart + fromCount)
	}
	return n + offset, true
}
