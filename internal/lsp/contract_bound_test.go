package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
)

// waitFor waits until cond holds, or fails after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestContractComparisonBounded: issue 44 — every edit of the
// description's hunk started a comparison that ran to its end beside the
// earlier ones (four edits, 91 s of CPU, 2.7 GB), and exit waited for the
// one under way. Now the edits made while one comparison runs start one
// more at most, the last version's, whose verdict is published; and the
// exit returns while a comparison still runs.
func TestContractComparisonBounded(t *testing.T) {
	wide := contracttest.Wide(600).YAML()
	repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {"", wide}})
	c := newTestClient(t, Options{})
	c.mustCall("initialize", map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(repo.Root), "name": "repo"}},
		"capabilities":     fullCapabilities("utf-16"),
	}, nil)
	c.notifyServer("initialized", map[string]any{})
	u := protocol.DocumentURI(uri.File(repo.ReviewFile))
	cache := &c.srv.contracts.cache
	c.open(u, repo.Review)
	waitFor(t, "the first comparison to start", func() bool { runs, _ := cache.Stats(); return runs == 1 })

	const title = `"+  \"title\": \"wide\""`
	if !strings.Contains(repo.Review, title) {
		t.Fatalf("no %s in the review", title)
	}
	for v := int32(2); v <= 4; v++ {
		c.change(u, v, nil, strings.Replace(repo.Review, title, strings.Replace(title, "wide", fmt.Sprintf("wide v%d", v), 1), 1))
	}
	ds := c.waitDiagnostics(u, 4)
	v := verdictOf(ds)
	if v == nil || !strings.Contains(v.Message, "contract: pass") {
		t.Fatalf("the last version's verdict: got %+v", v)
	}
	if runs, pending := cache.Stats(); runs != 2 || pending != 0 {
		t.Errorf("runs %d, pending %d: want the first version's comparison and the last one's, no other", runs, pending)
	}

	// One more edit starts a comparison; the exit does not wait for it.
	c.change(u, 5, nil, strings.Replace(repo.Review, title, strings.Replace(title, "wide", "wide v5", 1), 1))
	waitFor(t, "the third comparison to start", func() bool { runs, _ := cache.Stats(); return runs == 3 })
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if _, pending := cache.Stats(); pending != 1 {
		t.Errorf("pending %d after the exit: want the comparison still running, not waited for", pending)
	}
}
