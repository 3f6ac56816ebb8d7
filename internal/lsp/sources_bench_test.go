package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// scopeRepo writes a repository holding the review's files as their
// RIGHT images and the review itself as reviews/bench.review.json, and
// returns its root, the review's path and the source files that get
// comments.
func scopeRepo(b *testing.B, src []byte) (root, review string, commented map[protocol.DocumentURI]bool) {
	b.Helper()
	root = b.TempDir()
	writeRightImages(b, root, src)
	review = filepath.Join(root, "reviews", "bench.review.json")
	for _, dir := range []string{filepath.Join(root, ".git"), filepath.Dir(review)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(review, src, 0o644); err != nil {
		b.Fatal(err)
	}
	t, err := worktree.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	an := anchor.CheckDocument(exchange.Parse(src), nil)
	commented = map[protocol.DocumentURI]bool{}
	for _, in := range features.CommentsInSource(an, t.Pinned(), features.InSourceOptions{Outdated: true}) {
		commented[protocol.DocumentURI(uri.File(in.File.Abs))] = true
	}
	return root, review, commented
}

// scopeSession starts a session in the workspace root with settings.
func scopeSession(b *testing.B, root string, settings map[string]any) *testClient {
	c := newTestClient(b, Options{})
	c.versionsOnly = true
	initializeIn(c, root, map[string]any{}, settings)
	return c
}

// waitURIs waits until every one of uris had a publish.
func (c *testClient) waitURIs(uris map[protocol.DocumentURI]bool) {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		c.mu.Lock()
		n := 0
		for u := range uris {
			if len(c.diagnostics[u]) > 0 {
				n++
			}
		}
		c.mu.Unlock()
		if n == len(uris) {
			return
		}
		select {
		case <-c.notify:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("publishes on %d of the %d source files", n, len(uris))
		}
	}
}

// BenchmarkOpenWithScope opens the 8 MB review (2,000 comments over 200
// files) in its repository, where it is also in scope on disk, against
// the same repository with the scope turned away from it (the setting
// reviews matching nothing: the server as it was before the review was
// shown in the code), and times `check` on the same file, in the same
// run. first/before is the review's own first diagnostics (bound 1.1);
// sources/check is from those to the comments published on all the
// source files (bound 2).
func BenchmarkOpenWithScope(b *testing.B) {
	src := generatedReview()
	root, review, commented := scopeRepo(b, src)
	if len(commented) < 150 {
		b.Fatalf("%d source files get comments, want about 200", len(commented))
	}
	u := protocol.DocumentURI(uri.File(review))
	open := func(settings map[string]any, sources bool) (first, rest time.Duration) {
		c := scopeSession(b, root, settings)
		start := time.Now()
		c.open(u, string(src))
		c.waitDiagnostics(u, 1)
		first = time.Since(start)
		if sources {
			c.waitURIs(commented)
			rest = time.Since(start) - first
		}
		c.shutdown()
		return first, rest
	}
	var before, first, sources, check time.Duration
	for b.Loop() {
		f0, _ := open(map[string]any{"reviews": []string{"nothing/*.none"}, "comments": map[string]any{}}, false)
		f1, s1 := open(nil, true)
		start := time.Now()
		checkOnce(src)
		check += time.Since(start)
		before, first, sources = before+f0, first+f1, sources+s1
	}
	n := float64(b.N)
	b.ReportMetric(float64(before.Milliseconds())/n, "before-ms")
	b.ReportMetric(float64(first.Milliseconds())/n, "first-ms")
	b.ReportMetric(float64(sources.Milliseconds())/n, "sources-ms")
	b.ReportMetric(float64(check.Milliseconds())/n, "check-ms")
	b.ReportMetric(float64(first)/float64(before), "first/before")
	b.ReportMetric(float64(sources)/float64(check), "sources/check")
}

// BenchmarkSourceKeystroke types in a 5,000-line source file holding 50
// comments (of a review on disk) and times each keystroke to the publish
// of its version; it reports the median (bound 10 ms) and, from the same
// run, the median of a keystroke in a review of the same size.
func BenchmarkSourceKeystroke(b *testing.B) {
	src := reviewgen.Generate(reviewgen.Config{Files: 1, DiffLines: 1800, Comments: 50, DriftedFraction: -1, Seed: 3})
	root, _, commented := scopeRepo(b, src)
	if len(commented) != 1 {
		b.Fatalf("%d files get comments, want 1", len(commented))
	}
	var source protocol.DocumentURI
	for u := range commented {
		source = u
	}
	text, err := os.ReadFile(fileOf(string(source)))
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Count(string(text), "\n")
	c := scopeSession(b, root, nil)
	c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": source, "languageId": "go", "version": 1, "text": string(text)}})
	c.waitDiagnostics(source, 1)
	var took []time.Duration
	version := int32(1)
	mid := uint32(lines / 2)
	for b.Loop() {
		version++
		rng := protocol.Range{Start: protocol.Position{Line: mid}, End: protocol.Position{Line: mid}}
		insert := "x"
		if version%2 == 1 { // take the x away again
			rng.End.Character = 1
			insert = ""
		}
		start := time.Now()
		c.change(source, version, &rng, insert)
		c.waitDiagnostics(source, version)
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(lines), "lines")
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(took[len(took)*9/10].Microseconds())/1000, "p90-ms")
}

// BenchmarkScopeMemory reports what a review in scope that is not open
// keeps alive (the heap after its scan, collected) against what one
// parse of it keeps (reviewfile.Analyze's result, collected): bound 1.
func BenchmarkScopeMemory(b *testing.B) {
	src := generatedReview()
	root, _, _ := scopeRepo(b, src)
	var scoped, parsed float64
	for b.Loop() {
		var m0, m1, m2 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		an, err := reviewfile.Analyze(b.Context(), exchange.NewText(slices.Clone(src)), nil, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		parsed = float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
		runtime.KeepAlive(an)
		an = nil

		s := NewServer(Options{})
		s.wt.folders = []string{root}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		s.scanReviews(b.Context())
		runtime.GC()
		runtime.ReadMemStats(&m2)
		scoped = float64(m2.HeapAlloc) - float64(m1.HeapAlloc)
		if len(s.src.disk) != 1 {
			b.Fatalf("%d reviews in scope, want 1", len(s.src.disk))
		}
		runtime.KeepAlive(s)
	}
	b.ReportMetric(scoped/(1<<20), "scoped-MB")
	b.ReportMetric(parsed/(1<<20), "parse-MB")
	b.ReportMetric(scoped/parsed, "scoped/parse")
}
