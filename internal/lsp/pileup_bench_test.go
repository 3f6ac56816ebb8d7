//go:build unix

package lsp

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// BenchmarkPileUp opens the 8 MB generated review and waits for its
// diagnostics ("one"), or opens it and types five characters in a comment
// while it is analyzed, one every eleventh of an analysis (the issue's
// 11 s analysis with edits 1 s apart), and waits for the last version's
// diagnostics ("five-edits"). It reports the process's CPU time and peak
// RSS for each: superseded analyses must be cancelled, not run to the end.
func BenchmarkPileUp(b *testing.B) {
	src := string(generatedReview())
	at := bytes.Index(generatedReview(), []byte(`"body": "`)) + len(`"body": "`)
	pos := exchange.NewMapper(generatedReview()).Position(at, exchange.UTF16)
	start := protocol.Position{Line: uint32(pos.Line), Character: uint32(pos.Character)}

	// One analysis, timed, sets the pace of the edits.
	var single time.Duration
	for _, edits := range []int{0, 5} {
		name := "one"
		if edits > 0 {
			name = "five-edits"
		}
		b.Run(name, func(b *testing.B) {
			resetPeakRSS()
			cpu0 := cpuTime()
			t0 := time.Now()
			for i := 0; i < b.N; i++ {
				c := newTestClient(b, Options{})
				c.versionsOnly = true
				c.initialize()
				uri := protocol.DocumentURI("file:///bench/pileup.review.json")
				c.open(uri, src)
				for v := 2; v <= edits+1; v++ {
					time.Sleep(single / 11)
					c.change(uri, int32(v), &protocol.Range{Start: start, End: start}, "x")
				}
				c.waitDiagnostics(uri, int32(edits+1))
				c.conn.Close()
			}
			if edits == 0 {
				single = time.Since(t0) / time.Duration(b.N)
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			reportPeakRSS(b)
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS starts a new peak-RSS measurement (Linux's clear_refs).
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
