package lsp

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// TestBodyAsFileForHelix: Helix, which has no way of its own to open a
// body, gets "Edit c1's body as Markdown": the server writes the body to
// a file and shows it; saved, the file's text goes back into the review
// as one JSON string (the line break editors add on saving left out),
// through workspace/applyEdit. Other clients are not offered the action.
func TestBodyAsFileForHelix(t *testing.T) {
	const body = "Return the error 🚀.\n\n```suggestion\n\t\tline -= \"a\\b\"\n```"
	text := strings.Replace(navReview, `"body": "`, `"body": `+jsontext.Quote(body)+`, "x": "`, 1)
	for _, name := range []string{"helix", "other"} {
		c := newTestClient(t, Options{Poll: 20 * time.Millisecond})
		caps := fullCapabilities("utf-16")
		caps["workspace"] = map[string]any{"applyEdit": true}
		c.mustCall("initialize", map[string]any{"clientInfo": map[string]any{"name": name}, "capabilities": caps}, nil)
		uri0 := protocol.DocumentURI("file:///tmp/bodyfile.review.json")
		c.open(uri0, text)
		at := navPosition(text, strings.Index(text, `"body": `)+2, exchange.UTF16)
		var actions []protocol.CodeAction
		c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri0}, "range": protocol.Range{Start: at, End: at}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
		i := slices.IndexFunc(actions, func(a protocol.CodeAction) bool { return a.Title == "Edit 😀1's body as Markdown" })
		if name != "helix" {
			if i >= 0 {
				t.Errorf("%s: offered the body file", name)
			}
			continue
		}
		if i < 0 || actions[i].Command == nil {
			t.Fatalf("no action to edit the body among %v", actions)
		}
		c.mustCall("workspace/executeCommand", map[string]any{"command": actions[i].Command.Command, "arguments": actions[i].Command.Arguments}, nil)
		c.mu.Lock()
		shown := c.shown[len(c.shown)-1]
		c.mu.Unlock()
		file := uri.URI(shown.URI).Filename()
		data, err := os.ReadFile(file)
		if err != nil || string(data) != body+"\n" {
			t.Fatalf("the body file holds %q (%v), want the body and a line break", data, err)
		}
		// Saved by the editor with a new last line (and its final line break).
		later := time.Now().Add(time.Hour)
		if err := os.WriteFile(file, []byte(body+"\nMore.\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(file, later, later)
		var applied []protocol.ApplyWorkspaceEditParams
		deadline := time.Now().Add(10 * time.Second)
		for len(applied) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("the saved body never came back to the review")
			}
			time.Sleep(20 * time.Millisecond) // the server looks every 20 ms
			c.mu.Lock()
			applied = slices.Clone(c.applied)
			c.mu.Unlock()
		}
		after := applyTextEdits(t, text, exchange.UTF16, applied[0].Edit.Changes[uri0])
		if want := strings.Replace(text, jsontext.Quote(body), jsontext.Quote(body+"\nMore."), 1); after != want {
			t.Errorf("after the save:\n%s\nwant\n%s", after, want)
		}
	}
}
