package lsp

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestStalledClientKeepsNoVersion: while the client reads nothing (an
// editor busy for a while), the server goes on analyzing the edits and
// keeps the newest publish for when it reads again, not one per version:
// a publish waiting for the writer held its version's snapshot (its text
// and analysis),
// hundreds of megabytes after a few seconds of typing into a large
// review. Once the client reads, the last version's diagnostics come.
func TestStalledClientKeepsNoVersion(t *testing.T) {
	uri := protocol.DocumentURI("file:///w/stall.review.json")
	c, gate, p := openStalled(t, uri, reviewgen.Config{Files: 3, DiffLines: 300, Comments: 10, Seed: 5})
	const last = 21
	var versions []weak.Pointer[snapshot]
	for v := int32(2); v <= last; v++ {
		c.change(uri, v, &protocol.Range{Start: p, End: p}, "x")
		sn := c.latestSnapshot(uri, v)
		<-sn.done // analyzed, then published or left for the client
		versions = append(versions, weak.Make(sn))
	}
	// Versions 2 to 20 are neither the latest nor its analysis.
	deadline := time.Now().Add(10 * time.Second)
	for v := 2; v < last; v++ {
		for versions[v-2].Value() != nil && time.Now().Before(deadline) {
			runtime.GC()
		}
		if versions[v-2].Value() != nil {
			t.Errorf("version %d is alive while the client does not read", v)
		}
	}
	close(gate)
	c.waitDiagnostics(uri, last)
}

// openStalled opens a generated review as uri, waits for its
// diagnostics, then stalls the client's reading until gate is closed. p is
// where the last comment's body begins.
func openStalled(t *testing.T, uri protocol.DocumentURI, cfg reviewgen.Config) (c *testClient, gate chan struct{}, p protocol.Position) {
	src := string(reviewgen.Generate(cfg))
	c = newTestClient(t, Options{})
	c.initialize()
	c.open(uri, src)
	c.waitDiagnostics(uri, 1)
	gate = make(chan struct{})
	c.mu.Lock()
	c.stall = gate
	c.mu.Unlock()
	at := strings.LastIndex(src, `"body": "`) + len(`"body": "`)
	return c, gate, Converter{M: exchange.NewMapper([]byte(src)), Enc: exchange.UTF16}.Position(at)
}

// latestSnapshot waits until version v of uri is the server's latest, and
// returns it.
func (c *testClient) latestSnapshot(uri protocol.DocumentURI, v int32) *snapshot {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c.srv.mu.Lock()
		var sn *snapshot
		if f := c.srv.files[uri]; f != nil && f.latest.version == v {
			sn = f.latest
		}
		c.srv.mu.Unlock()
		if sn != nil {
			return sn
		}
		time.Sleep(time.Millisecond)
	}
	c.t.Fatalf("version %d of %s never came", v, uri)
	return nil
}

// TestStalledClientGetsTheCloseLast: a document closed while the client
// does not read, with a publish of its last version waiting, ends with the
// empty list the close sends, whichever of the two the server writes
// first once the client reads again.
func TestStalledClientGetsTheCloseLast(t *testing.T) {
	uri := protocol.DocumentURI("file:///w/close.review.json")
	c, gate, p := openStalled(t, uri, reviewgen.Config{Files: 2, DiffLines: 100, Comments: 4, Seed: 6})
	for v := int32(2); v <= 6; v++ {
		c.change(uri, v, &protocol.Range{Start: p, End: p}, "x")
		<-c.latestSnapshot(uri, v).done
	}
	c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	close(gate)
	c.mustCall("shutdown", nil, nil) // answered after what the server wrote before
	c.mu.Lock()
	defer c.mu.Unlock()
	got := c.diagnostics[uri]
	if len(got) == 0 || len(got[len(got)-1].Diagnostics) != 0 {
		t.Fatalf("the last publish of the closed document is %+v, want the empty list", got[len(got)-1:])
	}
}
