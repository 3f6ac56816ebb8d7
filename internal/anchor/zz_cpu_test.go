package anchor

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZCPU(t *testing.T) {
	src := benchDocument()
	const n = 10
	measure := func(name string, f func()) {
		f()
		best := time.Duration(1 << 62)
		for i := 0; i < n; i++ {
			c := cpuNow()
			f()
			best = min(best, cpuNow()-c)
		}
		fmt.Printf("%-15s best cpu %v\n", name, best)
	}
	doc := exchange.Parse(src)
	ix := BuildIndex(&doc.Review.Patch)
	measure("parse", func() { exchange.Parse(src) })
	measure("index", func() { BuildIndex(&doc.Review.Patch) })
	measure("analyze", func() { Analyze(doc, ix, Options{}) })
	measure("index+analyze", func() { Analyze(doc, BuildIndex(&doc.Review.Patch), Options{}) })
	a := Analyze(doc, ix, Options{})
	fmt.Println("diagnostics", len(a.Diagnostics), "bytes", len(src))
}
