package exchange

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// generatedOnce is the 8 MB review the lsp benchmarks edit.
var generatedOnce = sync.OnceValue(func() []byte { return reviewgen.Generate(reviewgen.Default()) })

// BenchmarkParseEditedSummary times a keystroke in the summary of the
// generated review: the patch after it is carried over, moved by a byte.
// Each version is parsed from the one before, as an editor would.
func BenchmarkParseEditedSummary(b *testing.B) {
	src := generatedOnce()
	at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
	prev := Parse(src)
	for b.Loop() {
		b.StopTimer()
		text := prev.Text.Bytes()
		next := make([]byte, 0, len(text)+1)
		next = append(append(append(next, text[:at]...), 'x'), text[at:]...)
		b.StartTimer()
		doc := ParseEdited(NewText(next), prev, Change{Prefix: at, Suffix: len(text) - at})
		if doc.Review.Patch.Node == prev.Review.Patch.Node {
			b.Fatal("the patch did not move")
		}
		prev = doc
	}
	b.ReportMetric(float64(prev.Review.Patch.LineCount()), "lines")
}

// BenchmarkParsedHeap reports the live heap that a parsed generated
// review holds, text included, and the share its patch lines take.
func BenchmarkParsedHeap(b *testing.B) {
	src := generatedOnce()
	var doc *Document
	var live uint64
	for b.Loop() {
		doc = nil
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		doc = Parse(append([]byte(nil), src...))
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = after.HeapAlloc - before.HeapAlloc
	}
	b.ReportMetric(float64(live)/1e6, "live-MB")
	b.ReportMetric(float64(doc.Review.Patch.LineCount()), "lines")
	b.ReportMetric(float64(cap(doc.Review.Patch.lines))*float64(unsafe.Sizeof(PatchLine{}))/1e6, "lines-MB")
	runtime.KeepAlive(doc)
}

// BenchmarkPatchLineReads times, per line, the reads that the loops over
// every line of the generated review make (the index's, the tokens', the
// checks'): the lines are made from the element table when read.
func BenchmarkPatchLineReads(b *testing.B) {
	doc := Parse(generatedOnce())
	p := &doc.Review.Patch
	n := p.LineCount()
	perLine := func(b *testing.B, sum int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/line")
		if sum == 0 {
			b.Fatal("nothing read")
		}
	}
	b.Run("head", func(b *testing.B) {
		sum := 0
		for b.Loop() {
			for i := range n {
				c, _ := p.LineHead(i)
				sum += int(c)
			}
		}
		perLine(b, sum)
	})
	b.Run("range", func(b *testing.B) {
		sum := 0
		for b.Loop() {
			for i := range n {
				sum += p.LineStart(i) + p.LineEnd(i)
			}
		}
		perLine(b, sum)
	})
	b.Run("len", func(b *testing.B) {
		sum := 0
		for b.Loop() {
			for i := range n {
				sum += p.LineLen(i) + p.LineElem(i)
			}
		}
		perLine(b, sum)
	})
}
