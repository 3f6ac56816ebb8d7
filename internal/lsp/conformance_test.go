package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// TestConformanceSweep drives the server as a busy editor would and
// validates every message it sends against the LSP meta model (the tap of
// every test client, conformance_tap_test.go): each example review and a
// few of the tests' own, every advertised request at several columns of
// every line, a burst of keystrokes with hovers and completions in
// flight, one command of each kind run, in each position encoding, from a
// full-featured client, from one that declares no capability at all, and
// from one that takes code actions only as Commands.
func TestConformanceSweep(t *testing.T) {
	if metaModel(t) == nil {
		refdata.Missing(t, metaModelFile) // nothing to validate against
	}
	docs := sweepDocuments(t)
	clients := []struct {
		name string
		caps map[string]any
	}{
		{"full utf-16", fullCapabilities("utf-16")},
		{"full utf-8", fullCapabilities("utf-8")},
		{"full utf-32", fullCapabilities("utf-32")},
		{"minimal", map[string]any{}},
		{"commands only", map[string]any{"workspace": map[string]any{"applyEdit": true}}},
	}
	if testing.Short() {
		clients = []struct {
			name string
			caps map[string]any
		}{clients[0], clients[3]}
	}
	total := 0
	for _, cl := range clients {
		t.Run(cl.name, func(t *testing.T) {
			c := newTestClient(t, Options{})
			res := c.initializeWith(cl.caps)
			enc := map[string]exchange.Encoding{"utf-8": exchange.UTF8, "utf-32": exchange.UTF32}[res.Capabilities.PositionEncoding]
			for i, d := range docs {
				uri := protocol.DocumentURI("file:///work/sweep/" + d.name)
				c.open(uri, d.text)
				c.waitDiagnostics(uri, 1)
				sweepDocument(t, c, uri, d.text, enc, d.sparse)
				if i%2 == 0 {
					sweepBurst(t, c, uri, d.text, enc)
				}
				c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
				c.waitDiagnosticsCleared(uri)
			}
			n, violations := c.conf.counts()
			total += n
			t.Logf("%s client: %d messages validated, %d violations", cl.name, n, len(violations))
		})
	}
	t.Logf("the sweep: %d server messages validated in all", total)
}

type sweepDoc struct {
	name, text string
	// sparse: asked at one column of each line, not three (the real
	// diffs, whose lines are many).
	sparse bool
}

// sweepDocuments are the examples, the tests' document with escapes and an
// emoji, and the first example with CRLF line ends.
func sweepDocuments(t *testing.T) []sweepDoc {
	t.Helper()
	names, err := filepath.Glob("../../examples/*.review.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no example reviews: %v", err)
	}
	var out []sweepDoc
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sweepDoc{name: filepath.Base(n), text: string(b)})
	}
	out = append(out,
		sweepDoc{name: "escaped.review.json", text: escapedReview},
		sweepDoc{name: "crlf.review.json", text: strings.ReplaceAll(out[0].text, "\n", "\r\n")},
	)
	return append(out, realDiffReviews(t)...)
}

// realDiffReviews are reviews of the small real diffs (refdata.RealDiffs:
// control characters, carriage returns inside lines, quoted paths,
// copies, binaries, GNU diff's headers), each with a comment on the first
// line of its first hunk.
func realDiffReviews(t *testing.T) []sweepDoc {
	t.Helper()
	diffs := refdata.RealDiffs(t)
	var out []sweepDoc
	for _, n := range slices.Sorted(maps.Keys(diffs)) {
		b := diffs[n]
		if len(b) > 16<<10 {
			continue // the large ones: the sweep asks at every line
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		review := map[string]any{"leanreview_review": 1, "patch": lines, "comments": []any{}}
		if path, line, ok := firstHunkLine(lines); ok {
			review["comments"] = []any{map[string]any{"id": "c1", "path": path, "side": "RIGHT", "start_line": line, "body": "**why** `this`?"}}
		}
		text, err := json.MarshalIndent(review, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sweepDoc{strings.ReplaceAll(strings.TrimSuffix(n, ".diff"), "/", "-") + ".review.json", string(text) + "\n", true})
	}
	return out
}

// firstHunkLine returns the new name of a diff's first file and the first
// line of its first hunk in the new image.
func firstHunkLine(lines []string) (string, int, bool) {
	path := ""
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "+++ "); ok {
			path, _, _ = strings.Cut(strings.TrimPrefix(rest, "b/"), "\t")
		}
		var start int
		if f := strings.Fields(l); len(f) > 2 && f[0] == "@@" && path != "" && path != "/dev/null" {
			if _, err := fmt.Sscanf(f[2], "+%d", &start); err == nil && start > 0 {
				return path, start, true
			}
		}
	}
	return "", 0, false
}

