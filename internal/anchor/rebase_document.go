package anchor

import (
	"fmt"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Rebased is what RebaseDocument made of a document.
type Rebased struct {
	// Src is the rebased text; equal to the input when nothing changed.
	Src []byte
	// Moves are the comments that moved or no longer anchor, in the
	// document's order; those that stay where they were are left out.
	Moves []Move
}

// DiffError is RebaseDocument's error when the new diff is at fault rather
// than the document, so that a caller names the right input.
type DiffError struct{ Err error }

func (e *DiffError) Error() string { return e.Err.Error() }
func (e *DiffError) Unwrap() error { return e.Err }

// RebaseDocument is the one way a review is rebased, from the command line
// (`lreview-lsp rebase`) and by an agent (lreview_rebase): it reads diff as
// `new` does (DiffLines: a unified diff, or one commit as git prints it,
// refused when a line belongs to no diff), moves every comment into it
// (Rebase) and applies the edits to doc's text. The document's own syntax
// errors refuse it, with where the first is.
func RebaseDocument(doc *exchange.Document, diff []byte) (*Rebased, error) {
	if doc != nil {
		if err := doc.SyntaxRefusal("rebase"); err != nil {
			return nil, err
		}
	}
	lines, err := DiffLines(diff)
	if err != nil {
		return nil, &DiffError{err}
	}
	edits, moves, err := Rebase(doc, lines)
	if err != nil {
		return nil, err
	}
	src := doc.Text.Bytes()
	out, err := exchange.ApplyEdits(src, edits)
	if err != nil {
		return nil, fmt.Errorf("internal error, nothing written: %v", err)
	}
	news := moves[:0]
	for _, m := range moves {
		// A dismissed comment that no longer anchors keeps its state and
		// numbers, so nothing changes in the file; it is still news.
		if !m.Unchanged || m.Orphaned {
			news = append(news, m)
		}
	}
	return &Rebased{Src: out, Moves: news}, nil
}

// Done says in words what rebasing did to the comment: "moved c1 from
// RIGHT 3 to RIGHT 5 (snippet found 2 lines lower)", "marked c2 orphaned:
// …", or, for a dismissed one whose verdict stays, "c3 no longer anchors:
// …".
func (m Move) Done() string {
	name := m.Comment.Name()
	switch {
	case m.Orphaned && m.State == exchange.StateOrphaned:
		return "marked " + name + " orphaned: " + m.Why
	case m.Orphaned:
		return name + " no longer anchors: " + m.Why
	}
	return fmt.Sprintf("moved %s from %s to %s (%s)", name, LineSpan(m.FromSide, m.FromStart, m.FromEnd), LineSpan(m.ToSide, m.ToStart, m.ToEnd), m.Why)
}
