package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestSourcePublishesLatestWins: a burst of publishes on one source file
// while the writer is busy (a client that does not read) leaves the
// newest alone waiting: the client gets it, not one per publish.
func TestSourcePublishesLatestWins(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/src/main.go")
	const last = 7
	c.srv.pubMu.Lock() // the writer is busy
	for v := uint32(1); v <= last; v++ {
		c.srv.sendSource(protocol.PublishDiagnosticsParams{URI: uri, Version: v, Diagnostics: []protocol.Diagnostic{{
			Severity: protocol.DiagnosticSeverityInformation, Source: "lreview", Message: fmt.Sprintf("comment %d", v),
		}}})
	}
	c.srv.unlockPub() // sends what waits
	c.waitDiagnostics(uri, last)
	c.mustCall("shutdown", nil, nil) // a round trip: whatever was sent has come
	c.mu.Lock()
	var got []int32
	for _, p := range c.diagnostics[uri] {
		got = append(got, p.Version)
	}
	c.mu.Unlock()
	if want := []int32{last}; !slices.Equal(got, want) {
		t.Errorf("got publishes of versions %v, want %v", got, want)
	}
}

// TestOneHome: one file of the package does each of these jobs, so that
// every publishDiagnostics goes through the publisher's queue (latest
// wins per URI) and its encoder, and every file watched goes through one
// registration and one poller.
func TestOneHome(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	homes := map[string]string{
		`textDocument/publishDiagnostics"`: "publish.go",
		"WriteStream(":                     "publish.go",
		`Capability"`:                      "watch.go", // client/registerCapability, client/unregisterCapability
		"NewTicker(":                       "watch.go",
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for what, home := range homes {
			if name != home && strings.Contains(string(src), what) {
				t.Errorf("%s holds %s: its one home is %s", name, what, home)
			}
		}
	}
}
