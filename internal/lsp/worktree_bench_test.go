package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// writeRightImages writes, under root, each file of the review's patch as
// its RIGHT image: the patch's RIGHT lines at their numbers, distinct
// filler lines around them. The working tree is then the reviewed
// revision.
func writeRightImages(b *testing.B, root string, review []byte) int {
	b.Helper()
	rep := anchor.CheckDocument(exchange.Parse(review), nil)
	n := 0
	for _, f := range rep.Index.Files {
		if f.NewName == "" || f.Status == anchor.DeletedFile {
			continue
		}
		var lines []string
		for h := range f.Hunks {
			for _, l := range f.Hunks[h].Lines {
				if !l.In(anchor.Right) {
					continue
				}
				for len(lines) < int(l.New) {
					lines = append(lines, fmt.Sprintf("// %s filler %d", f.NewName, len(lines)+1))
				}
				lines[l.New-1] = f.Content(l)
			}
		}
		name := filepath.Join(root, filepath.FromSlash(f.NewName))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

// BenchmarkOpenWithWorktree opens the generated review and waits for its
// diagnostics in a new session, alternately without a working tree and
// in a workspace holding its 200 source files (read for the first time
// by each session), and reports the ratio of the two: the working tree
// must cost at most a fifth more (root/none ≤ 1.2).
func BenchmarkOpenWithWorktree(b *testing.B) {
	src := generatedReview()
	root := b.TempDir()
	if files := writeRightImages(b, root, src); files < 150 {
		b.Fatalf("wrote %d source files, want about 200", files)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	plain := b.TempDir()
	open := func(dir string, folders bool) time.Duration {
		c := newTestClient(b, Options{})
		c.versionsOnly = true
		params := map[string]any{"processId": nil, "capabilities": map[string]any{}}
		if folders {
			params["workspaceFolders"] = []any{map[string]any{"uri": uri.File(dir), "name": "repo"}}
		}
		c.mustCall("initialize", params, nil)
		c.notifyServer("initialized", map[string]any{})
		u := protocol.DocumentURI(uri.File(filepath.Join(dir, "bench.review.json")))
		start := time.Now()
		c.open(u, string(src))
		c.waitDiagnostics(u, 1)
		d := time.Since(start)
		c.shutdown()
		return d
	}
	var none, withRoot time.Duration
	for b.Loop() {
		none += open(plain, false)
		withRoot += open(root, true)
	}
	b.ReportMetric(float64(none.Milliseconds())/float64(b.N), "none-ms/op")
	b.ReportMetric(float64(withRoot.Milliseconds())/float64(b.N), "root-ms/op")
	b.ReportMetric(float64(withRoot)/float64(none), "root/none")
}
