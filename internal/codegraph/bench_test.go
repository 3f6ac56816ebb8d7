package codegraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeLargeTree writes a tree of n source files: Go packages of 20 files
// that call into the package before them, and a TypeScript and a Python
// folder for one file in ten.
func writeLargeTree(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("go.mod", "module example.com/big\n")
	for i := range n {
		pkg := i / 20
		switch {
		case i%10 == 8:
			write(fmt.Sprintf("web/p%d/f%d.ts", pkg, i), fmt.Sprintf("import { f%d } from './f%d';\nexport function f%d() { return f%d(); }\n", i-10, i-10, i, i-10))
		case i%10 == 9:
			write(fmt.Sprintf("py/p%d/m%d.py", pkg, i), fmt.Sprintf("from .m%d import g\n\ndef g():\n    return 1\n", i-10))
		default:
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\n", pkg)
			if pkg > 0 {
				fmt.Fprintf(&b, "import prev \"example.com/big/pkg/p%d\"\n\n", pkg-1)
			}
			fmt.Fprintf(&b, "// T%d is a type.\ntype T%d struct{ n int }\n\nfunc (t *T%d) Get() int { return t.n }\n\n", i, i, i)
			for k := range 8 {
				fmt.Fprintf(&b, "func F%d_%d(x int) int {\n\tv := x * %d\n\tfor j := 0; j < v; j++ {\n\t\tv += j\n\t}\n", i, k, k)
				if pkg > 0 {
					fmt.Fprintf(&b, "\tv += prev.F%d_%d(v)\n", (pkg-1)*20, k)
				}
				fmt.Fprintf(&b, "\treturn v + (&T%d{}).Get()\n}\n\n", i)
			}
			write(fmt.Sprintf("pkg/p%d/f%d.go", pkg, i), b.String())
		}
	}
	return dir
}

// BenchmarkBuild10k builds the graph of a 10,000-file tree on one core
// (run with -cpu 1), first from nothing, then again with the cache of the
// first build; it reports the graph's live heap.
func BenchmarkBuild10k(b *testing.B) {
	dir := writeLargeTree(b, 10_000)
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	var g *Graph
	for b.Loop() {
		g, err = Build(context.Background(), root, Limits{}, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
	// The heap with the last graph held: an upper bound of the graph's
	// size, the build's garbage not yet collected counted in.
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc)/(1<<20), "MB-heap-after")
	b.ReportMetric(float64(len(g.Defs)), "defs")
	b.ReportMetric(float64(g.Stats.Parsed), "files")
}

// BenchmarkRebuildCached10k: the build after one with the same cache,
// nothing changed: every file stat'ed, none parsed.
func BenchmarkRebuildCached10k(b *testing.B) {
	dir := writeLargeTree(b, 10_000)
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	cache := &Cache{}
	if _, err := Build(context.Background(), root, Limits{}, cache); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		g, err := Build(context.Background(), root, Limits{}, cache)
		if err != nil || g.Stats.Parsed != 0 {
			b.Fatalf("parsed %d files again (err %v)", g.Stats.Parsed, err)
		}
	}
}

func TestCacheReusesUnchangedFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module m\n", "a/a.go": "package a\nfunc A() {}\n", "b/b.go": "package b\nimport \"m/a\"\nfunc B() { a.A() }\n"})
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cache := &Cache{}
	g1, _ := Build(context.Background(), root, Limits{}, cache)
	if g1.Stats.Parsed != 3 {
		t.Fatalf("first build parsed %d files, want 3", g1.Stats.Parsed)
	}
	if err := os.WriteFile(filepath.Join(dir, "b", "b.go"), []byte("package b\nimport \"m/a\"\n\nfunc B() {\n\ta.A()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g2, _ := Build(context.Background(), root, Limits{}, cache)
	if g2.Stats.Parsed != 1 || g2.Stats.Cached != 2 {
		t.Errorf("second build: parsed %d, cached %d; want 1, 2", g2.Stats.Parsed, g2.Stats.Cached)
	}
	uses := g2.Uses(g2.Lookup("m/a.A")[0])
	if len(uses) != 1 || uses[0].Line != 5 {
		t.Errorf("uses of A after the edit = %+v, want b/b.go:5", uses)
	}
}

func TestLimitsStopTheBuild(t *testing.T) {
	dir := writeLargeTree(t, 60)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	g, err := Build(context.Background(), root, Limits{Files: 10, Entries: 1000, FileBytes: 1 << 20, TotalBytes: 1 << 30, Time: 10e9}, nil)
	if err == nil || g.Truncated != "files" || g.Stats.Files != 10 {
		t.Errorf("files limit: err %v, truncated %q, %d files", err, g.Truncated, g.Stats.Files)
	}
	g, _ = Build(context.Background(), root, Limits{Files: 1000, Entries: 1000, FileBytes: 100, TotalBytes: 1 << 30, Time: 10e9}, nil)
	if g.Stats.Skipped != 48 || g.Stats.Parsed != 13 { // the Go files pass 100 bytes; go.mod, TS and Python do not
		t.Errorf("file bytes limit: parsed %d, skipped %d", g.Stats.Parsed, g.Stats.Skipped)
	}
}
