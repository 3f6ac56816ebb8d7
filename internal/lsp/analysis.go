package lsp

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// Analysis is the analysis of one version of a document (features.Analysis)
// with the mapper that turns its byte offsets into positions. It is made
// once per version and shared by every request.
type Analysis struct {
	features.Analysis
	Mapper *exchange.Mapper
}

// Analyze checks text; prev, the analysis of an earlier version of the
// same document, lets an unchanged patch skip re-indexing, and ch says
// how text differs from prev's, as the editor's changes do (nil when that
// is not known: the texts are then compared). It stops with ctx's error
// at its checkpoints (after the parse, after the document checks, after
// the index, between batches of comments) once ctx is done: the server
// cancels the analysis of a version the user has edited since.
func Analyze(ctx context.Context, text exchange.Text, prev *Analysis, ch *exchange.Change) (*Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var doc *exchange.Document
	var prevReport *anchor.Report
	if prev != nil {
		if ch == nil {
			c := exchange.ChangeBetween(prev.Doc.Text, text)
			ch = &c
		}
		doc = exchange.ParseEdited(text, prev.Doc, *ch)
		prevReport = prev.Report
	} else {
		doc = exchange.ParseText(text)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep, err := anchor.CheckDocumentContext(ctx, doc, prevReport)
	if err != nil {
		return nil, err
	}
	return &Analysis{Analysis: features.Analysis{Report: rep}, Mapper: doc.Mapper()}, nil
}
