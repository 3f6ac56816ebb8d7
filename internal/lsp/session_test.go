package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// slowReview is a review on one long line with a diagnostic per comment:
// analyzing it is quick, but converting each diagnostic's offsets to
// UTF-16 positions scans the line, so publishing it takes a while. That
// is the window the publishing races live in.
func slowReview() string {
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1, "patch": ["diff --git a/a b/a", "--- a/a", "+++ b/a", "@@ -1 +1 @@", "-x", "+y"], "comments": [`)
	for i := range 150 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"id": "c%d", "path": "a", "side": "RIGHT", "start_line": 1, "body": "%s", "snippet": "zz"}`, i, strings.Repeat("é", 500))
	}
	b.WriteString("]}")
	return b.String()
}

// analyzed waits until the server has analyzed the latest version of uri.
func (c *testClient) analyzed(uri protocol.DocumentURI) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c.srv.mu.Lock()
		var sn *snapshot
		if f := c.srv.files[uri]; f != nil {
			sn = f.latest
		}
		c.srv.mu.Unlock()
		if sn != nil {
			select {
			case <-sn.done:
				return
			default:
			}
		}
		time.Sleep(time.Millisecond)
	}
	c.t.Fatalf("%s was never analyzed", uri)
}

// drain ends the session and waits until the client has handled every
// message the server sent. The server's exit waits for its running
// analyses and publishes, the client handles messages in stream order,
// and its connection is done only after the last one: once drain returns,
// the publishes recorded are all the server will ever send, with no
// window of silence to guess.
func (c *testClient) drain() {
	c.t.Helper()
	if code := c.shutdown(); code != 0 {
		c.t.Fatalf("server exited with %d, want 0", code)
	}
	c.serverWrite.Close()
	select {
	case <-c.conn.Done():
	case <-time.After(10 * time.Second):
		c.t.Fatal("the client never read the end of the server's stream")
	}
}

// lastPublished returns the last diagnostics received for uri.
func (c *testClient) lastPublished(uri protocol.DocumentURI) (publishedDiagnostics, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	list := c.diagnostics[uri]
	if len(list) == 0 {
		return publishedDiagnostics{}, false
	}
	return list[len(list)-1], true
}

// TestCloseIsTheLastWord closes a document while its diagnostics are
// being published: the last diagnostics the client gets for it must be
// the empty list of didClose, or the editor shows problems for a file
// nobody has open.
func TestCloseIsTheLastWord(t *testing.T) {
	c := newTestClient(t, Options{Debounce: time.Microsecond})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/close.review.json")
	c.open(uri, slowReview())
	c.analyzed(uri)
	c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.waitDiagnostics(uri, 0)
	c.drain()
	if last, ok := c.lastPublished(uri); !ok || last.Version != 0 || len(last.Diagnostics) != 0 {
		t.Errorf("got %d diagnostics of version %d last (any: %v), want the empty list of didClose last", len(last.Diagnostics), last.Version, ok)
	}
}

// TestLatestVersionIsTheLastWord replaces a document while the previous
// version's diagnostics are being published: the last diagnostics the
// client gets must be the new version's, never the old one's, late.
func TestLatestVersionIsTheLastWord(t *testing.T) {
	c := newTestClient(t, Options{Debounce: time.Microsecond})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/latest.review.json")
	c.open(uri, slowReview())
	c.analyzed(uri)
	c.change(uri, 2, nil, exampleReview)
	c.waitDiagnostics(uri, 2)
	c.drain()
	if last, _ := c.lastPublished(uri); last.Version != 2 {
		t.Errorf("got version %d diagnostics last, want version 2's", last.Version)
	}
}

// TestSettingsParseLeavesTheCurrentValueAlone: a settings change that
// fails to parse keeps the current settings, untouched; and the slice it
// returns is its own, since publishers read it after unlocking.
func TestSettingsParseLeavesTheCurrentValueAlone(t *testing.T) {
	cur := parseSettings(json.RawMessage(`{"diagnostics": {"disabled": ["id-missing", "unknown-field"]}}`), Settings{})
	got := parseSettings(json.RawMessage(`{"diagnostics": {"disabled": ["schema", 5]}}`), cur)
	if want := []string{"id-missing", "unknown-field"}; fmt.Sprint(cur.Diagnostics.Disabled) != fmt.Sprint(want) || fmt.Sprint(got.Diagnostics.Disabled) != fmt.Sprint(want) {
		t.Errorf("after a malformed change: got current %v, returned %v, want both %v", cur.Diagnostics.Disabled, got.Diagnostics.Disabled, want)
	}
	for _, raw := range []string{``, `null`, `{}`, `{"gopls": {"author": "x"}}`, `[1]`, `{"lreview": 5}`} {
		if got := parseSettings(json.RawMessage(raw), cur); fmt.Sprint(got) != fmt.Sprint(cur) {
			t.Errorf("settings %s: got %+v, want the current %+v", raw, got, cur)
		}
	}
	next := parseSettings(json.RawMessage(`{"lreview": {"diagnostics": {"disabled": ["syntax"]}}}`), cur)
	if fmt.Sprint(next.Diagnostics.Disabled) != "[syntax]" || fmt.Sprint(cur.Diagnostics.Disabled) != "[id-missing unknown-field]" {
		t.Errorf("after a good change: got new %v and old %v, want [syntax] and the old list unchanged", next.Diagnostics.Disabled, cur.Diagnostics.Disabled)
	}
}

