package transport

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/bench/procmem"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

// deep is a value nested levels deep.
func deep(levels int) string {
	return strings.Repeat("[", levels) + strings.Repeat("]", levels)
}

var (
	bigReviewOnce sync.Once
	bigReview     []byte
)

// generatedReview is the ~8 MB benchmark review (reviewgen.Default).
func generatedReview() []byte {
	bigReviewOnce.Do(func() { bigReview = reviewgen.Generate(reviewgen.Default()) })
	return bigReview
}

// reportPeakRSS reports the process's peak resident memory, as
// internal/lsp's benchmarks do: deep nesting costs memory, not only time.
func reportPeakRSS(b *testing.B) {
	if mb, ok := procmem.PeakMB("self"); ok {
		b.ReportMetric(mb, "peak-RSS-MB")
	}
}
