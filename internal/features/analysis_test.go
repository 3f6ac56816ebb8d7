package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// analyze checks doc as the server does, for the features to read.
func analyze(doc *exchange.Document) *anchor.Analysis {
	return anchor.CheckDocument(doc, nil)
}
