package exchange

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The costs below used to be wall-clock limits inside unit tests, which
// fail under -race on a loaded machine. Here each is a ratio against a
// baseline timed in the same iteration, so noise cancels out: a quadratic
// regression shows as a ratio that grows with the input, not as a flaky
// failure.

// ratio runs base and ours once per iteration and reports ours/base.
func ratio(b *testing.B, unit string, base, ours func()) {
	b.Helper()
	var tb, to time.Duration
	for b.Loop() {
		start := time.Now()
		base()
		tb += time.Since(start)
		start = time.Now()
		ours()
		to += time.Since(start)
	}
	b.ReportMetric(float64(to)/float64(tb), unit)
}

// BenchmarkValidateSchemaVsEncodingJSON: reading and validating a large
// review against encoding/json decoding the same bytes (budget: 2x).
func BenchmarkValidateSchemaVsEncodingJSON(b *testing.B) {
	src := bigOnce()
	DefaultSchema()
	ratio(b, "x-encoding/json", func() {
		var v any
		_ = json.Unmarshal(src, &v)
	}, func() { validateSchema(Parse(src)) })
}

// patchDoc is a one-line review whose n patch elements are each form(i).
func patchDoc(n int, form string) *Document {
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1, "patch": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, form, i)
	}
	b.WriteString(`], "comments": []}`)
	return Parse([]byte(b.String()))
}

// BenchmarkCheckMultilineElements: Check of a patch with a line feed in
// every element (a diagnostic each) against the same patch without them;
// each diagnostic used to cost a scan of the document.
func BenchmarkCheckMultilineElements(b *testing.B) {
	const n = 20_000
	plain, multi := patchDoc(n, `"+line %d"`), patchDoc(n, `"+line %d\n"`)
	ratio(b, "x-single-line", func() { Check(plain) }, func() { Check(multi) })
}

// BenchmarkMapperLongLine: positions in an 8 MB document on one line
// against the same text on short lines; each used to cost a scan from the
// line's start.
func BenchmarkMapperLongLine(b *testing.B) {
	long := []byte(strings.Repeat(`"+some diff line é",`, 400_000))
	short := []byte(strings.Repeat(`"+some diff line é",`+"\n", 400_000))
	positions := func(text []byte) func() {
		m := NewMapper(text)
		return func() {
			for i := range 2000 {
				p := m.Position(i*len(text)/2000, UTF16)
				if _, err := m.Offset(p, UTF16); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	ratio(b, "x-short-lines", positions(short), positions(long))
}

// BenchmarkDiffLarge: the diffs whose edit distance is about the input's
// size (a total rewrite, every other line changed) against scattered
// changes of the same 100,000 lines; the budgeted search falls back to
// coarse edits instead of going quadratic.
func BenchmarkDiffLarge(b *testing.B) {
	var lines []string
	for i := range 100_000 {
		lines = append(lines, fmt.Sprintf("    \"+\\tline %d of a long patch\",\n", i))
	}
	before := []byte(strings.Join(lines, ""))
	scattered := append([]string(nil), lines...)
	for i := 5; i < len(scattered); i += 10_000 {
		scattered[i] = "    \"changed\",\n"
	}
	interleaved := append([]string(nil), lines...)
	for i := 0; i < len(interleaved); i += 2 {
		interleaved[i] = fmt.Sprintf("x%d\n", i)
	}
	everything := strings.ReplaceAll(strings.ReplaceAll(string(before), "    ", "  "), "line", "LINE")
	base := []byte(strings.Join(scattered, ""))
	for _, tc := range []struct {
		name  string
		after []byte
	}{{"everything", []byte(everything)}, {"interleaved", []byte(strings.Join(interleaved, ""))}} {
		b.Run(tc.name, func(b *testing.B) {
			ratio(b, "x-scattered", func() { Diff(before, base) }, func() { Diff(before, tc.after) })
		})
	}
}
