package anchor

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Analysis is what the engine knows of one parsed document: the
// document-level checks, the patch index and the anchoring, with every
// diagnostic in one sorted list. It is what `check` prints, what the
// language server publishes, and what every feature reads; nothing
// changes it once made.
type Analysis struct {
	Doc         *exchange.Document
	Check       exchange.Result
	Index       *Index
	Anchors     *Anchoring
	Diagnostics []exchange.Diagnostic
}

// CheckDocument checks doc. prev, the analysis of an earlier version of the
// same document, lets an unchanged patch skip indexing: on a large review
// most edits touch comments, not the diff.
func CheckDocument(doc *exchange.Document, prev *Analysis) *Analysis {
	an, _ := CheckDocumentContext(context.Background(), doc, prev)
	return an
}

// CheckDocumentContext is CheckDocument that stops, with ctx's error, at
// the first checkpoint after ctx is done: after the document checks,
// after the index, and between batches of comments. The language server
// cancels the analysis of a version the user has already edited.
func CheckDocumentContext(ctx context.Context, doc *exchange.Document, prev *Analysis) (*Analysis, error) {
	an := &Analysis{Doc: doc}
	if prev != nil {
		an.Check = exchange.CheckIncremental(doc, &prev.Check)
	} else {
		an.Check = exchange.Check(doc)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an.Index = reuseIndex(doc, prev)
	if an.Index == nil {
		an.Index = BuildIndexSource(&doc.Review.Patch, doc.Text)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts := Options{SkipAnchor: an.Check.AnchorInvalid}
	if prev != nil {
		opts.Prev = prev.Anchors
	}
	var err error
	if an.Anchors, err = resolveContext(ctx, doc, an.Index, opts); err != nil {
		return nil, err
	}
	an.Diagnostics = make([]exchange.Diagnostic, 0, len(an.Check.Diagnostics)+len(an.Index.Problems)+len(an.Anchors.Diagnostics))
	an.Diagnostics = append(an.Diagnostics, an.Check.Diagnostics...)
	an.Diagnostics = append(an.Diagnostics, an.Index.Problems...)
	an.Diagnostics = append(an.Diagnostics, an.Anchors.Diagnostics...)
	exchange.SortDiagnostics(an.Diagnostics)
	return an, nil
}

// reuseIndex returns prev's index moved to doc's offsets when doc's patch
// is spelt exactly as prev's, or nil.
func reuseIndex(doc *exchange.Document, prev *Analysis) *Index {
	if prev == nil || prev.Index == nil {
		return nil
	}
	old, cur := prev.Doc.Review.Patch.Node, doc.Review.Patch.Node
	if old == nil || cur == nil || prev.Doc.Review.Patch.Form != doc.Review.Patch.Form {
		return nil
	}
	// A patch the parse carried over is spelt as it was, which saves
	// comparing megabytes; one read again may still be.
	if doc.Review.Patch.Origin() != prev.Doc.Review.Patch.Origin() && (old.End-old.Start != cur.End-cur.Start || !doc.Text.Equal(cur.Start, cur.End, prev.Doc.Text, old.Start)) {
		return nil
	}
	return prev.Index.moved(&doc.Review.Patch, cur.Start-old.Start)
}

// moved returns a copy of ix for the same patch text at another place in
// the document: files and hunks address lines by index and are shared;
// only the byte ranges of the problems move.
func (ix *Index) moved(p *exchange.Patch, delta int) *Index {
	c := *ix
	c.Patch = p
	c.Problems = exchange.MovedBy(ix.Problems, delta)
	return &c
}
