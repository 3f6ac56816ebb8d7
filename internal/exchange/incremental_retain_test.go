package exchange

import (
	"bytes"
	"os"
	"runtime"
	"testing"
	"time"
	"weak"
)

// TestSharedPatchKeepsNoEarlierVersion checks that a version sharing an
// earlier version's patch table does not keep that version's tree or
// text alive: through its table, its elements, a block of nodes or
// strings shared with the rest of its tree.
func TestSharedPatchKeepsNoEarlierVersion(t *testing.T) {
	base, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.LastIndex(base, []byte(`"body": "`)) + len(`"body": "`)
	v1 := append([]byte(nil), base...)
	prev := Parse(v1)
	v2 := append(append(append([]byte(nil), base[:at]...), 'x'), base[at:]...)
	next := parseIncremental(v2, prev)
	if next.Review.Patch.Origin() != prev.Review.Patch.Origin() {
		t.Fatal("the patch is not carried over: nothing to check")
	}
	next.Review.Patch.LineNode(0) // its elements made, from its own text
	wsrc, wroot, wdoc := weak.Make(&v1[0]), weak.Make(prev.Root), weak.Make(prev)
	prev, v1 = nil, nil
	runtime.GC()
	runtime.GC()
	if wsrc.Value() != nil || wroot.Value() != nil || wdoc.Value() != nil {
		t.Errorf("the earlier version is still alive: text %v, root %v, document %v", wsrc.Value() != nil, wroot.Value() != nil, wdoc.Value() != nil)
	}
	runtime.KeepAlive(next)
}

// BenchmarkEditComment is the exchange package's share of a keystroke in
// the last comment's body of the large review: parseIncremental then
// CheckIncremental, each version from the one before. It reports the
// ratio to Parse then Check of the same text, timed in the same loop
// (every tenth iteration) so that the machine's load weighs on both.
func BenchmarkEditComment(b *testing.B) {
	src := bigOnce()
	at := bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	prev := Parse(src)
	res := Check(prev)
	var spent, full time.Duration
	fulls := 0
	for i := 0; b.Loop(); i++ {
		text := prev.Text.Bytes() // the new version's text is the caller's cost
		next := make([]byte, 0, len(text)+1)
		next = append(append(append(next, text[:at]...), 'x'), text[at:]...)
		start := time.Now()
		doc := parseIncremental(next, prev)
		res = CheckIncremental(doc, &res)
		spent += time.Since(start)
		prev = doc
		if i%10 == 0 {
			start = time.Now()
			Check(Parse(next))
			full += time.Since(start)
			fulls++
		}
	}
	edit := float64(spent) / float64(b.N)
	b.ReportMetric(edit/1e6, "edit-ms")
	b.ReportMetric(edit/(float64(full)/float64(fulls)), "edit/full")
}
