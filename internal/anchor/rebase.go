package anchor

import (
	"cmp"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Content re-anchoring: moving comments by what they point at rather than
// by their numbers, when the patch is replaced by a newer revision
// (Rebase) or when a comment is `stale` (Reanchor).
//
// A comment is looked for with two pieces of evidence:
//   - its needle: the snippet, normalised as snippet.go does; a comment
//     without a snippet uses the text of the lines it was anchored to;
//   - its context: up to rbContextLines lines of the same image above and
//     below its old place, when that place is trusted (the anchor resolved
//     in the old patch and the snippet agreed with it).
//
// Every window of the same width in the file's image is a candidate place.
// Its score is the needle's match (exact, a part of the lines, or a
// similar line that only context can confirm) plus one per context line
// found around it, minus a small penalty for its distance from the old line
// number mapped through the hunk offsets of both patches. A place is taken
// only when its content score beats every other place's: distance never
// decides alone, because moving a comment to the nearer of two equally good
// places is a guess. The one exception is the place the old line maps to
// exactly (through unchanged lines): staying put there is not a guess. With
// no clear winner a comment is marked orphaned with the reason — it is
// never dropped, and its numbers are left as they were.
//
// Dismissed comments keep `dismissed` whatever happens (the person's
// verdict beats the anchoring), but they move with a clear winner, so that
// the verdict stays on the lines it was about.

// Move is what rebasing did to one comment.
type Move struct {
	Comment            *exchange.Comment
	FromSide           Side
	FromStart, FromEnd int
	ToSide             Side
	ToStart, ToEnd     int
	// Orphaned is set when no clear place was found: the comment is marked
	// orphaned (a dismissed one stays dismissed) and keeps its numbers.
	Orphaned bool
	// Unchanged is set when nothing had to change: same place, same state.
	Unchanged bool
	// State is the comment's state afterwards (defaults applied).
	State string
	// Why is a short human reason, e.g. "snippet found 2 lines lower" or
	// "2 equally good places: RIGHT 12, RIGHT 40".
	Why string
}

// SplitDiffFile splits the bytes of a .diff file into patch lines: at
// "\n", without the empty element after a final line feed. A CRLF file
// (every terminated line ends with "\r") loses its carriage returns; in
// any other file a "\r" is part of its line's text. A leading UTF-8 byte
// order mark is dropped.
func SplitDiffFile(data []byte) []string {
	text := strings.TrimPrefix(string(data), "\ufeff")
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	terminated := len(lines) - 1 // lines[:terminated] were followed by "\n"
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	crlf := terminated > 0
	for _, l := range lines[:terminated] {
		if !strings.HasSuffix(l, "\r") {
			crlf = false
			break
		}
	}
	if crlf {
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
	}
	return lines
}

// Rebase returns the edits that replace doc's patch with newPatch (array
// form, one element per line, in the document's existing indentation
// style) and move every comment by content into the new patch. The edits
// touch only the patch value and each comment's start_line, end_line,
// side and state values (and its path, when it follows a renamed file),
// so formatting and unknown members survive.
//
// It refuses a document with syntax errors (an edit could land in a value
// the reader guessed at) and a new patch without any file diff (almost
// certainly the wrong file: every comment would be orphaned).
func Rebase(doc *exchange.Document, newPatch []string) (edits []exchange.Edit, moves []Move, err error) {
	return rebase(doc, newPatch, false)
}

// rebase is Rebase; scan makes it score every window (rebaser.scan).
func rebase(doc *exchange.Document, newPatch []string, scan bool) (edits []exchange.Edit, moves []Move, err error) {
	if doc == nil || doc.Review.Node == nil {
		return nil, nil, errors.New("not a review exchange document: the root is not an object")
	}
	if len(doc.Syntax) > 0 {
		return nil, nil, fmt.Errorf("the document has %d syntax error(s); fix them before rebasing", len(doc.Syntax))
	}
	src, root, patch := doc.Src, doc.Review.Node, doc.Review.Patch.Node
	lines := rbCleanLines(newPatch)
	value := rbRenderPatch(src, root, patch, lines)

	// The new patch is indexed from the very text that will be written, so
	// that what comments are matched against is what the file will hold.
	newDoc := exchange.Parse([]byte(`{"patch": ` + value + `}`))
	newIx := BuildIndex(&newDoc.Review.Patch)
	if len(newIx.Files) == 0 {
		return nil, nil, errors.New("the new patch holds no file diff")
	}
	switch {
	case patch == nil:
		edits = append(edits, exchange.InsertMember(src, root, "patch", value, keyAfter(root, exchange.ReviewKeys, "patch")))
	case string(src[patch.Start:patch.End]) != value:
		edits = append(edits, exchange.ReplaceValue(patch, value))
	}

	rb := newRebaser(src, BuildIndex(&doc.Review.Patch), newIx, false)
	rb.scan = scan
	for _, c := range doc.Review.Comments {
		m, es := rb.move(c)
		moves = append(moves, m)
		edits = append(edits, es...)
	}
	return edits, moves, nil
}

// Reanchor re-anchors the comments of doc for which which returns true
// (the `stale` ones when which is nil) against doc's own patch, by
// content. Its edits set only start_line, end_line, side and state values.
func Reanchor(doc *exchange.Document, which func(*exchange.Comment) bool) (edits []exchange.Edit, moves []Move) {
	if doc == nil || doc.Review.Node == nil {
		return nil, nil
	}
	if which == nil {
		which = func(c *exchange.Comment) bool { return c.StateNorm() == exchange.StateStale }
	}
	ix := BuildIndex(&doc.Review.Patch)
	rb := newRebaser(doc.Src, ix, ix, true)
	for _, c := range doc.Review.Comments {
		if !which(c) {
			continue
		}
		m, es := rb.move(c)
		moves = append(moves, m)
		edits = append(edits, es...)
	}
	return edits, moves
}

// Scores. The needle tiers are far apart so that a better match of the
// comment's own text beats a few context lines; each context line found
// is worth 1; the distance penalty stays below rbMargin, so it orders
// places but never makes a winner on its own.
const (
	rbTierExact     = 6 // the needle equals the lines
	rbTierContained = 4 // the needle is a part of the lines
	rbTierSimilar   = 2 // the lines changed slightly (counted only with enough context)
	rbContextLines  = 3 // context lines taken above and below
	rbSimilarity    = 0.6
	rbMargin        = 1.0
	rbMaxPenalty    = 0.5
	rbPenaltyScale  = 20.0 // distance at which the penalty is half its maximum
)

type rebaser struct {
	src   []byte
	old   *Index
	new   *Index
	same  bool // Reanchor: old and new are the same patch
	files map[*FileDiff]*[2]*rbFile
	// scan makes candidates score every window of a file, as the indexes
	// in rbFile are meant to spare; tests compare the two.
	scan bool
}

func newRebaser(src []byte, old, new *Index, same bool) *rebaser {
	return &rebaser{src: src, old: old, new: new, same: same, files: map[*FileDiff]*[2]*rbFile{}}
}

// rbFile is what the rebaser knows about one side of one file diff, built
// once and shared by every comment: a patch of 100,000 lines in one file
// with 2,000 comments must not cost a pass over the file per comment.
type rbFile struct {
	imgs []rbImage
	// at maps each normalised line to its positions, in image order.
	at map[string][]rbPos
	// grams maps each trigram of the normalised lines to the positions of
	// the lines holding it (once per line), for needles that are a part of
	// a line; built on first use.
	grams map[uint32][]rbPos
	// hunks are the hunk sums rbMap needs to carry a line of this side to
	// the other one.
	hunks []rbHunkSum
}

// rbPos is position p of image img (an index in rbFile.imgs).
type rbPos struct{ img, p int32 }

// rbHunkSum is one hunk seen from one side (from) towards the other (to).
type rbHunkSum struct {
	fromStart, toStart  int // header starts
	fromCount, toCount  int // body lines of each image
	fromFirst, fromLast int // the hunk's span in the from image
}

// rbImage is the image of one side in one hunk: the hunk's lines that
// belong to it, in order, with their normalised text.
type rbImage struct {
	hunk  int
	lines []int // indexes in Hunk.Lines
	norm  []string
}

func (rb *rebaser) imagesOf(f *FileDiff, s Side) []rbImage { return rb.fileOf(f, s).imgs }

// fileOf returns side s of f, building it on first use.
func (rb *rebaser) fileOf(f *FileDiff, s Side) *rbFile {
	both := rb.files[f]
	if both == nil {
		both = &[2]*rbFile{}
		rb.files[f] = both
	}
	if both[s] != nil {
		return both[s]
	}
	rf := &rbFile{imgs: make([]rbImage, len(f.Hunks)), at: map[string][]rbPos{}, hunks: make([]rbHunkSum, len(f.Hunks))}
	to := s.other()
	for h := range f.Hunks {
		hk := &f.Hunks[h]
		img := rbImage{hunk: h}
		sum := rbHunkSum{fromStart: hk.OldStart, toStart: hk.NewStart}
		if s == Right {
			sum.fromStart, sum.toStart = hk.NewStart, hk.OldStart
		}
		sum.fromFirst, sum.fromLast = hk.span(s)
		for i, l := range hk.Lines {
			if l.In(s) {
				sum.fromCount++
			}
			if l.In(to) {
				sum.toCount++
			}
			if l.Kind != NoNewline && l.In(s) {
				n := normLine(l.Content)
				rf.at[n] = append(rf.at[n], rbPos{int32(h), int32(len(img.lines))})
				img.lines = append(img.lines, i)
				img.norm = append(img.norm, n)
			}
		}
		rf.imgs[h] = img
		rf.hunks[h] = sum
	}
	both[s] = rf
	return rf
}

// gramsOf returns rf's trigram index, building it on first use.
func (rf *rbFile) gramsOf() map[uint32][]rbPos {
	if rf.grams != nil {
		return rf.grams
	}
	rf.grams = map[uint32][]rbPos{}
	for i := range rf.imgs {
		for p, l := range rf.imgs[i].norm {
			at := rbPos{int32(i), int32(p)}
			for k := 0; k+3 <= len(l); k++ {
				g := rbGram(l[k:])
				if ps := rf.grams[g]; len(ps) == 0 || ps[len(ps)-1] != at {
					rf.grams[g] = append(ps, at)
				}
			}
		}
	}
	return rf.grams
}

func rbGram(s string) uint32 { return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]) }

