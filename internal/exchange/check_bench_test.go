package exchange

import (
	"bytes"
	"testing"
	"time"
)

// BenchmarkCheckEditComment is CheckIncremental's share of a keystroke in
// the last comment's body of the large review (BenchmarkEditComment
// without the parse): each version is parsed from the one before,
// untimed, and checked from its result. It reports the ratio to Check of
// the same document, timed in the same loop (every tenth iteration).
func BenchmarkCheckEditComment(b *testing.B) {
	src := bigOnce()
	at := bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	prev := Parse(src)
	res := Check(prev)
	var spent, full time.Duration
	fulls := 0
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		text := prev.Text.Bytes()
		next := make([]byte, 0, len(text)+1)
		next = append(append(append(next, text[:at]...), 'x'), text[at:]...)
		doc := parseIncremental(next, prev)
		b.StartTimer()
		start := time.Now()
		res = CheckIncremental(doc, &res)
		spent += time.Since(start)
		prev = doc
		if i%10 == 0 {
			start = time.Now()
			Check(doc)
			full += time.Since(start)
			fulls++
		}
	}
	edit := float64(spent) / float64(b.N)
	b.ReportMetric(edit/1e6, "check-edit-ms")
	b.ReportMetric(edit/(float64(full)/float64(fulls)), "edit/check")
}
