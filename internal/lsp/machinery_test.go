package lsp

import (
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestMachinerySuggestionNotOffered: a review whose suggestions rewrite
// .git/config and .vscode/tasks.json gets no "Apply" action, the command
// sent anyway is refused saying why, and the hover says why too.
func TestMachinerySuggestionNotOffered(t *testing.T) {
	root, review := testreviews.MachineryRepo(t)
	c := newTestClient(t, Options{})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	initializeIn(c, root, caps, nil)
	u := protocol.DocumentURI(uri.File(review))
	c.open(u, testreviews.MachineryReview)
	c.waitDiagnostics(u, 1)
	text := testreviews.MachineryReview
	end := navPosition(text, len(text), exchange.UTF16)
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u},
		"range":        protocol.Range{End: end},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	for _, a := range actions {
		if strings.Contains(a.Title, "suggestion") {
			t.Errorf("offered %q", a.Title)
		}
	}
	err := c.call("workspace/executeCommand", map[string]any{"command": CommandApplySuggestion, "arguments": []any{u, 0, "c1"}}, nil)
	if err == nil || !strings.Contains(err.Error(), `".git" is git's repository data`) {
		t.Errorf("executeCommand %s: got %v, want a refusal saying .git is git's repository data", CommandApplySuggestion, err)
	}
	var h protocol.Hover
	c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": navPosition(text, strings.Index(text, "Keep filemode")+1, exchange.UTF16)}, &h)
	if !strings.Contains(h.Contents.Value, "The suggestion cannot be applied") || !strings.Contains(h.Contents.Value, "git's repository data") {
		t.Errorf("hover on c1: got %q, want it to say why the suggestion cannot be applied", h.Contents.Value)
	}
	if len(c.applied) != 0 {
		t.Errorf("got %d workspace/applyEdit requests, want none", len(c.applied))
	}
}

// TestPanicInBackgroundTaskIsLogged: a panic on one of the server's own
// goroutines (a publish, a watcher) is logged, and the session goes on.
func TestPanicInBackgroundTaskIsLogged(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	done := make(chan struct{})
	c.srv.spawn(func() {
		defer close(done)
		panic("a bug of the task")
	})
	<-done
	u := protocol.DocumentURI("file:///tmp/ok.review.json")
	c.open(u, exampleReview)
	if ds := c.waitDiagnostics(u, 1); len(ds) == 0 {
		t.Errorf("no diagnostics after the panic; want the example's warning")
	}
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		logged := strings.Join(c.logs, "\n")
		c.mu.Unlock()
		if strings.Contains(logged, "panic in a background task: a bug of the task") {
			break
		}
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatalf("log messages %q do not mention the panic", logged)
		}
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
