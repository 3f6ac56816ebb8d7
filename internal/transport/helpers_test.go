package transport

import (
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

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
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			if kb, err := strconv.Atoi(f[1]); err == nil {
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
			}
		}
	}
}
