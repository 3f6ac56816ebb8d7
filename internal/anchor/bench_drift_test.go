package anchor

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// driftWorstCase generates a review of one 200,000-line file with n
// comments whose snippets are a part of their line (partial snippets, the
// costly kind: no hash lookup finds them), twice: at their place (the
// baseline: every anchor holds, no search) and drifted by 1 to 9 lines.
// kind "letter" makes every snippet one letter of its line, the worst
// partial snippet there is; "absent" makes the drifted snippets text that
// is nowhere, so that every search runs to its limit.
func driftWorstCase(tb testing.TB, n int, kind string) (base, drifted []byte) {
	tb.Helper()
	src := reviewgen.Generate(reviewgen.Config{Files: 1, DiffLines: 200_000, Comments: n, DriftedFraction: -1, Seed: 7})
	doc := exchange.Parse(src)
	var baseEdits, driftEdits []exchange.Edit
	for i, c := range doc.Review.Comments {
		line, _, _ := strings.Cut(c.Snippet, "\n")
		part := partOf(line, kind == "letter")
		if part == "" {
			continue
		}
		snip := exchange.ReplaceValue(c.Member("snippet"), jsontext.Quote(part))
		baseEdits = append(baseEdits, snip)
		if kind == "absent" {
			snip = exchange.ReplaceValue(c.Member("snippet"), jsontext.Quote("absent"+strconv.Itoa(i)+"()"))
		}
		driftEdits = append(driftEdits, snip)
		d := 1 + i%9
		driftEdits = append(driftEdits, exchange.ReplaceValue(c.Member("start_line"), strconv.Itoa(c.StartLine+d)))
		if n := c.Member("end_line"); n != nil {
			driftEdits = append(driftEdits, exchange.ReplaceValue(n, strconv.Itoa(c.EndLine+d)))
		}
	}
	var err error
	if base, err = exchange.ApplyEdits(src, baseEdits); err != nil {
		tb.Fatal(err)
	}
	if drifted, err = exchange.ApplyEdits(src, driftEdits); err != nil {
		tb.Fatal(err)
	}
	return base, drifted
}

// partOf returns the middle third of line (at least 4 bytes, cut at rune
// boundaries), or its first letter.
func partOf(line string, letter bool) string {
	if letter {
		for _, r := range line {
			if unicode.IsLetter(r) && r < 128 {
				return string(r)
			}
		}
		return ""
	}
	rs := []rune(line)
	if len(rs) < 8 {
		return ""
	}
	return strings.TrimSpace(string(rs[len(rs)/3 : 2*len(rs)/3]))
}

// BenchmarkDriftWorstCase: 5,000 drifted comments with partial snippets
// on a 200,000-line file, beside the same file with every anchor holding.
// Each iteration checks both documents, interleaved, so that the ratio
// drift/nodrift (what the bound promises to keep under 2) holds up on a
// machine whose load changes during the run; ns/op is the two together.
func BenchmarkDriftWorstCase(b *testing.B) {
	for _, kind := range []string{"partial", "letter", "absent"} {
		b.Run(kind, func(b *testing.B) {
			base, drifted := driftWorstCase(b, 5000, kind)
			var nodrift, drift time.Duration
			for b.Loop() {
				t0 := time.Now()
				CheckDocument(exchange.Parse(base), nil)
				t1 := time.Now()
				CheckDocument(exchange.Parse(drifted), nil)
				nodrift, drift = nodrift+t1.Sub(t0), drift+time.Since(t1)
			}
			b.ReportMetric(float64(nodrift.Nanoseconds())/float64(b.N), "nodrift-ns/op")
			b.ReportMetric(float64(drift.Nanoseconds())/float64(b.N), "drift-ns/op")
			b.ReportMetric(float64(drift)/float64(nodrift), "drift/nodrift")
		})
	}
}

// bigFilePatch is one file whose hunk adds n numbered lines.
func bigFilePatch(n int) []string {
	p := []string{"diff --git a/big.go b/big.go", "--- a/big.go", "+++ b/big.go", fmt.Sprintf("@@ -0,0 +1,%d @@", n)}
	for i := 1; i <= n; i++ {
		p = append(p, fmt.Sprintf("+\tstep%d()", i))
	}
	return p
}