// holding returns the positions of the lines that may hold needle line s
// (every line that does is among them), in image order, and false when
// the index cannot narrow the search (s is shorter than a trigram).
func (rf *rbFile) holding(s string) ([]rbPos, bool) {
	if len(s) < 3 {
		return nil, false
	}
	grams := rf.gramsOf()
	var best []rbPos
	for k := 0; k+3 <= len(s); k++ {
		ps := grams[rbGram(s[k:])]
		if len(ps) == 0 {
			return nil, true // no line holds this trigram of s
		}
		if best == nil || len(ps) < len(best) {
			best = ps
		}
	}
	return best, true
}

// number is the line number, in side s, of position p of the image.
func (img *rbImage) number(f *FileDiff, s Side, p int) int {
	return f.Hunks[img.hunk].Lines[img.lines[p]].Number(s)
}

// rbNeedle is what a comment is looked for with.
type rbNeedle struct {
	side        Side // the comment's side
	lines       []string
	fromSnippet bool
	weak        bool
	off         int // where the needle sits in the comment's range
	matchW      int // lines a candidate window spans (range ∪ needle)
	rangeW      int // lines of the comment's range
	// trusted: the old place was found and agrees with the needle; then
	// before/after are its context and the old number maps exactly.
	trusted       bool
	before, after []string
}