// TestSettingsChangeRefilters: silencing a code republishes the open
// documents without it, and enabling it again brings it back.
func TestSettingsChangeRefilters(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/s.review.json")
	c.open(uri, exampleReview)
	if got := codes(c.waitDiagnostics(uri, 1)); !contains(got, "hunk-count-mismatch") {
		t.Fatalf("got codes %v, want hunk-count-mismatch", got)
	}
	configure := func(disabled []string) []string {
		c.mu.Lock()
		c.diagnostics[uri] = nil
		c.mu.Unlock()
		c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{"diagnostics": map[string]any{"disabled": disabled}}}})
		return codes(c.waitDiagnostics(uri, 1))
	}
	if got := configure([]string{"hunk-count-mismatch"}); contains(got, "hunk-count-mismatch") {
		t.Errorf("silenced: got codes %v, want no hunk-count-mismatch", got)
	}
	if got := configure([]string{}); !contains(got, "hunk-count-mismatch") {
		t.Errorf("enabled again: got codes %v, want hunk-count-mismatch", got)
	}
	configure([]string{"hunk-count-mismatch"})
	// A client sends its whole current settings: a member left out (here
	// by a Neovim user who removed `diagnostics` from setup()) is back to
	// its default, not stuck at its last value.
	c.mu.Lock()
	c.diagnostics[uri] = nil
	c.mu.Unlock()
	c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{"author": "me"}}})
	if got := codes(c.waitDiagnostics(uri, 1)); !contains(got, "hunk-count-mismatch") {
		t.Errorf("settings without diagnostics: got codes %v, want hunk-count-mismatch back", got)
	}
}

var blockedRunning atomic.Int32

// TestExitEndsRequestsInFlight: once Serve returns, no handler of the
// session is still running (the process is about to exit, and an
// embedding program must not leak them).
func TestExitEndsRequestsInFlight(t *testing.T) {
	c := newRawClient(t)
	c.callID(1, "initialize", map[string]any{"capabilities": map[string]any{}})
	c.response(1)
	c.callID(2, "lreview/test/blockCounted", nil)
	deadline := time.Now().Add(5 * time.Second)
	for blockedRunning.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	c.callID(3, "shutdown", nil)
	c.response(3)
	c.notify("exit", nil)
	if code := c.exitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if n := blockedRunning.Load(); n != 0 {
		t.Errorf("got %d requests still running after Serve returned, want 0", n)
	}
}

// TestAnalysisPanicIsAnError: a bug in the analysis must not take the
// server down (it runs outside any request's recover) nor leave requests
// waiting forever for an analysis that will never come.
func TestAnalysisPanicIsAnError(t *testing.T) {
	sn := newSnapshot(context.Background(), "file:///tmp/p.review.json", 1, exchange.NewText([]byte(exampleReview)), 0, nil)
	sn.analyze = func(context.Context, exchange.Text, *exchange.Mapper, *anchor.Analysis, *exchange.Change) (*anchor.Analysis, error) {
		panic("analysis bug")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	an, err := sn.analysis(ctx)
	if ctx.Err() != nil {
		t.Fatal("analysis never finished")
	}
	if an != nil || err == nil || !strings.Contains(err.Error(), "analysis bug") {
		t.Errorf("got analysis %v, error %v; want no analysis and an error naming the panic", an, err)
	}
	// The next caller gets the same answer at once.
	if _, err2 := sn.analysis(ctx); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("second call: got %v, want %v", err2, err)
	}
}

// TestOneMapperPerVersion: the analysis of a version maps positions with
// the mapper its snapshot holds, on open and after an edit, rather than
// indexing the text's lines a second time (on an 8 MB review, half a
// megabyte kept for as long as it is open).
func TestOneMapperPerVersion(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/mapper.review.json")
	c.open(uri, driftReview("71"))
	c.waitDiagnostics(uri, 1)
	c.change(uri, 2, &protocol.Range{}, " ")
	c.waitDiagnostics(uri, 2)
	c.srv.mu.Lock()
	sn := c.srv.files[uri].latest
	c.srv.mu.Unlock()
	an := sn.analyzed()
	if an == nil {
		t.Fatal("version 2 published diagnostics but holds no analysis")
	}
	if got := an.Doc.Mapper(); got != sn.mapper {
		t.Errorf("version %d: the analysis maps with its own mapper %p, want the snapshot's %p", sn.version, got, sn.mapper)
	}
}
