package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/visual/visualtest"
)

func TestMain(m *testing.M) {
	visualtest.Main() // run as flutter: the fake, then exit
	os.Exit(m.Run())
}

// TestVisualAxisInTheBackground opens a review that changes a widget's
// colour, on a host whose flutter is the fake: the first publish shows
// the visual axis partial while the images render in the background (it
// does not wait for flutter), then a publish of the same version shows
// them compared; a later version's publish reads them from the memo and
// runs no flutter.
func TestVisualAxisInTheBackground(t *testing.T) {
	log := visualtest.Install(t)
	t.Setenv(visualtest.EnvSleep, "300ms") // each run: the first publish is sent long before
	r, _, review := visualtest.GoldenRepo(t)
	reviewPath := filepath.Join(r.Root, "pr.review.json")
	if err := os.WriteFile(reviewPath, review, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, Options{})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"codeLens": map[string]any{"refreshSupport": true}}
	c.mustCall("initialize", map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(r.Root), "name": "repo"}},
		"capabilities":     caps,
	}, nil)
	c.notifyServer("initialized", map[string]any{})
	u := protocol.DocumentURI(uri.File(reviewPath))
	c.open(u, string(review))
	const axes = "contract: n/a · correctness, security, test gap: unavailable (not finalized) · "
	d := diagOf(c.waitDiagnostics(u, 1), verdict.Code)
	if want := axes + "visual: partial (rendering the golden images) · verdict: Hold"; d == nil || d.Message != want {
		t.Fatalf("first publish: got %+v, want %q", d, want)
	}
	rendered := axes + "visual: fail (1 changed, 1 removed, 1 added, 1 unchanged: approve them (visual: approved — <snapshot>) or fix) · verdict: Block"
	waitDiagnostic(t, c, u, 1, verdict.Code, rendered)
	// The lens said "rendering": the client is asked for its lenses again.
	waitLensRefresh(t, c)
	if got := lensTitles(t, c, u); !containsString(got, rendered) {
		t.Errorf("lens after the render: got %q, want %q among them", got, rendered)
	}
	if runs := visualtest.Runs(t, log); len(runs) != 4 {
		t.Errorf("flutter ran %d times, want 4: %q", len(runs), runs)
	}
	c.change(u, 2, nil, string(review))
	if d := diagOf(c.waitDiagnostics(u, 2), verdict.Code); d == nil || d.Message != rendered {
		t.Errorf("version 2: got %+v, want %q", d, rendered)
	}
	if runs := visualtest.Runs(t, log); len(runs) != 4 {
		t.Errorf("a publish ran flutter: %d runs, want 4", len(runs))
	}
}

// waitDiagnostic waits for a publish of version with a diagnostic of
// code that reads want: one computed in the background comes with a
// later publish of the same version.
func waitDiagnostic(t *testing.T, c *testClient, u protocol.DocumentURI, version int32, code, want string) *protocol.Diagnostic {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		for _, p := range c.diagnostics[u] {
			if d := diagOf(p.Diagnostics, code); p.Version == version && d != nil && d.Message == want {
				c.mu.Unlock()
				return d
			}
		}
		c.mu.Unlock()
		select {
		case <-c.notify:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no publish of version %d with %s %q", version, code, want)
		}
	}
}