// rbCand is one candidate place.
type rbCand struct {
	side       Side
	start, end int
	tier, ctx  int
	dist       int
	exactPos   bool
}

func (c *rbCand) content() int { return c.tier + c.ctx }

func (c *rbCand) score() float64 {
	d := float64(c.dist)
	return float64(c.content()) - rbMaxPenalty*d/(d+rbPenaltyScale)
}

// move decides where c goes and returns the edits that put it there.
func (rb *rebaser) move(c *exchange.Comment) (Move, []exchange.Edit) {
	side, sideOK := ParseSide(c.Side)
	m := Move{Comment: c, FromSide: side, FromStart: c.StartLine, FromEnd: c.EndLine,
		ToSide: side, ToStart: c.StartLine, ToEnd: c.EndLine}
	rangeW := c.EndLine - c.StartLine + 1
	if rangeW < 1 {
		rangeW = 1
	}

	// The old place, in the old patch.
	oldF, _ := rb.fileFor(rb.old, c.Path, side)
	var oldImg *rbImage
	oldPos := -1
	if oldF != nil && sideOK && c.EndLine >= c.StartLine {
		h, i, ok := oldF.Find(side, c.StartLine)
		h2, i2, ok2 := oldF.Find(side, c.EndLine)
		if ok && ok2 && h == h2 {
			img := &rb.imagesOf(oldF, side)[h]
			p, p2 := rbIndexOf(img.lines, i), rbIndexOf(img.lines, i2)
			if p >= 0 && p2 >= p {
				oldImg, oldPos, rangeW = img, p, p2-p+1
			}
		}
	}

	nd, why := rb.needle(c, side, oldImg, oldPos, rangeW)
	var found *rbCand
	var note string
	var renamed bool
	var newF *FileDiff
	if why == "" {
		newF, renamed = rb.fileFor(rb.new, c.Path, side)
		if newF == nil && oldF != nil {
			// Follow the old file by its other names.
			for _, name := range []string{oldF.NewName, oldF.OldName} {
				if name != "" && newF == nil {
					newF, renamed = rb.fileFor(rb.new, name, side)
				}
			}
		}
		if newF == nil {
			why = fmt.Sprintf("%s is not in %s", strconv.Quote(c.Path), rb.patchWord())
		}
	}
	if why == "" {
		cands := rb.candidates(newF, side, c, oldF, nd, true)
		found, note, why = rb.pick(cands, nd, newF)
		if found == nil && !rbHasTier(cands, rbTierContained) && hasImage(newF, side.other()) {
			// The needle is not on the same side: the line may have become
			// a removed one (or the reverse). Look on the other image, for
			// the needle itself: a line that only resembles it there is
			// rather the other version of the commented code.
			if cands2 := rb.candidates(newF, side.other(), c, oldF, nd, false); len(cands2) > 0 {
				f2, note2, why2 := rb.pick(cands2, nd, newF)
				switch {
				case f2 != nil:
					found, note, why = f2, note2, ""
				case len(cands) == 0:
					why = why2 + " (on the " + side.other().String() + " side)"
				}
			}
		}
	}

	state := c.StateNorm()
	newState := state
	if found != nil {
		if state != exchange.StateDismissed {
			newState = exchange.StateActive
		}
		m.ToSide, m.ToStart, m.ToEnd = found.side, found.start, found.end
		m.Why = rb.foundWhy(c, side, found, nd, renamed, newF) + note
	} else {
		m.Orphaned = true
		if state != exchange.StateDismissed {
			newState = exchange.StateOrphaned
		}
		m.Why = why
	}
	if state == exchange.StateDismissed {
		m.Why += "; kept dismissed"
	}
	m.State = newState

	var edits []exchange.Edit
	obj := c.Node
	if found != nil {
		// A file renamed in the new patch is called by its new name on
		// RIGHT (its old one on LEFT): the comment follows it there rather
		// than resolving through the other name with a hint.
		if name := newF.name(found.side); name != "" && name != c.Path {
			if n := c.Member("path"); n != nil {
				edits = append(edits, exchange.ReplaceValue(n, exchange.Quote(name)))
			}
		}
		if !sideOK || found.side != side {
			edits = append(edits, exchange.SetMember(rb.src, obj, "side", strconv.Quote(found.side.String()), keyAfter(obj, exchange.CommentKeys, "side")))
		}
		if v, ok := c.Member("start_line").Int(rb.src); !ok || v != found.start {
			edits = append(edits, exchange.SetMember(rb.src, obj, "start_line", strconv.Itoa(found.start), keyAfter(obj, exchange.CommentKeys, "start_line")))
		}
		if n := c.Member("end_line"); n != nil {
			if v, ok := n.Int(rb.src); !ok || v != found.end {
				edits = append(edits, exchange.ReplaceValue(n, strconv.Itoa(found.end)))
			}
		} else if found.end != found.start {
			edits = append(edits, exchange.InsertMember(rb.src, obj, "end_line", strconv.Itoa(found.end), keyAfter(obj, exchange.CommentKeys, "end_line")))
		}
	}
	if newState != state {
		edits = append(edits, exchange.SetMember(rb.src, obj, "state", strconv.Quote(newState), keyAfter(obj, exchange.CommentKeys, "state")))
	}
	m.Unchanged = len(edits) == 0
	return m, edits
}

