package lsp

import (
	"sync"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Analysis is everything the server knows about one version of a
// document. It is computed once per version and shared by every request.
type Analysis struct {
	*anchor.Report
	Mapper *exchange.Mapper

	tokensOnce sync.Once
	tokens     []anchor.Token
}

// Tokens classifies the patch's lines once per version: editors ask for
// ranges of them at every scroll.
func (a *Analysis) Tokens() []anchor.Token {
	a.tokensOnce.Do(func() { a.tokens = a.Index.Tokens(a.Doc.Src) })
	return a.tokens
}

// Analyze checks text; prev, the analysis of the version it was edited
// from, lets an unchanged patch skip re-indexing.
func Analyze(text []byte, prev *Analysis) *Analysis {
	var doc *exchange.Document
	var prevReport *anchor.Report
	if prev != nil {
		doc = exchange.ParseIncremental(text, prev.Doc)
		prevReport = prev.Report
	} else {
		doc = exchange.Parse(text)
	}
	return &Analysis{Report: anchor.CheckDocument(doc, prevReport), Mapper: doc.Mapper()}
}
