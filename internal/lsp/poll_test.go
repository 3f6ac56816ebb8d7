package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestPollNoticesASourceSaved: a client that registers no file watchers
// (Neovim on Linux) is told of a source file saved outside the review
// all the same: the server looks at the reviewed files itself, and
// source-changed follows within two seconds of the save, without any
// message from the client.
func TestPollNoticesASourceSaved(t *testing.T) {
	root, review := testreviews.WorktreeRepo(t, 0, "")
	c := newTestClient(t, Options{Poll: 50 * time.Millisecond})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	initializeIn(c, root, caps, nil)
	s := &wtSession{t: t, c: c, root: root, uri: protocol.DocumentURI(uri.File(review)), source: filepath.Join(root, "internal", "api", "handler.go")}
	c.open(s.uri, testreviews.WorktreeReview)
	s.waitCodes()
	// The first publish reads the files on the side; wait until the
	// server polls them, then save the source as an editor would.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.srv.wt.mu.Lock()
		n := len(c.srv.wt.polled[s.uri])
		c.srv.wt.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the review's files were never polled")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(120 * time.Millisecond) // two rounds: the file's first stamp is seen
	saved := time.Now()
	later := saved.Add(time.Hour)
	if err := os.WriteFile(s.source, []byte(testreviews.WorktreeSource(0, "    result, err := calculate(input, opts)")), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(s.source, later, later)
	s.waitCodes(exchange.CodeSourceChanged)
	if took := time.Since(saved); took > 2*time.Second {
		t.Errorf("source-changed came %v after the save, want within 2s", took)
	}
}
