package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// versionsReview is a small review whose lines the version tests edit.
const versionsReview = "{\n  \"leanreview_review\": 1,\n  \"title\": \"t\",\n  \"patch\": [],\n  \"comments\": []\n}\n"

// docText is the server's text of an open review.
func docText(c *testClient, u protocol.DocumentURI) string {
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	f := c.srv.files[u]
	if f == nil {
		return ""
	}
	return f.latest.text.String(0, f.latest.text.Len())
}

// waitLog waits for a logMessage holding what.
func waitLog(t *testing.T, c *testClient, what string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		for _, l := range c.logs {
			if strings.Contains(l, what) {
				c.mu.Unlock()
				return
			}
		}
		logs := strings.Join(c.logs, "\n")
		c.mu.Unlock()
		select {
		case <-c.notify:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no log holding %q; the logs:\n%s", what, logs)
		}
	}
}

func pos(line, char uint32) *protocol.Range {
	return &protocol.Range{Start: protocol.Position{Line: line, Character: char}, End: protocol.Position{Line: line, Character: char}}
}

// TestChangesOutOfOrder: version 3 sent before version 2 (Helix typing
// fast) is held until 2 arrives, then both are applied in order: the
// text is the editor's, and version 3 is published.
func TestChangesOutOfOrder(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	u := protocol.DocumentURI("file:///w/order.review.json")
	c.open(u, versionsReview)
	c.waitDiagnostics(u, 1)
	// Version 2 adds a summary line; version 3 types inside it.
	c.change(u, 3, pos(3, 15), "abc")
	c.change(u, 2, pos(3, 0), "  \"summary\": \"s\",\n")
	c.waitDiagnostics(u, 3)
	want := strings.Replace(versionsReview, "  \"patch\"", "  \"summary\": \"sabc\",\n  \"patch\"", 1)
	if got := docText(c, u); got != want {
		t.Fatalf("text after versions 3 then 2:\n%s\nwant\n%s", got, want)
	}
	for _, d := range c.waitDiagnostics(u, 3) {
		if d.Severity == protocol.DiagnosticSeverityError {
			t.Errorf("version 3: got the error %q, want none", d.Message)
		}
	}
}

// TestChangesDuplicateAndBack: a version sent twice, or one that goes
// back, is logged, and the ranged changes after it are not applied to a
// text they were not made for: the document is read again from its next
// full-text change.
func TestChangesDuplicateAndBack(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	u := protocol.DocumentURI("file:///w/dup.review.json")
	c.open(u, versionsReview)
	c.waitDiagnostics(u, 1)
	c.change(u, 2, pos(2, 13), "x")
	c.waitDiagnostics(u, 2)
	c.change(u, 2, pos(2, 13), "x") // the same version again
	waitLog(t, c, "version 2 after version 2")
	c.change(u, 3, pos(2, 13), "y") // ignored: the text is no longer known
	full := strings.Replace(versionsReview, "\"t\"", "\"full\"", 1)
	c.change(u, 4, nil, full)
	c.waitDiagnostics(u, 4)
	if got := docText(c, u); got != full {
		t.Fatalf("after the full text:\n%s\nwant\n%s", got, full)
	}
	// Ranged changes apply again; one that goes back is lost too.
	c.change(u, 5, pos(2, 13), "z")
	c.waitDiagnostics(u, 5)
	c.change(u, 1, pos(2, 13), "w")
	waitLog(t, c, "version 1 after version 5")
	c.change(u, 6, nil, versionsReview)
	c.waitDiagnostics(u, 6)
	if got := docText(c, u); got != versionsReview {
		t.Fatalf("after going back and a full text:\n%s\nwant\n%s", got, versionsReview)
	}
}

