package agent

import (
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// BenchmarkToolCalls times tool calls on the generated 8 MB review (2,000
// comments) through a client, each beside `check` on the same file
// (parse, check, anchor: what the tools did on every call before), timed
// between the calls, and their ratio (x-check). The read-only calls on an unchanged file
// come from the cache.
func BenchmarkToolCalls(b *testing.B) {
	data := reviewgen.Generate(reviewgen.Default())
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"lreview_check", map[string]any{}},
		{"lreview_comments", map[string]any{}},
		{"lreview_add_comment", map[string]any{"side": "RIGHT", "body": "benchmark"}},
	} {
		b.Run(tc.tool, func(b *testing.B) {
			s := newSession(b, Options{}, map[string]string{"big.review.json": string(data)})
			args := map[string]any{"file": "big.review.json"}
			for k, v := range tc.args {
				args[k] = v
			}
			if tc.tool == "lreview_add_comment" {
				args["path"], args["start_line"] = firstRightLine(b, data)
			}
			s.ok(tc.tool, args, new(map[string]any)) // the first read fills the cache
			// The baseline is timed between the calls, so that both see
			// the same load on a shared machine.
			var calls, checks time.Duration
			for b.Loop() {
				start := time.Now()
				if res := s.call(tc.tool, args); res.IsError {
					b.Fatal(resultText(res))
				}
				calls += time.Since(start)
				b.StopTimer()
				start = time.Now()
				anchor.CheckDocument(exchange.Parse(data), nil)
				checks += time.Since(start)
				b.StartTimer()
			}
			b.ReportMetric(float64(calls)/float64(b.N)/1e6, "ms/call")
			b.ReportMetric(float64(checks)/float64(b.N)/1e6, "ms/check")
			b.ReportMetric(float64(calls)/float64(checks), "x-check")
		})
	}
}

// firstRightLine is a file of the review's patch and a RIGHT line of it.
func firstRightLine(b *testing.B, data []byte) (string, int) {
	rep := anchor.CheckDocument(exchange.Parse(data), nil)
	for _, f := range rep.Index.Files {
		for _, l := range f.Hunks[0].Lines {
			if l.In(anchor.Right) {
				return f.DisplayName(), l.Number(anchor.Right)
			}
		}
	}
	b.Fatal("no RIGHT line in the patch")
	return "", 0
}
