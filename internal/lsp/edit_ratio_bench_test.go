package lsp

import (
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// BenchmarkEditVsCheck types one character in a comment body and waits
// for the diagnostics (BenchmarkEditCommentToDiagnostics's body), and
// every fifth iteration also times what `check` does with the file
// (BenchmarkCheckBaseline's body), so that both are measured under the
// same load: the target is edit ≤ 0.15× check.
func BenchmarkEditVsCheck(b *testing.B) {
	src := generatedReview()
	_, edit := rawOpen(b, "ratio")
	var edits, checks time.Duration
	nChecks := 0
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		edit()
		edits += time.Since(start)
		if i%5 == 0 {
			start = time.Now()
			doc := exchange.Parse(src)
			rep := anchor.CheckDocument(doc, nil)
			conv := Converter{M: doc.Mapper(), Enc: exchange.UTF16}
			_ = conv.Diagnostics("file:///bench/check.review.json", rep.Diagnostics)
			checks += time.Since(start)
			nChecks++
		}
	}
	perEdit := float64(edits) / float64(b.N)
	check := float64(checks) / float64(nChecks)
	b.ReportMetric(perEdit/1e6, "edit-ms")
	b.ReportMetric(check/1e6, "check-ms")
	b.ReportMetric(perEdit/check, "edit/check")
}
