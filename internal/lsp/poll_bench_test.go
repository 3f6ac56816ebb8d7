//go:build unix

package lsp

import (
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// BenchmarkPollCycle is the poller looking once at each of the 2,000
// files an open review names: the work it does every pollCycle while
// nothing changes. %core is the process's CPU time per cycle ÷
// pollCycle, the share of a core the idle poller costs (wall time
// overstates it on a loaded machine).
func BenchmarkPollCycle(b *testing.B) {
	root := b.TempDir()
	names := pollTree(b, root, maxPolled)
	s := NewServer(Options{})
	s.wt.folders = []string{root}
	review := protocol.DocumentURI(uri.File(filepath.Join(root, "x.review.json")))
	s.wt.polled[review] = names
	p := &patchPoll{seen: map[pollKey]fileStamp{}}
	for range pollSlices {
		s.pollRound(p)
	}
	if len(p.seen) != len(names) {
		b.Fatalf("a cycle saw %d files, want %d", len(p.seen), len(names))
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		for range pollSlices {
			if changed := s.pollRound(p); len(changed) != 0 {
				b.Fatalf("an idle round saw %d changes", len(changed))
			}
		}
	}
	used := cpuTime() - start
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N)/float64(pollCycle.Nanoseconds())*100, "%core")
}
