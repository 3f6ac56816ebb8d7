package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Analyze makes the analysis of one version of a document, shared by
// every request for that version. It checks text; prev, the analysis of an earlier version of the
// same document, lets an unchanged patch skip re-indexing, and ch says
// how text differs from prev's, as the editor's changes do (nil when that
// is not known: the texts are then compared). It stops with ctx's error
// at its checkpoints (after the parse, after the document checks, after
// the index, between batches of comments) once ctx is done: the server
// cancels the analysis of a version the user has edited since.
//
// m, when not nil, is the mapper the caller holds for text: the
// document's positions are then mapped with it (Document.UseMapper).
func Analyze(ctx context.Context, text exchange.Text, m *exchange.Mapper, prev *anchor.Analysis, ch *exchange.Change) (*anchor.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var doc *exchange.Document
	if prev != nil {
		if ch == nil {
			c := exchange.ChangeBetween(prev.Doc.Text, text)
			ch = &c
		}
		doc = exchange.ParseEdited(text, prev.Doc, *ch)
	} else {
		doc = exchange.ParseText(text)
	}
	doc.UseMapper(m)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an, err := anchor.CheckDocumentContext(ctx, doc, prev)
	if err != nil {
		return nil, err
	}
	doc.Mapper() // built here, off the requests' path
	return an, nil
}