// patchWord names the patch comments move into in reasons.
func (rb *rebaser) patchWord() string {
	if rb.same {
		return "the patch"
	}
	return "the new patch"
}

// fileFor looks a path up; a nil index or a path it does not hold gives nil.
func (rb *rebaser) fileFor(ix *Index, path string, s Side) (*FileDiff, bool) {
	if ix == nil || path == "" {
		return nil, false
	}
	return ix.FileFor(path, s)
}

// needle builds what c is looked for with, or says why it cannot be looked
// for.
func (rb *rebaser) needle(c *exchange.Comment, side Side, oldImg *rbImage, oldPos, rangeW int) (rbNeedle, string) {
	nd := rbNeedle{side: side, rangeW: rangeW}
	variants := snippetVariants(c.Snippet, side)
	nd.fromSnippet = len(variants) > 0
	if !nd.fromSnippet {
		if oldImg == nil {
			where := "the old patch"
			if rb.same {
				where = "the patch"
			}
			return nd, fmt.Sprintf("no snippet, and %s is not in %s", lineSpan(side, c.StartLine, c.EndLine), where)
		}
		variants = [][]string{oldImg.norm[oldPos : oldPos+rangeW]}
	}
	nd.lines = variants[0]
	if oldImg == nil {
		// An anchor that does not resolve says nothing reliable about the
		// range's width: the snippet is "the anchored diff line(s)".
		nd.rangeW = len(nd.lines)
	}
	nd.matchW = max(nd.rangeW, len(nd.lines))
	if oldImg != nil {
	variant:
		for _, v := range variants {
			w := max(rangeW, len(v))
			if oldPos+w > len(oldImg.norm) {
				continue
			}
			for off := 0; off+len(v) <= w; off++ {
				if rbTier(v, oldImg.norm[oldPos+off:oldPos+off+len(v)], weakSnippet(v)) >= rbTierContained {
					nd.lines, nd.off, nd.matchW, nd.trusted = v, off, w, true
					break variant
				}
			}
		}
		if nd.trusted {
			nd.before = oldImg.norm[max(0, oldPos-rbContextLines):oldPos]
			nd.after = oldImg.norm[oldPos+nd.matchW : min(len(oldImg.norm), oldPos+nd.matchW+rbContextLines)]
		}
	}
	nd.weak = weakSnippet(nd.lines)
	return nd, ""
}

