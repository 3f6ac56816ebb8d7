package lsp

import (
	"runtime"
	"strings"
	"testing"
	"weak"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestEditsKeepNoEarlierVersion edits a review every way that carries
// something over to the next version (a comment body, the summary before
// the patch, the patch itself, a comment added), asking after each what
// an editor asks (tokens, outline, folds, lenses, a hover in the patch),
// and then requires that the snapshot of every version but the last two,
// with its analysis, has been collected: what the versions share (the
// text's pieces, the patch's table and lines, the index, comments
// copied, resolutions, caches) keeps no earlier version alive.
func TestEditsKeepNoEarlierVersion(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 5, DiffLines: 500, Comments: 20, DriftedFraction: 0.3, Seed: 11}))
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/retain.review.json")
	c.open(uri, src)
	c.waitDiagnostics(uri, 1)
	var versions []weak.Pointer[snapshot]
	keep := func() {
		c.srv.mu.Lock()
		versions = append(versions, weak.Make(c.srv.files[uri].latest))
		c.srv.mu.Unlock()
	}
	keep()
	body := func(s string) int { return strings.Index(s, `"body": "`) + len(`"body": "`) }
	summary := func(s string) int { return strings.Index(s, `"summary": "`) + len(`"summary": "`) }
	added := func(s string) int { return strings.Index(s, `"+`) + 2 }
	lastComment := func(s string) int { return strings.LastIndex(s, "}\n  ]") + 1 }
	edits := []struct {
		at   func(string) int
		text string
	}{
		{body, "x"}, {summary, "y"}, {added, "z"}, {summary, "é"}, {body, "w"},
		{lastComment, `, {"id": "new", "path": "nowhere.go", "side": "RIGHT", "start_line": 1, "body": "b", "state": "active"}`},
		{body, "v"}, {summary, "u"},
	}
	text := src
	for i, e := range edits {
		at := e.at(text)
		conv := Converter{M: exchange.NewMapper([]byte(text)), Enc: exchange.UTF16}
		rng := protocol.Range{Start: conv.Position(at), End: conv.Position(at)}
		c.change(uri, int32(i+2), &rng, e.text)
		text = text[:at] + e.text + text[at:]
		c.waitDiagnostics(uri, int32(i+2))
		doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
		c.mustCall("textDocument/semanticTokens/full", doc, nil)
		c.mustCall("textDocument/documentSymbol", doc, nil)
		c.mustCall("textDocument/foldingRange", doc, nil)
		c.mustCall("textDocument/codeLens", doc, nil)
		p := conv.Position(added(text))
		c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}, nil)
		keep()
	}
	runtime.GC()
	runtime.GC()
	for i, w := range versions[:len(versions)-2] {
		if w.Value() != nil {
			t.Errorf("version %d is still alive after %d more edits", i+1, len(versions)-1-i)
		}
	}
}
