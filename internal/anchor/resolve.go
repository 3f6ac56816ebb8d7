package anchor

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Reasons of orphaned-anchor, its data.reason (diagnostics.md). They are
// public vocabulary: never rename them.
const (
	ReasonUnknownPath       = "unknown-path"
	ReasonLineNotInImage    = "line-not-in-image"
	ReasonRangeCrossesHunks = "range-crosses-hunks"
	ReasonInvertedRange     = "inverted-range"
	ReasonNoSuchImage       = "no-such-image"
)

// Options tunes Resolve.
type Options struct {
	// SkipAnchor lists comments whose anchor members failed the schema:
	// they get the schema diagnostics only.
	SkipAnchor map[*exchange.Comment]bool
	// Prev is the analysis of an earlier version of the same document. A
	// comment spelt exactly as it was there, at the same index, against
	// the same patch (its index shared, the patch possibly moved by an
	// edit before it), keeps its resolution and diagnostics, moved to
	// their new place: after a keystroke only the edited comment is
	// anchored again.
	Prev *Anchoring
}

// Resolution is where one comment's anchor lands in the patch.
type Resolution struct {
	Comment *exchange.Comment
	// Skipped is set when the anchor members are invalid (Options.SkipAnchor,
	// or a path, side or start_line that cannot be read): such a comment
	// is neither resolved nor diagnosed here.
	Skipped  bool
	Resolved bool
	Side     Side
	// File is the file diff the path names; nil when the path is unknown.
	File *FileDiff
	Hunk int
	// First and Last are line indexes in File.Hunks[Hunk].Lines, inclusive.
	First, Last int
	// Reason is the orphaned-anchor reason when !Resolved, and Member the
	// anchor member at fault ("path", "side", "start_line" or "end_line").
	Reason, Member string
	// Renamed is set when Path matched the other name of a renamed file;
	// Hint then says so and points at the file's header, for hovers, as
	// related information on the comment's anchoring diagnostics and on
	// its renamed-path hint.
	Renamed bool
	// Written is set when Path is a name a plain diff's header writes for
	// the file (FileDiff.Written), not its path; Hint then says so, for
	// the header-path hint.
	Written bool
	Hint    *exchange.Related
	// Candidates are the drift candidates, nearest first (at most five).
	// They are searched only for comments that get a diagnostic needing
	// them: an orphaned anchor, a mismatching snippet, a stale state.
	Candidates []Candidate
	// NearPaths are the known paths nearest to an unknown path (at most
	// three, equally near), for the "nearest known path" fix. Normalised
	// is set when they are the paths it names once normalised (a/ or b/
	// prefix, leading ./, backslashes): one of them is a fix needing no
	// choice.
	NearPaths  []string
	Normalised bool
	// Tie describes the places that rank equal with the best one ("2
	// equally good places: RIGHT 21, RIGHT 24"); none of them is
	// Preferred.
	Tie string
	// SearchCut is set when the candidate search hit its work limit
	// before it found a place (search.go).
	SearchCut bool
	// Here is set when the best place is where the comment already is:
	// its snippet differs from its lines in white space only. Respaced is
	// then the snippet those lines make.
	Here     bool
	Respaced string
}

// Lines returns the anchored diff lines: those of the range that belong to
// the side's image (a RIGHT range skips the removed lines between its ends).
func (r *Resolution) Lines() []ImageLine {
	if r == nil || !r.Resolved || r.File == nil || r.Last < r.First {
		return nil
	}
	return imageLines(&r.File.Hunks[r.Hunk], r.First, r.Last, r.Side)
}

// Candidate is a place where a drifted comment's snippet really is.
type Candidate struct {
	Path       string
	Side       Side
	Start, End int
	// Distance is |Start - start_line| (line numbers of different images
	// are compared as they are, as a person would).
	Distance int
	// Preferred marks the unique best candidate (search_rank.go).
	Preferred bool
	// respaced is set for a white-space-insensitive match: the snippet
	// the matched lines make, which the move writes too.
	respaced string
}