// TestChangesGap: a version after a gap that never fills is applied once
// it was waited for, the gap logged (LSP lets versions skip numbers, as
// Neovim's do); the missing version arriving after is lost, not merged.
func TestChangesGap(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	u := protocol.DocumentURI("file:///w/gap.review.json")
	c.open(u, versionsReview)
	c.waitDiagnostics(u, 1)
	c.change(u, 4, pos(2, 13), "x")
	c.waitDiagnostics(u, 4)
	waitLog(t, c, "version 4 follows version 1")
	if got, want := docText(c, u), strings.Replace(versionsReview, "\"t\"", "\"tx\"", 1); got != want {
		t.Fatalf("after the gap:\n%s\nwant\n%s", got, want)
	}
	c.change(u, 2, pos(2, 13), "y")
	waitLog(t, c, "version 2 after version 4")
	c.change(u, 5, pos(2, 13), "z") // ignored until a full text
	c.change(u, 6, nil, versionsReview)
	c.waitDiagnostics(u, 6)
	if got := docText(c, u); got != versionsReview {
		t.Fatalf("got\n%s\nwant\n%s", got, versionsReview)
	}
}

// TestRequestAfterASkippedVersion: Neovim's versions skip numbers (its
// changedtick); a request sent right after such a change is answered for
// the text with that change, not for the text before it, which the
// change would have waited behind for its gap.
func TestRequestAfterASkippedVersion(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	u := protocol.DocumentURI("file:///w/skip.review.json")
	c.open(u, versionsReview)
	c.waitDiagnostics(u, 1)
	outline := func() string {
		var syms []protocol.DocumentSymbol
		c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
		var names []string
		for _, s := range syms {
			names = append(names, s.Name, s.Detail)
		}
		return strings.Join(names, " | ")
	}
	before := outline()
	// Versions 2 to 6 skipped: the comment comes with version 7.
	c.change(u, 7, pos(4, 15), `{"id": "c9", "path": "a.go", "side": "RIGHT", "start_line": 1, "body": "hello"}`)
	if got := outline(); got == before {
		t.Errorf("the outline right after version 7 is the one before it (%q): want the comment version 7 added", got)
	}
}

// TestSourceChangesOutOfOrder: a source file's changes sent out of order
// are applied in order: the comment below them moves by both.
func TestSourceChangesOutOfOrder(t *testing.T) {
	root, lines := trackRepo(t)
	c := newTestClient(t, Options{})
	initializeIn(c, root, fullCapabilities("utf-16"), nil)
	source := protocol.DocumentURI(uri.File(filepath.Join(root, "main.go")))
	c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": source, "languageId": "go", "version": 1, "text": strings.Join(lines, "\n") + "\n"}})
	c.waitDiagnostics(source, 1)
	// Version 2 types `\t}` at the start of r1's line, version 3 breaks
	// it off with Enter; 3 arrives first.
	c.change(source, 3, pos(44, 2), "\n")
	c.change(source, 2, pos(44, 0), "\t}")
	got := placedLines(c.waitDiagnostics(source, 3))
	if w := "r1 46-46, r2 47-48, r3 57-57"; strings.Join(got, ", ") != w {
		t.Fatalf("got %q, want %s", got, w)
	}
}

// TestChangeBeforeOpen: Helix sends the didChange of an edit to a file it
// opens for that edit before the file's didOpen (version 1, then the
// didOpen of version 0 with the text before the edit). The change is held
// for the open and applied after it: the text is the editor's, and
// version 1 is published.
func TestChangeBeforeOpen(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	u := protocol.DocumentURI("file:///w/early.review.json")
	c.change(u, 1, pos(3, 0), "  \"summary\": \"s\",\n")
	c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": "lreview", "version": 0, "text": versionsReview}})
	c.waitDiagnostics(u, 1)
	want := strings.Replace(versionsReview, "  \"patch\"", "  \"summary\": \"s\",\n  \"patch\"", 1)
	if got := docText(c, u); got != want {
		t.Fatalf("text after the change then the open:\n%s\nwant\n%s", got, want)
	}
}
