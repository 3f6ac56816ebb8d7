package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// analyse checks doc as the server does, for the features to read.
func analyse(doc *exchange.Document) Analysed {
	return Analysed{anchor.CheckDocument(doc, nil)}
}