// Anchoring is where every comment of one document lands: its resolutions
// and the anchoring diagnostics. (The Analysis of a document version
// holds it.)
type Anchoring struct {
	Index *Index
	// Resolutions is parallel to doc.Review.Comments.
	Resolutions []*Resolution
	// Diagnostics are the anchoring diagnostics (the index's own Problems
	// are not repeated here), sorted by position.
	Diagnostics []exchange.Diagnostic

	// doc, byComment and newline (doc's line terminator) let a later
	// Resolve reuse this one (Options.Prev).
	doc       *exchange.Document
	byComment [][]exchange.Diagnostic
	newline   string

	onceOn sync.Once
	on     map[int][]int
}

// CommentsOn returns the indexes (in doc.Review.Comments) of the comments
// anchored on patch line p, an index among exchange.Patch's lines: references
// and hovers on a patch element. Dismissed comments count: they still
// point somewhere.
func (a *Anchoring) CommentsOn(patchLine int) []int {
	a.onceOn.Do(func() {
		a.on = map[int][]int{}
		for i, r := range a.Resolutions {
			for _, l := range r.Lines() {
				a.on[l.Patch] = append(a.on[l.Patch], i)
			}
		}
	})
	return a.on[patchLine]
}

// Resolve resolves every comment of doc against ix (the index of
// doc.Review.Patch) and reports the anchoring diagnostics with their fixes.
func Resolve(doc *exchange.Document, ix *Index, opts Options) *Anchoring {
	a, _ := resolveContext(context.Background(), doc, ix, opts)
	return a
}

// checkEvery is how many comments are resolved between two looks at
// whether the analysis is still wanted.
const checkEvery = 32

// resolutionBlock is how many resolutions are allocated at once.
const resolutionBlock = 256

// resolveContext is Resolve that stops with ctx's error between batches of
// comments.
func resolveContext(ctx context.Context, doc *exchange.Document, ix *Index, opts Options) (*Anchoring, error) {
	rv := newResolver(doc, ix, opts)
	comments := doc.Review.Comments
	a := &Anchoring{Index: ix, Resolutions: make([]*Resolution, len(comments)), doc: doc, byComment: make([][]exchange.Diagnostic, len(comments))}
	a.newline = exchange.Newline(doc.Text)
	u := reusable(opts.Prev, a)
	var rs []Resolution // taken in blocks at the open; after an edit, which makes few, one at a time
	next := func() *Resolution {
		if u != nil {
			return new(Resolution)
		}
		if len(rs) == 0 {
			rs = make([]Resolution, min(len(comments), resolutionBlock))
		}
		r := &rs[0]
		rs = rs[1:]
		return r
	}
	for i, c := range comments {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		reused := false
		if u != nil && i < len(u.prev.Resolutions) && u.prev.sameComment(i, doc, c) {
			a.Resolutions[i], a.byComment[i], reused = u.moveComment(i, c, next)
		}
		if !reused {
			r := rv.resolveIn(next(), c)
			a.Resolutions[i] = r
			a.byComment[i] = rv.diagnose(r)
		}
		a.Diagnostics = append(a.Diagnostics, a.byComment[i]...)
	}
	exchange.SortDiagnostics(a.Diagnostics)
	return a, nil
}

// reuse is what an earlier analysis lends a new one: its resolutions and
// diagnostics, with where its patch was (patch) and how far the patch
// has moved since (delta), spelt alike.
type reuse struct {
	prev  *Anchoring
	patch exchange.Range
	delta int
}

// reusable returns what prev lends a, the analysis of a later version,
// or nil when its resolutions may not hold there.
//
// They hold when a's index is prev's, shared (the same file diffs, or the
// same texts they read, which only Index.moved shares): reuseIndex shares
// an index only with a patch spelt exactly alike in the same form, one
// the parse carried over untouched or one compared byte for byte, and
// every version an index is shared with is spelt as the one it was built
// for. The same patch bytes give the same lines, files, hunks, line
// texts and escapes; what may differ is where the patch is. Its node
// moved by delta bytes, and so did every patch line in it (their offsets
// are the node's plus their place in the same bytes): a range into the
// patch moves by delta (moveComment).
//
// Besides its own text and the patch, a comment's diagnostics read one
// thing of the document: the line terminator its fixes insert members
// with (exchange.InsertMember reads the document's first line), which an
// edit before the patch may change. Then nothing is reused.
func reusable(prev *Anchoring, a *Anchoring) *reuse {
	if prev == nil || prev.doc == nil || prev.Index == nil || prev.newline != a.newline || !sharesIndex(prev.Index, a.Index) {
		return nil
	}
	old, cur := prev.doc.Review.Patch.Node, a.doc.Review.Patch.Node
	if old == nil || cur == nil || old.End-old.Start != cur.End-cur.Start {
		return nil
	}
	return &reuse{prev: prev, patch: exchange.NodeRange(old), delta: cur.Start - old.Start}
}

