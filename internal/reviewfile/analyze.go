// Package reviewfile is the one way from a review file's bytes to its
// analysis, for the language server, the agent tools and the command
// line: Analyze (the parse and the check, carrying a previous version
// forward when there is one), Version (one immutable version of a review
// file, its document and analysis each made once), ReadIn (the reader,
// through an os.Root, bounded by filewrite.MaxSize) and Cache (versions
// kept by name, with one staleness rule and LRU eviction).
//
// It sits on the exchange format and the anchor engine, below the
// language server, the agent tools and the command, which hold reviews.
package reviewfile

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Analyze makes the analysis of one version of a document, shared by
// every request for that version. It checks text; prev, the analysis of
// an earlier version of the same document, lets an unchanged patch skip
// re-indexing, and ch says how text differs from prev's, as an editor's
// changes or an agent's edit do (nil when that is not known: the texts
// are then compared). It stops with ctx's error at its checkpoints
// (after the parse, after the document checks, after the index, between
// batches of comments) once ctx is done: the server cancels the analysis
// of a version the user has edited since.
//
// m, when not nil, is the mapper the caller holds for text: the
// document's positions are then mapped with it (Document.UseMapper).
func Analyze(ctx context.Context, text exchange.Text, m *exchange.Mapper, prev *anchor.Analysis, ch *exchange.Change) (*anchor.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var prevDoc *exchange.Document
	if prev != nil {
		prevDoc = prev.Doc
	}
	doc := parse(text, prevDoc, ch)
	doc.UseMapper(m)
	return check(ctx, doc, prev)
}

// parse parses text, as an edit of prev when there is one (ch says
// where, or the texts are compared when it is nil).
func parse(text exchange.Text, prev *exchange.Document, ch *exchange.Change) *exchange.Document {
	if prev == nil {
		return exchange.ParseText(text)
	}
	if ch == nil {
		c := exchange.ChangeBetween(prev.Text, text)
		ch = &c
	}
	return exchange.ParseEdited(text, prev, *ch)
}

// check checks and anchors doc, parsed, reusing prev's index when the
// patch is unchanged, and builds the document's mapper here, off the
// requests' path.
func check(ctx context.Context, doc *exchange.Document, prev *anchor.Analysis) (*anchor.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an, err := anchor.CheckDocumentContext(ctx, doc, prev)
	if err != nil {
		return nil, err
	}
	doc.Mapper()
	return an, nil
}