// TestDriftSearchIsBounded: a snippet that no line holds but whose every
// trigram is somewhere (so that only a scan can tell), on a file larger
// than a search may visit, is reported with the search cut short; once the
// analysis's budget is spent, a comment that drifted by a few lines is
// still found; and analyzing many such comments costs about a pass over
// the patch, not one per comment.
func TestDriftSearchIsBounded(t *testing.T) {
	const n = 20_000
	var comments []string
	for i := range 300 {
		comments = append(comments, cm(fmt.Sprintf(`"id": "x%d", "path": "big.go", "side": "RIGHT", "start_line": %d, "snippet": "step1234567("`, i, 1+i*50)))
	}
	comments = append(comments, cm(`"id": "near", "path": "big.go", "side": "RIGHT", "start_line": 15000, "snippet": "step15003("`))
	doc, a := analyze(t, reviewJSON(bigFilePatch(n), comments...), Options{})
	last := len(doc.Review.Comments) - 1
	for i, ds := range a.byComment[:last] {
		if len(ds) != 1 || !strings.Contains(ds[0].Message, "the search for its snippet was cut short") || !a.Resolutions[i].SearchCut {
			t.Fatalf("x%d: got %v, want one diagnostic saying the search was cut short", i, ds)
		}
	}
	// Text with a trigram no line has is nowhere, without a scan.
	_, b := analyze(t, reviewJSON(bigFilePatch(n), cm(`"id": "a", "path": "big.go", "side": "RIGHT", "start_line": 5, "snippet": "absent()"`)), Options{})
	if ds := b.byComment[0]; len(ds) != 1 || strings.Contains(ds[0].Message, "cut short") || b.Resolutions[0].SearchCut {
		t.Errorf("absent: got %v, want one diagnostic, the search not cut short", ds)
	}
	r := a.Resolutions[last]
	if len(r.Candidates) == 0 || !r.Candidates[0].Preferred || r.Candidates[0].Start != 15003 || r.SearchCut {
		t.Errorf("near: got candidates %v (cut %v), want RIGHT 15003 preferred", r.Candidates, r.SearchCut)
	}
	// The budget: at most its start, plus minSearchWork per comment once
	// it is spent.
	an := newResolver(doc, BuildIndex(&doc.Review.Patch), Options{})
	start := an.budget.left
	for _, c := range doc.Review.Comments {
		r := an.resolveIn(new(Resolution), c)
		an.findCandidates(r)
	}
	if spent, most := start-an.budget.left, start+len(doc.Review.Comments)*minSearchWork; spent > most {
		t.Errorf("the searches did %d visits, want at most %d", spent, most)
	}
}

// TestDriftSearchIsBoundedOnLongLines: a patch of a few huge lines cannot
// make every comment's search scan megabytes: visiting a line costs by its
// length, and the analysis's budget by the patch's bytes.
func TestDriftSearchIsBoundedOnLongLines(t *testing.T) {
	long := strings.Repeat("step1 step2 step3 ", 10_000) // 180 KB
	patch := []string{"--- a/long.txt", "+++ b/long.txt", "@@ -0,0 +1,40 @@"}
	for range 40 {
		patch = append(patch, "+"+long)
	}
	var comments []string
	for i := range 500 {
		comments = append(comments, cm(fmt.Sprintf(`"id": "x%d", "path": "long.txt", "side": "RIGHT", "start_line": %d, "snippet": "step1 step3"`, i, 1+i%40)))
	}
	doc := exchange.Parse(reviewJSON(patch, comments...))
	an := newResolver(doc, BuildIndex(&doc.Review.Patch), Options{})
	start := an.budget.left
	for _, c := range doc.Review.Comments {
		an.findCandidates(an.resolveIn(new(Resolution), c))
	}
	spent := start - an.budget.left
	if most := start + len(doc.Review.Comments)*(minSearchWork+lineWork(long)); spent > most {
		t.Errorf("the searches did %d units of work, want at most %d", spent, most)
	}
	// Bytes compared: about the work times workBytes, not comments × patch.
	if bytes, patchBytes := spent*workBytes, 40*len(long); bytes > 10*patchBytes {
		t.Errorf("the searches compared about %d bytes, want at most ten passes over the %d-byte patch", bytes, patchBytes)
	}
}
