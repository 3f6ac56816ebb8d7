package lsp

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkCheckVsJSONFloor times, in each iteration, the JSON floor
// (json.Valid then encoding/json into `any`) and what `check` does with
// the same 8 MB review (BenchmarkCheckBaseline's body), and reports their
// ratio: the target is check ≤ 1.2× the floor.
func BenchmarkCheckVsJSONFloor(b *testing.B) {
	src := generatedReview()
	var floor, check time.Duration
	for b.Loop() {
		start := time.Now()
		jsonFloor(b, src)
		floor += time.Since(start)
		start = time.Now()
		checkOnce(src)
		check += time.Since(start)
	}
	n := float64(b.N)
	b.ReportMetric(float64(floor.Milliseconds())/n, "floor-ms")
	b.ReportMetric(float64(check.Milliseconds())/n, "check-ms")
	b.ReportMetric(float64(check)/float64(floor), "check/floor")
}

// BenchmarkLiveHeapAfterOpen opens the 8 MB review in a server in this
// process, types three characters in a comment, collects garbage and
// reports what the server keeps alive: the heap after minus the heap
// before the server started, in MB and as a multiple of the file. It is
// the floor under the peak BenchmarkMemoryOpenAndEdits measures (the GC
// lets the heap grow past it between collections).
func BenchmarkLiveHeapAfterOpen(b *testing.B) {
	src := generatedReview()
	var before, after runtime.MemStats
	var live float64
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		c, edit := rawOpen(b, "live")
		for range 3 {
			edit()
		}
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = float64(after.HeapAlloc) - float64(before.HeapAlloc) - float64(cap(c.buf))
	}
	b.ReportMetric(live/(1<<20), "live-MB")
	b.ReportMetric(live/float64(len(src)), "live/file")
}
