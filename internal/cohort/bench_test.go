package cohort

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// BenchmarkShapeVsCheck measures, on the generated 8 MB review (200
// files) with its RIGHT images as a working tree, what `check` costs (parse
// and analysis) and what the shape costs after it (the tree's graph from
// nothing, the cohorts and blast radius), and reports shape/check: the
// issue asks ≤ 1.
func BenchmarkShapeVsCheck(b *testing.B) {
	src := reviewgen.Generate(reviewgen.Default())
	dir := b.TempDir()
	an := anchor.CheckDocument(exchange.Parse(src), nil)
	for _, f := range an.Index.Files {
		if f.NewName == "" || f.Status == anchor.DeletedFile {
			continue
		}
		var lines []string
		for h := range f.Hunks {
			for j, l := range f.Hunks[h].Lines {
				if !l.In(anchor.Right) {
					continue
				}
				for len(lines) < int(l.New) {
					lines = append(lines, fmt.Sprintf("// filler %d", len(lines)+1))
				}
				lines[l.New-1] = f.Content(an.Index.Patch, f.Hunks[h].PatchLine(j))
			}
		}
		name := filepath.Join(dir, filepath.FromSlash(f.NewName))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	var check, shape time.Duration
	cohorts := 0
	for b.Loop() {
		t0 := time.Now()
		an := anchor.CheckDocument(exchange.Parse(src), nil)
		t1 := time.Now()
		g, _ := codegraph.Build(context.Background(), root, codegraph.Limits{}, nil)
		s, _ := Of(an, g, nil)
		t2 := time.Now()
		check += t1.Sub(t0)
		shape += t2.Sub(t1)
		cohorts = len(s.Cohorts)
	}
	b.ReportMetric(float64(check.Milliseconds())/float64(b.N), "check-ms")
	b.ReportMetric(float64(shape.Milliseconds())/float64(b.N), "shape-ms")
	b.ReportMetric(float64(shape)/float64(check), "shape/check")
	b.ReportMetric(float64(cohorts), "cohorts")
}
