package lsp

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
)

func BenchmarkZZHeapProfile(b *testing.B) {
	runtime.MemProfileRate = 512
	for b.Loop() {
		_, edit := rawOpen(b, "live")
		edit()
		runtime.GC()
		f, _ := os.Create("/tmp/heap0.prof")
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
		for range 20 {
			edit()
		}
		runtime.GC()
		f, _ = os.Create("/tmp/heap1.prof")
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
}