// sharesIndex reports whether ix is old or was moved from it (or both
// from one index): the same file diffs, or for a patch without any, the
// same texts. An index built again never shares them, even for the same
// patch.
func sharesIndex(old, ix *Index) bool {
	if len(old.Files) != len(ix.Files) {
		return false
	}
	if len(ix.Files) > 0 {
		return old.Files[0] == ix.Files[0]
	}
	return ix.texts != nil && old.texts == ix.texts
}

// sameComment reports whether comment i is spelt in doc exactly as it was.
// Its text decides everything about it but its index (in messages about a
// comment without an id), and the index is the same.
func (a *Anchoring) sameComment(i int, doc *exchange.Document, c *exchange.Comment) bool {
	if a.Resolutions[i].Comment == c {
		return true // shared by the parse: the same node, at the same place
	}
	old := a.Resolutions[i].Comment.Node
	return old.End-old.Start == c.Node.End-c.Node.Start && doc.Text.Equal(c.Node.Start, c.Node.End, a.doc.Text, old.Start)
}

// moveComment returns comment i's resolution and diagnostics for the same
// text at c's place: prev's own when c is prev's comment (the parse
// shared it) and the patch did not move, else copied into a resolution
// of alloc's. The ranges they hold (the
// diagnostics', their related informations', their fixes' edits, the
// resolution's Hint; Candidates are line numbers) point into the comment
// (its members, the members fixes insert) or into the patch (file
// headers, hunk headers, lines): the former move with the comment, the
// latter with the patch. ok is false, and the comment must be resolved
// again, when one points elsewhere: it is not known where that went.
func (u *reuse) moveComment(i int, c *exchange.Comment, alloc func() *Resolution) (_ *Resolution, _ []exchange.Diagnostic, ok bool) {
	prev := u.prev.Resolutions[i]
	if prev.Comment == c && u.delta == 0 {
		return prev, u.prev.byComment[i], true // the same comment, nothing moved: shared
	}
	from := prev.Comment.Node
	r := alloc()
	*r = *prev
	r.Comment = c
	delta := c.Node.Start - from.Start
	ds := u.prev.byComment[i]
	if delta == 0 && u.delta == 0 || len(ds) == 0 && r.Hint == nil {
		return r, ds, true // nothing moves: share them (never written after analysis)
	}
	ok = true
	move := func(rg exchange.Range) exchange.Range {
		switch {
		case rg.Start >= from.Start && rg.End <= from.End:
			return exchange.Range{Start: rg.Start + delta, End: rg.End + delta}
		case rg.Start >= u.patch.Start && rg.End <= u.patch.End:
			return exchange.Range{Start: rg.Start + u.delta, End: rg.End + u.delta}
		}
		ok = false
		return rg
	}
	if r.Hint != nil {
		r.Hint = &exchange.Related{Range: move(r.Hint.Range), Message: r.Hint.Message}
	}
	if len(ds) > 0 {
		moved := make([]exchange.Diagnostic, len(ds))
		for k, d := range ds {
			moved[k] = d.Moved(move)
		}
		ds = moved
	}
	return r, ds, ok
}

// resolver holds what one Resolve call builds lazily and shares between
// comments: the content index of the patch and the nearest-path cache.
type resolver struct {
	doc  *exchange.Document
	src  exchange.Text
	ix   *Index
	opts Options

	search *searchIndex // nil until a drift search needs it
	budget *budget      // the analysis's search work (search.go)
	near   map[string][]string
}

func newResolver(doc *exchange.Document, ix *Index, opts Options) *resolver {
	return &resolver{doc: doc, src: doc.Text, ix: ix, opts: opts, budget: newBudget(ix.Patch)}
}