// sweepDocument sends every position request at the start, the middle
// and the end of every line (the middle only, sparse), every document request once, and runs one
// command of each kind offered.
func sweepDocument(t *testing.T, c *testClient, uri protocol.DocumentURI, text string, enc exchange.Encoding, sparse bool) {
	t.Helper()
	m := exchange.NewMapper([]byte(text))
	doc := map[string]any{"uri": uri}
	var commands []map[string]any // the Commands offered as code actions
	start := 0
	for start <= len(text) {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := strings.TrimSuffix(text[start:end], "\r")
		offsets := []int{start, start + runeStart(line, len(line)/2), start + len(line)}
		if sparse {
			offsets = offsets[1:2]
		}
		for _, off := range offsets {
			p := m.Position(off, enc)
			pos := protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
			at := map[string]any{"textDocument": doc, "position": pos}
			for _, method := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition"} {
				c.mustCall(method, at, nil)
			}
			c.mustCall("textDocument/references", map[string]any{"textDocument": doc, "position": pos, "context": map[string]any{"includeDeclaration": true}}, nil)
			var actions []map[string]any
			c.mustCall("textDocument/codeAction", map[string]any{"textDocument": doc, "range": protocol.Range{Start: pos, End: pos}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
			commands = append(commands, actions...)
		}
		start = end + 1
	}
	// A command of each kind is run, as a person picks it: the server
	// then asks the client to show a place or apply an edit. One the
	// client cannot run is refused with an error, which is validated too.
	var lenses []struct {
		Command map[string]any `json:"command"`
	}
	c.mustCall("textDocument/codeLens", map[string]any{"textDocument": doc}, &lenses)
	for _, l := range lenses {
		commands = append(commands, l.Command)
	}
	ran := map[any]bool{}
	for _, cmd := range commands {
		if name, ok := cmd["command"].(string); ok && !ran[name] {
			ran[name] = true
			_ = c.call("workspace/executeCommand", map[string]any{"command": name, "arguments": cmd["arguments"]}, nil)
		}
	}
	last := m.Position(len(text), enc)
	whole := protocol.Range{End: protocol.Position{Line: uint32(last.Line), Character: uint32(last.Character)}}
	for _, method := range []string{"textDocument/documentSymbol", "textDocument/foldingRange"} {
		c.mustCall(method, map[string]any{"textDocument": doc}, nil)
	}
	c.mustCall("textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, nil)
	c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": doc, "range": whole}, nil)
	c.mustCall("textDocument/semanticTokens/range", map[string]any{"textDocument": doc, "range": whole}, nil)
	var full struct {
		ResultID string `json:"resultId"`
	}
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": doc}, &full)
	c.mustCall("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": doc, "previousResultId": full.ResultID}, nil)
}

// runeStart moves i back to the start of the UTF-8 sequence it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// burstText is what the burst types: a new comment, as a person writes it
// into the comments array, one keystroke after another.
const burstText = `{"id": "c9", "path": "x", "side": "RIGHT", "start_line": 1, "body": "typed"}`

// sweepBurst types burstText right after the last comment's closing brace
// (so that the comma it needs goes where the completion is asked), a
// keystroke at a time without waiting, with a hover and a completion at
// the cursor, the outline, the folds and the tokens asked after each, and
// returns the replies' errors by code.
func sweepBurst(t *testing.T, c *testClient, uri protocol.DocumentURI, text string, enc exchange.Encoding) map[int64]int {
	t.Helper()
	at := strings.LastIndex(text, "}\n  ]")
	if at < 0 {
		at = strings.LastIndex(text, "[")
	}
	at++
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := map[int64]int{}
	ask := func(method string, params any) {
		defer wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var raw json.RawMessage
		_, err := c.conn.Call(ctx, method, params, &raw)
		var rpcErr *jsonrpc2.Error
		mu.Lock()
		defer mu.Unlock()
		switch {
		case errors.As(err, &rpcErr):
			errs[int64(rpcErr.Code)]++
		case err != nil:
			t.Errorf("%s during the burst: %v", method, err)
		}
	}
	version := int32(1)
	for i := range len(burstText) {
		m := exchange.NewMapper([]byte(text))
		p := m.Position(at+i, enc)
		pos := protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
		version++
		c.change(uri, version, &protocol.Range{Start: pos, End: pos}, burstText[i:i+1])
		text = text[:at+i] + burstText[i:i+1] + text[at+i:]
		p = exchange.NewMapper([]byte(text)).Position(at+i+1, enc)
		cursor := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}}
		whole := map[string]any{"textDocument": map[string]any{"uri": uri}}
		wg.Add(5)
		go ask("textDocument/hover", cursor)
		go ask("textDocument/completion", cursor)
		go ask("textDocument/documentSymbol", whole)
		go ask("textDocument/foldingRange", whole)
		go ask("textDocument/semanticTokens/full", whole)
	}
	wg.Wait()
	c.waitDiagnostics(uri, version)
	return errs
}

// waitDiagnosticsCleared waits for the empty diagnostics a close sends.
func (c *testClient) waitDiagnosticsCleared(uri protocol.DocumentURI) {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		list := c.diagnostics[uri]
		cleared := len(list) > 0 && list[len(list)-1].Version == 0 && len(list[len(list)-1].Diagnostics) == 0
		c.mu.Unlock()
		if cleared {
			return
		}
		select {
		case <-c.notify:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no empty diagnostics for %s after its close", uri)
		}
	}
}