// expected returns the line number, in side t of newF, where c's old
// start line lands when carried through the hunk offsets, and whether that
// is exact (it went only through unchanged lines). Rebase assumes the two
// patches share their old image (a newer revision of the same change).
func (rb *rebaser) expected(c *exchange.Comment, side Side, oldF, newF *FileDiff, t Side, trusted bool) (int, bool) {
	n := c.StartLine
	if rb.same {
		if t == side {
			return n, trusted
		}
		m, ok := rb.rbMap(newF, side, n)
		return m, ok && trusted
	}
	base, exact := n, trusted
	if side == Right {
		if oldF == nil {
			exact = false
		} else {
			var ok bool
			base, ok = rb.rbMap(oldF, Right, n)
			exact = exact && ok
		}
	}
	if t == Left {
		return base, exact
	}
	m, ok := rb.rbMap(newF, Left, base)
	return m, exact && ok
}

// rbMap carries line n of side from of f to the other side: lines outside
// the hunks and context lines map exactly; an added or removed line maps
// next to where it would be, inexactly.
func (rb *rebaser) rbMap(f *FileDiff, from Side, n int) (int, bool) {
	offset := 0
	for i, h := range rb.fileOf(f, from).hunks {
		if n < h.fromStart {
			return n + h.toStart - h.fromStart, true
		}
		hk := &f.Hunks[i]
		if j, ok := hk.find(from, n, h.fromFirst, h.fromLast); ok {
			if l := hk.Lines[j]; l.In(from.other()) {
				return l.Number(from.other()), true
			}
			prevTo := h.toStart - 1
			for j--; j >= 0; j-- {
				if m := hk.Lines[j].Number(from.other()); m > 0 {
					prevTo = m
					break
				}
			}
			return prevTo + 1, false
		}
		if n < h.fromStart+h.fromCount {
			return n + h.toStart - h.fromStart, false // a truncated hunk
		}
		offset = (h.toStart + h.toCount) - (h.fromStart + h.fromCount)
	}
	return n + offset, true
}

