package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// manyReviews writes n generated reviews of about 17 KB each (the size of
// the 420-file, 7 MB set issue 12 measured) and returns their paths.
func manyReviews(tb testing.TB, n int) []string {
	tb.Helper()
	dir := tb.TempDir()
	paths := make([]string, n)
	for i := range paths {
		src := reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 210, Comments: 6, Seed: int64(i + 1)})
		paths[i] = filepath.Join(dir, fmt.Sprintf("r%03d.review.json", i))
		if err := os.WriteFile(paths[i], src, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return paths
}

// TestCheckManyKeepsArgumentOrder checks many files on several workers,
// with a large file first so that later ones finish before it, and
// expects exactly the output of one worker: the order of the arguments.
func TestCheckManyKeepsArgumentOrder(t *testing.T) {
	paths := manyReviews(t, 40)
	big := filepath.Join(t.TempDir(), "big.review.json")
	if err := os.WriteFile(big, reviewgen.Generate(reviewgen.Config{Files: 20, DiffLines: 20_000, Comments: 300, Seed: 7}), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.review.json")
	args := append([]string{big}, paths[:20]...)
	args = append(append(args, missing), paths[20:]...)
	for _, format := range formatNames {
		t.Run(format, func(t *testing.T) {
			var want, wantErr bytes.Buffer
			wantCode := runCheckOn(1, append([]string{"--format", format}, args...), nil, &want, &wantErr)
			if want.Len() == 0 {
				t.Fatal("one worker printed nothing")
			}
			var got, gotErr bytes.Buffer
			code := runCheckOn(8, append([]string{"--format", format}, args...), nil, &got, &gotErr)
			if code != wantCode || got.String() != want.String() || gotErr.String() != wantErr.String() {
				t.Errorf("8 workers: got exit %d and output differing from one worker's (exit %d)\n%s", code, wantCode, firstDiff(got.String(), want.String()))
			}
			if format == "text" {
				// The big file's diagnostics come first, then r000, r001, …
				last := -1
				for _, l := range strings.Split(strings.TrimSpace(got.String()), "\n") {
					i := strings.Index(l, ".review.json:")
					name := filepath.Base(l[:i])
					idx := -1
					if name != "big" {
						fmt.Sscanf(name, "r%03d", &idx)
					}
					if idx < last {
						t.Fatalf("got %s after r%03d, want the order of the arguments", name, last)
					}
					last = idx
				}
			}
		})
	}
}

// firstDiff shows where two outputs part.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}

// TestCheckStdinOnce reads standard input for the first "-" only, as a
// sequential read would, however many workers run.
func TestCheckStdinOnce(t *testing.T) {
	src := `{"leanreview_review": 2, "patch": [], "comments": []}`
	var out, errOut bytes.Buffer
	code := runCheckOn(4, []string{"-", "-"}, strings.NewReader(src), &out, &errOut)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if code != 1 || !strings.Contains(lines[0], "[version-unknown]") || !strings.Contains(out.String(), "<stdin>:1:1: error") {
		t.Errorf("got exit %d and\n%s\nwant version-unknown for the first - and an empty document for the second", code, out.String())
	}
}

// BenchmarkCheckMany is `check` over 420 generated files (about 7 MB),
// three ways in each round, interleaved: one worker at the collector's
// default target (the baseline: what check did before), GOMAXPROCS
// workers at that target, and check as it runs now (GOMAXPROCS workers,
// checkGCPercent). It reports each time and the speed-up over the
// baseline.
func BenchmarkCheckMany(b *testing.B) {
	if os.Getenv("GOGC") != "" {
		b.Skip("GOGC is set: the benchmark compares collector targets itself")
	}
	paths := manyReviews(b, 420)
	size := 0
	for _, p := range paths {
		st, _ := os.Stat(p)
		size += int(st.Size())
	}
	ways := []struct {
		name string
		run  func()
	}{
		{"before", func() { runCheckOn(1, paths, nil, io.Discard, io.Discard) }},
		{"workers", func() { runCheckOn(runtime.GOMAXPROCS(0), paths, nil, io.Discard, io.Discard) }},
		{"after", func() { runCheck(paths, nil, io.Discard, io.Discard) }},
	}
	spent := make([]time.Duration, len(ways))
	for b.Loop() {
		for i, w := range ways {
			runtime.GC()
			start := time.Now()
			w.run()
			spent[i] += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(size)/1e6, "MB")
	for i, w := range ways {
		b.ReportMetric(float64(spent[i].Microseconds())/1e3/n, "ms-"+w.name)
	}
	b.ReportMetric(float64(spent[0])/float64(spent[2]), "speedup")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
}

// barrierFormat is the text format whose file() waits until `want` calls
// are in flight at once: it proves the workers run concurrently whatever
// the machine's load, where a timing would not.
type barrierFormat struct {
	textFormat
	mu       sync.Mutex
	arrived  int // calls that reached the barrier
	want     int
	all      chan struct{}
	timedOut bool
}

func (f *barrierFormat) file(name string, src []byte, m *exchange.Mapper, ds []exchange.Diagnostic) any {
	f.mu.Lock()
	f.arrived++
	if f.arrived == f.want {
		close(f.all)
	}
	f.mu.Unlock()
	select {
	case <-f.all:
	case <-time.After(10 * time.Second):
		f.mu.Lock()
		f.timedOut = true
		f.mu.Unlock()
	}
	return f.textFormat.file(name, src, m, ds)
}

func TestCheckRunsWorkersConcurrently(t *testing.T) {
	paths := manyReviews(t, 8)
	f := &barrierFormat{want: 4, all: make(chan struct{})}
	var out bytes.Buffer
	for r := range checkAll(paths, nil, f, 4, &contractAxis{}) {
		if r.err != nil {
			t.Fatal(r.err)
		}
		f.add(&out, r.part)
	}
	if f.timedOut {
		t.Fatal("4 workers never had 4 files in flight at once: the first waited 10 s for the others")
	}
	var want bytes.Buffer
	runCheckOn(1, paths, nil, &want, io.Discard)
	if out.String() != want.String() {
		t.Errorf("concurrent output differs from one worker's:\n%s", firstDiff(out.String(), want.String()))
	}
}
