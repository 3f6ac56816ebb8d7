package anchor

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// Content re-anchoring: moving comments by what they point at rather than
// by their numbers, when the patch is replaced by a newer revision
// (Rebase) or when a comment is `stale` (Reanchor).
//
// A comment is looked for with its needle: the snippet, normalised as
// snippet.go does, or, without a snippet, the text of the lines it was
// anchored to. The search and its ranking are the candidate search of
// every other re-anchoring (search.go, search_rank.go), with the line
// where the comment is expected being its old line carried through the
// hunk offsets of both patches. A tie is never resolved: the comment is
// marked orphaned with the places it could go to — it is never dropped.
// Its numbers are left as they were, but for a tie: then they are carried
// to where its old range lands in the new patch, the line the tied places
// are as near to, so that `check` finds the same tie and prefers neither. Context lines (up to three
// above and below a trusted old place: the anchor resolved in the old
// patch and the snippet agreed with it) only decide whether a weak
// snippet's place ("}") or a changed line's may be taken
// (rebase_needle.go).
//
// Dismissed comments keep `dismissed` whatever happens (the person's
// verdict beats the anchoring), but they move with a clear winner, so that
// the verdict stays on the lines it was about.

// Move is what rebasing did to one comment.
type Move struct {
	Comment *exchange.Comment
	// FromPath and ToPath are the comment's path before and after: ToPath
	// differs when it follows a file the new patch renames.
	FromPath, ToPath   string
	FromSide           Side
	FromStart, FromEnd int
	ToSide             Side
	ToStart, ToEnd     int
	// Orphaned is set when no clear place was found: the comment is marked
	// orphaned (a dismissed one stays dismissed) and keeps its numbers —
	// but for a tie, where it moves to where its old range lands (ToStart),
	// so that the places stay as near to it as rebase found them.
	Orphaned bool
	// Unchanged is set when nothing had to change: same place, same state.
	Unchanged bool
	// State is the comment's state afterwards (defaults applied).
	State string
	// Why is a short human reason, e.g. "snippet found 2 lines lower" or
	// "2 equally good places: RIGHT 12, RIGHT 40".
	Why string
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
	if doc == nil || doc.Review.Node == nil {
		return nil, nil, errors.New("not a review exchange document: the root is not an object")
	}
	if err := doc.SyntaxRefusal("rebase"); err != nil {
		return nil, nil, err
	}
	src, root, patch := doc.Text, doc.Review.Node, doc.Review.Patch.Node
	value := renderPatch(src, root, patch, cleanLines(newPatch))

	// The new patch is indexed from the very text that will be written, so
	// that what comments are matched against is what the file will hold.
	newDoc := exchange.Parse([]byte(`{"patch": ` + value + `}`))
	newIx := BuildIndex(&newDoc.Review.Patch)
	if len(newIx.Files) == 0 {
		return nil, nil, errors.New("the new patch holds no file diff")
	}
	switch {
	case patch == nil:
		edits = append(edits, exchange.InsertMember(src, root, "patch", value, exchange.KeyAfter(root, exchange.ReviewKeys, "patch")))
	case src.String(patch.Start, patch.End) != value:
		edits = append(edits, exchange.ReplaceValue(patch, value))
	}

	rb := newRebaser(src, BuildIndex(&doc.Review.Patch), newIx, false)
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
	rb := newRebaser(doc.Text, ix, ix, true)
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

// rebaser moves comments from the old patch into the new one (the same
// patch for Reanchor).
type rebaser struct {
	src      exchange.Text
	old, new *Index
	same     bool // Reanchor: old and new are the same patch
	oldS     *searchIndex
	newS     *searchIndex
	budget   *budget
}

func newRebaser(src exchange.Text, old, new *Index, same bool) *rebaser {
	rb := &rebaser{src: src, old: old, new: new, same: same, oldS: newSearchIndex(), newS: newSearchIndex()}
	if same {
		rb.newS = rb.oldS
	}
	rb.budget = newBudget(new.Patch)
	return rb
}

// move decides where c goes and returns the edits that put it there.
func (rb *rebaser) move(c *exchange.Comment) (Move, []exchange.Edit) {
	side, sideOK := ParseSide(c.Side)
	m := Move{Comment: c, FromPath: c.Path, ToPath: c.Path, FromSide: side, FromStart: c.StartLine, FromEnd: c.EndLine,
		ToSide: side, ToStart: c.StartLine, ToEnd: c.EndLine}
	old := rb.oldPlace(c, side, sideOK)
	lf, why := rb.lookFor(c, side, old)
	var found, tie *place
	var newF *FileDiff
	renamed := false
	if why == "" {
		newF, renamed, why = rb.newFile(c, side, old.f)
	}
	if why == "" {
		found, why, tie = rb.find(c, side, old.f, newF, lf)
	}

	state := c.StateNorm()
	newState := state
	if found != nil {
		if state != exchange.StateDismissed {
			newState = exchange.StateActive
		}
		m.ToSide, m.ToStart, m.ToEnd = found.side, found.start, found.end
		m.Why = foundWhy(c, side, found, lf, renamed, newF)
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
	switch {
	case found != nil:
		edits = rb.placeEdits(c, side, sideOK, found, newF)
		m.ToPath = cmp.Or(followedPath(c, newF, found.side), c.Path)
	case tie != nil && state != exchange.StateDismissed && (tie.start != c.StartLine || !sideOK):
		// Orphaned between equally good places: kept where its old range
		// lands, which is as near to each of them.
		edits = rb.placeEdits(c, side, sideOK, tie, newF)
		m.ToPath = cmp.Or(followedPath(c, newF, tie.side), c.Path)
		m.ToStart, m.ToEnd = tie.start, tie.end
		m.Why += fmt.Sprintf("; kept where %s lands in %s, %s", LineSpan(side, c.StartLine, c.EndLine), rb.patchWord(), LineSpan(side, tie.start, tie.end))
	}
	if newState != state {
		edits = append(edits, exchange.SetStateEdit(rb.src, c, newState))
	}
	m.Unchanged = len(edits) == 0
	return m, edits
}

// newFile finds c's file in the new patch, following a renamed file by
// its other names.
func (rb *rebaser) newFile(c *exchange.Comment, side Side, oldF *FileDiff) (f *FileDiff, renamed bool, why string) {
	f, renamed = rb.new.FileFor(c.Path, side)
	if f == nil && oldF != nil {
		for _, name := range []string{oldF.NewName, oldF.OldName} {
			if name != "" && f == nil {
				f, renamed = rb.new.FileFor(name, side)
			}
		}
	}
	if f == nil {
		return nil, false, fmt.Sprintf("%s is not in %s", strconv.Quote(c.Path), rb.patchWord())
	}
	return f, renamed, ""
}

// followedPath returns the name c's path member is given to follow its
// file into the new patch, f, on side, or "" when it keeps its path. A
// file renamed in the new patch is called by its new name on RIGHT (its
// old one on LEFT): the comment follows it there rather than resolving
// through the other name with a hint.
func followedPath(c *exchange.Comment, f *FileDiff, side Side) string {
	if name := f.Name(side); name != "" && name != c.Path && c.Member("path") != nil {
		return name
	}
	return ""
}

// placeEdits sets c's anchor members to found's place.
func (rb *rebaser) placeEdits(c *exchange.Comment, side Side, sideOK bool, found *place, newF *FileDiff) []exchange.Edit {
	var edits []exchange.Edit
	obj := c.Node
	if name := followedPath(c, newF, found.side); name != "" {
		edits = append(edits, exchange.ReplaceValue(c.Member("path"), jsontext.Quote(name)))
	}
	if !sideOK || found.side != side {
		edits = append(edits, exchange.SetMember(rb.src, obj, "side", strconv.Quote(found.side.String()), exchange.KeyAfter(obj, exchange.CommentKeys, "side")))
	}
	if v, ok := c.Member("start_line").Int(rb.src); !ok || v != found.start {
		edits = append(edits, exchange.SetMember(rb.src, obj, "start_line", strconv.Itoa(found.start), exchange.KeyAfter(obj, exchange.CommentKeys, "start_line")))
	}
	if n := c.Member("end_line"); n != nil {
		if v, ok := n.Int(rb.src); !ok || v != found.end {
			edits = append(edits, exchange.ReplaceValue(n, strconv.Itoa(found.end)))
		}
	} else if found.end != found.start {
		edits = append(edits, exchange.InsertMember(rb.src, obj, "end_line", strconv.Itoa(found.end), exchange.KeyAfter(obj, exchange.CommentKeys, "end_line")))
	}
	return edits
}

// patchWord names the patch comments move into in reasons.
func (rb *rebaser) patchWord() string {
	if rb.same {
		return "the patch"
	}
	return "the new patch"
}