// candidates scores the windows of side s of f where the needle is, and,
// when similar is set, those where a line only resembles it but enough of
// the context is around. Neither kind is found by scoring every window: the
// needle's windows come from the lines holding its first line (rbFile.at
// and its trigrams), the similar ones from the positions of the context
// lines. A large file would otherwise cost a pass per comment.
func (rb *rebaser) candidates(f *FileDiff, s Side, c *exchange.Comment, oldF *FileDiff, nd rbNeedle, similar bool) []rbCand {
	expect, exact := rb.expected(c, nd.side, oldF, f, s, nd.trusted)
	k, w := len(nd.lines), nd.matchW
	avail := len(nd.before) + len(nd.after)
	similar = similar && !nd.weak && avail > 0
	joined := strings.Join(nd.lines, "\n")
	rf := rb.fileOf(f, s)
	type found struct {
		rbCand
		img     int
		similar bool
	}
	var out []found
	ctxAt := func(img *rbImage, p int) int {
		if avail == 0 {
			return 0
		}
		n := len(img.norm)
		return rbCommon(nd.before, img.norm[max(0, p-rbContextLines):p]) +
			rbCommon(nd.after, img.norm[p+w:min(n, p+w+rbContextLines)])
	}
	add := func(i, p, tier, ctx int, sim bool) {
		img := &rf.imgs[i]
		cd := rbCand{side: s, start: img.number(f, s, p), end: img.number(f, s, p+nd.rangeW-1), tier: tier, ctx: ctx}
		cd.dist = cd.start - expect
		if cd.dist < 0 {
			cd.dist = -cd.dist
		}
		cd.exactPos = exact && cd.dist == 0
		out = append(out, found{cd, i, sim})
	}
	// try scores the window of image i at p, where line p+nd.off may hold
	// the needle's first line.
	try := func(i, p int) {
		img := &rf.imgs[i]
		if p < 0 || p+w > len(img.norm) {
			return
		}
		if tier := rbTier(nd.lines, img.norm[p+nd.off:p+nd.off+k], nd.weak); tier > 0 {
			add(i, p, tier, ctxAt(img, p), false)
		}
	}
	first := ""
	if k > 0 {
		first = nd.lines[0]
	}
	switch ps, ok := rf.holding(first); {
	case rb.scan || k == 0:
		for i := range rf.imgs {
			for p := 0; p+w <= len(rf.imgs[i].norm); p++ {
				try(i, p)
			}
		}
	case nd.weak || first == "":
		// Only an equal line can start the needle (rbTier).
		for _, q := range rf.at[first] {
			try(int(q.img), int(q.p)-nd.off)
		}
	case ok:
		for _, q := range ps {
			try(int(q.img), int(q.p)-nd.off)
		}
	default:
		for i := range rf.imgs {
			for p := 0; p+w <= len(rf.imgs[i].norm); p++ {
				if strings.Contains(rf.imgs[i].norm[p+nd.off], first) {
					try(i, p)
				}
			}
		}
	}
	if similar {
		// Windows within rbContextLines of a context line: after a line
		// of before, before a line of after. A window is marked at least
		// once per context line it would find, so one marked fewer than
		// need times cannot be confirmed by its context.
		need := rbContextNeeded(avail)
		marks := map[rbPos]int{}
		for _, l := range nd.before {
			for _, q := range rf.at[l] {
				n := len(rf.imgs[q.img].norm)
				for p := int(q.p) + 1; p <= int(q.p)+rbContextLines && p+w <= n; p++ {
					marks[rbPos{q.img, int32(p)}]++
				}
			}
		}
		for _, l := range nd.after {
			for _, q := range rf.at[l] {
				for p := max(0, int(q.p)-w-rbContextLines+1); p <= int(q.p)-w; p++ {
					marks[rbPos{q.img, int32(p)}]++
				}
			}
		}
		var ps []rbPos
		for q, n := range marks {
			if n >= need {
				ps = append(ps, q)
			}
		}
		sort.Slice(ps, func(i, j int) bool { return ps[i].img < ps[j].img || ps[i].img == ps[j].img && ps[i].p < ps[j].p })
		for _, q := range ps {
			img, p := &rf.imgs[q.img], int(q.p)
			got := img.norm[p+nd.off : p+nd.off+k]
			if rbTier(nd.lines, got, nd.weak) > 0 {
				continue // scored above
			}
			if ctx := ctxAt(img, p); ctx >= need && rbDice(joined, strings.Join(got, "\n")) >= rbSimilarity {
				add(int(q.img), p, rbTierSimilar, ctx, true)
			}
		}
	}
	// Image by image, the needle's windows before the similar ones, each
	// in order: the order pick breaks exact ties by.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].img != out[j].img {
			return out[i].img < out[j].img
		}
		return !out[i].similar && out[j].similar
	})
	cands := make([]rbCand, len(out))
	for i := range out {
		cands[i] = out[i].rbCand
	}
	return cands
}