// anchorReadable reports whether the anchor members have types this
// package can read. The schema check reports anything else; resolving a
// half-typed anchor would only add a second, confusing diagnostic.
func anchorReadable(src exchange.Text, c *exchange.Comment) bool {
	if n := c.Member("path"); n == nil || n.Kind != exchange.KindString {
		return false
	}
	if n := c.Member("side"); n == nil || n.Kind != exchange.KindString {
		return false
	} else if _, ok := ParseSide(n.Str); !ok {
		return false
	}
	if _, ok := c.Member("start_line").Int(src); !ok {
		return false
	}
	if n := c.Member("end_line"); n != nil {
		if _, ok := n.Int(src); !ok {
			return false
		}
	}
	return true
}

// HasImage reports whether f shows an image of side: a new file has no
// old image, a deleted file no new one.
func HasImage(f *FileDiff, s Side) bool {
	if s == Left {
		return f.Status != NewFile
	}
	return f.Status != DeletedFile
}

func (s Side) other() Side { return 1 - s }

// resolveIn resolves c into r, which it returns.
func (rv *resolver) resolveIn(r *Resolution, c *exchange.Comment) *Resolution {
	*r = Resolution{Comment: c}
	if rv.opts.SkipAnchor[c] || !anchorReadable(rv.src, c) {
		r.Skipped = true
		return r
	}
	r.Side, _ = ParseSide(c.Side)
	f, renamed := rv.ix.FileFor(c.Path, r.Side)
	if f == nil {
		if g, _ := rv.ix.FileFor(c.Path, r.Side.other()); g != nil {
			r.File, r.Reason, r.Member = g, ReasonNoSuchImage, "side"
			return r
		}
		r.Reason, r.Member = ReasonUnknownPath, "path"
		return r
	}
	r.File = f
	switch {
	case renamed && f.isWritten(c.Path):
		r.Written = true
		r.Hint = &exchange.Related{
			Range:   rv.patchRange(f.First, f.First),
			Message: fmt.Sprintf("this diff's header writes %q for %q", c.Path, cmp.Or(f.Name(r.Side), f.DisplayName())),
		}
	case renamed:
		r.Renamed = true
		r.Hint = &exchange.Related{
			Range:   rv.patchRange(f.First, f.First),
			Message: fmt.Sprintf("%q is the %s name of this renamed file; on %s it is called %q", c.Path, ImageWord(r.Side.other()), r.Side, f.Name(r.Side)),
		}
	}
	if !HasImage(f, r.Side) {
		r.Reason, r.Member = ReasonNoSuchImage, "side"
		return r
	}
	if c.EndLine < c.StartLine {
		r.Reason, r.Member = ReasonInvertedRange, "end_line"
		return r
	}
	h, i, ok := f.Find(r.Side, c.StartLine)
	if !ok {
		r.Reason, r.Member = ReasonLineNotInImage, "start_line"
		return r
	}
	h2, i2, ok := f.Find(r.Side, c.EndLine)
	if !ok {
		r.Reason, r.Member = ReasonLineNotInImage, "end_line"
		return r
	}
	if h2 != h {
		r.Reason, r.Member = ReasonRangeCrossesHunks, "end_line"
		return r
	}
	r.Resolved, r.Hunk, r.First, r.Last = true, h, i, i2
	return r
}

// ImageWord names side s's image in words: "old" or "new".
func ImageWord(s Side) string {
	if s == Left {
		return "old"
	}
	return "new"
}

// patchRange is the source range from patch line first's text to patch
// line last's, or the patch value when the lines are out of range.
func (rv *resolver) patchRange(first, last int) exchange.Range {
	// The document's patch, not ix.Patch: an index reused from an earlier
	// version of the document has the same lines at other offsets.
	p := &rv.doc.Review.Patch
	if first < 0 || last >= p.LineCount() || first > last {
		if n := p.Node; n != nil {
			return exchange.NodeRange(n)
		}
		return exchange.Range{}
	}
	return exchange.Range{Start: p.LineStart(first), End: p.LineEnd(last)}
}

// LineSpan formats a side and a range: "RIGHT 72" or "RIGHT 72–74".
func LineSpan(s Side, start, end int) string {
	var buf [40]byte // one allocation: the string
	b := strconv.AppendInt(append(append(buf[:0], s.String()...), ' '), int64(start), 10)
	if end != start {
		b = strconv.AppendInt(append(b, "–"...), int64(end), 10)
	}
	return string(b)
}
