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
// revision, but for the lines of the first active RIGHT comment, which
// changed since (one source-changed, the sign that the working tree's
// diagnostics are in).
func writeRightImages(b *testing.B, root string, review []byte) int {
	b.Helper()
	an := anchor.CheckDocument(exchange.Parse(review), nil)
	changed := map[*anchor.FileDiff]map[int32]bool{}
	for _, r := range an.Anchors.Resolutions {
		if r.Resolved && r.Side == anchor.Right && r.Comment.StateNorm() == exchange.StateActive {
			lines := map[int32]bool{}
			for _, l := range r.Lines() {
				lines[l.New] = true
			}
			changed[r.File] = lines
			break
		}
	}
	n := 0
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
					lines = append(lines, fmt.Sprintf("// %s filler %d", f.NewName, len(lines)+1))
				}
				lines[l.New-1] = f.Content(an.Index.Patch, f.Hunks[h].PatchLine(j))
				if changed[f][l.New] {
					lines[l.New-1] = fmt.Sprintf("// line %d changed since the review", l.New)
				}
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
// must cost at most a fifth more (root/none ≤ 1.2). The working tree's
// own diagnostics come in a second publish once its files are read: the
// time to that one is reported too (root-all-ms, and all/none).
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
	// open returns the time to the first publish and to the publishes-th.
	open := func(dir string, folders bool) (first, all time.Duration) {
		c := newTestClient(b, Options{})
		c.versionsOnly = true
		c.marker = []byte(`"code":"source-changed"`)
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
		first = time.Since(start)
		if folders {
			c.waitMarked(u)
		}
		all = time.Since(start)
		c.shutdown()
		return first, all
	}
	var none, withRoot, withRootAll time.Duration
	for b.Loop() {
		n, _ := open(plain, false)
		r, ra := open(root, true)
		none, withRoot, withRootAll = none+n, withRoot+r, withRootAll+ra
	}
	b.ReportMetric(float64(none.Milliseconds())/float64(b.N), "none-ms/op")
	b.ReportMetric(float64(withRoot.Milliseconds())/float64(b.N), "root-ms/op")
	b.ReportMetric(float64(withRootAll.Milliseconds())/float64(b.N), "root-all-ms/op")
	b.ReportMetric(float64(withRoot)/float64(none), "root/none")
	b.ReportMetric(float64(withRootAll)/float64(none), "all/none")
}

// waitMarked waits for a publish of uri holding the client's marker.
func (c *testClient) waitMarked(u protocol.DocumentURI) {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		got := c.marked[u]
		c.mu.Unlock()
		if got {
			return
		}
		select {
		case <-c.notify:
		case <-deadline:
			c.t.Fatalf("%s: no publish holds %s", u, c.marker)
		}
	}
}