// rbHasTier reports whether a candidate matches the needle at least as
// well as tier.
func rbHasTier(cands []rbCand, tier int) bool {
	for _, cd := range cands {
		if cd.tier >= tier {
			return true
		}
	}
	return false
}

// pick chooses the clear winner among cands, or explains why there is
// none ("not found…" when there was no candidate at all). note adds to
// the winner's reason when a tie was broken by the exact old place.
func (rb *rebaser) pick(cands []rbCand, nd rbNeedle, f *FileDiff) (found *rbCand, note, why string) {
	what := "snippet"
	if !nd.fromSnippet {
		what = "the text of its lines"
	}
	if len(cands) == 0 {
		return nil, "", fmt.Sprintf("not found: %s is not in %s", what, strconv.Quote(f.displayName()))
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if a, b := cands[i].score(), cands[j].score(); a != b {
			return a > b
		}
		return cands[i].start < cands[j].start
	})
	best := cands[0]
	var top []rbCand
	for _, cd := range cands {
		if float64(best.content())-float64(cd.content()) < rbMargin {
			top = append(top, cd)
		}
	}
	if len(top) > 1 {
		var exact []rbCand
		for _, cd := range top {
			if cd.exactPos {
				exact = append(exact, cd)
			}
		}
		if len(exact) != 1 {
			sort.SliceStable(top, func(i, j int) bool { return top[i].start < top[j].start })
			places := make([]string, 0, len(top))
			for i, cd := range top {
				if i == 4 {
					places = append(places, "…")
					break
				}
				places = append(places, lineSpan(cd.side, cd.start, cd.end))
			}
			return nil, "", fmt.Sprintf("%d equally good places: %s", len(top), strings.Join(places, ", "))
		}
		best = exact[0]
		note = fmt.Sprintf(" (%d places match equally; kept the one its old line maps to)", len(top))
	}
	need := rbContextNeeded(len(nd.before) + len(nd.after))
	switch {
	case best.tier >= rbTierContained && !nd.weak:
	case best.tier >= rbTierContained && best.exactPos:
	case best.ctx >= need:
	case best.tier == rbTierSimilar:
		return nil, "", "the line changed and its context does not confirm the place"
	default:
		return nil, "", fmt.Sprintf("%s is too weak to re-anchor by (no letter or digit) and its context does not confirm a place", what)
	}
	return &best, note, ""
}

func (rb *rebaser) foundWhy(c *exchange.Comment, side Side, cd *rbCand, nd rbNeedle, renamed bool, f *FileDiff) string {
	what := "snippet"
	if !nd.fromSnippet {
		what = "its lines"
	}
	if cd.tier == rbTierSimilar {
		what = "its context (the line changed)"
	}
	var where string
	switch d := cd.start - c.StartLine; {
	case cd.side != side:
		where = fmt.Sprintf("found on the %s side at line %d", cd.side, cd.start)
	case d == 0:
		where = "found at the same place"
	case d > 0:
		where = fmt.Sprintf("found %d %s lower", d, rbPlural(d, "line"))
	default:
		where = fmt.Sprintf("found %d %s higher", -d, rbPlural(-d, "line"))
	}
	s := what + " " + where
	if renamed {
		s += " in renamed file " + strconv.Quote(cmp.Or(f.name(cd.side), f.displayName()))
	}
	return s
}

