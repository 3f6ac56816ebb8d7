// Package features computes what an editor shows for a review document:
// hover, definition, references, completion, code actions, outline, code
// lenses, semantic tokens and gutter labels. Each is a pure function of an
// analyzed document and a byte offset or range, and returns plain results
// (byte ranges, words, Markdown) that the language server only converts
// to protocol types. The anchoring engine they read is internal/anchor.
package features

import "github.com/leanreview/lreview-lsp/internal/anchor"

// Analysis is an analyzed document: the parse, the checks, the patch index
// and the anchoring of every comment, as anchor.CheckDocument made them.
// Every feature reads one; none changes it.
type Analysis struct {
	*anchor.Report
}