// rbTier compares needle lines with as many candidate lines.
// A weak needle (no letter or digit) must match exactly: ")" is a part of
// most lines.
func rbTier(needle, got []string, weak bool) int {
	if len(needle) != len(got) || len(needle) == 0 {
		return 0
	}
	tier := rbTierExact
	for i := range needle {
		if needle[i] == got[i] {
			continue
		}
		if weak || needle[i] == "" || !strings.Contains(got[i], needle[i]) {
			return 0
		}
		tier = rbTierContained
	}
	return tier
}

// rbCommon counts the lines of want found in got (a multiset
// intersection: a context line may have shifted by one or two).
func rbCommon(want, got []string) int {
	if len(want) == 0 || len(got) == 0 {
		return 0
	}
	var usedBuf [2 * rbContextLines]bool
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

// rbContextNeeded is how many context lines must be found to confirm a
// place by context: half of those known, and at least two.
func rbContextNeeded(avail int) int {
	if avail == 0 {
		return 1 << 30 // no context: it can confirm nothing
	}
	return max(2, (avail+1)/2)
}

// rbDice is the Dice coefficient of the byte bigrams of a and b: 1 for
// equal strings, near 1 for a line with a small edit.
func rbDice(a, b string) float64 {
	if a == b {
		return 1
	}
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	grams := make(map[string]int, len(a))
	for i := 0; i+2 <= len(a); i++ {
		grams[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+2 <= len(b); i++ {
		if g := b[i : i+2]; grams[g] > 0 {
			grams[g]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}

func rbIndexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func rbPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// rbCleanLines makes newPatch one diff line per element: an element with
// line feeds is split, and a final empty element (the spec forbids it)
// is dropped.
func rbCleanLines(in []string) []string {
	out := make([]string, 0, len(in))
	for _, l := range in {
		if strings.Contains(l, "\n") {
			out = append(out, strings.Split(strings.TrimSuffix(l, "\n"), "\n")...)
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// rbRenderPatch writes lines as a JSON array laid out like the document:
// with the element and closing indentation of the existing patch array
// when it has one element per line, else one indentation step deeper than
// the patch key in a multi-line document, else on one line.
func rbRenderPatch(src []byte, root, patch *exchange.Node, lines []string) string {
	if len(lines) == 0 {
		return "[]"
	}
	nl := exchange.Newline(src)
	var elemIndent, closeIndent string
	multiline, closeOwnLine := false, true
	switch {
	case patch != nil && patch.Kind == exchange.KindArray && len(patch.Elems) > 0 &&
		strings.ContainsAny(string(src[patch.Start+1:patch.Elems[0].Start]), "\r\n"):
		multiline = true
		elemIndent = exchange.LineIndent(src, patch.Elems[0].Start)
		last := patch.Elems[len(patch.Elems)-1]
		closing := patch.End - 1
		if strings.ContainsAny(string(src[last.End:closing]), "\r\n") {
			closeIndent = exchange.LineIndent(src, closing)
		} else {
			closeOwnLine = false
		}
	case len(root.Members) > 0 && strings.ContainsAny(string(src[root.Start+1:root.Members[0].KeyStart]), "\r\n"):
		multiline = true
		keyStart := root.Members[0].KeyStart
		if patch != nil {
			keyStart = patch.KeyStart
		}
		closeIndent = exchange.LineIndent(src, keyStart)
		unit := exchange.LineIndent(src, root.Members[0].KeyStart)
		if unit == "" {
			unit = "  "
		}
		elemIndent = closeIndent + unit
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(',')
			if !multiline {
				b.WriteByte(' ')
			}
		}
		if multiline {
			b.WriteString(nl)
			b.WriteString(elemIndent)
		}
		b.WriteString(exchange.Quote(l))
	}
	if multiline && closeOwnLine {
		b.WriteString(nl)
		b.WriteString(closeIndent)
	}
	b.WriteByte(']')
	return b.String()
}
