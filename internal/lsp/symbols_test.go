package lsp

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"weak"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestOutlineAcrossEdits asks for the outline after edits that leave the
// patch's part as it was (a comment body), change its counts (a comment
// dismissed, one moved to another file), move its lines without moving
// its bytes (a line break for a space before it) and change the patch,
// and requires each time what a fresh server answers for the same text;
// the first edit must reuse the encoded part.
func TestOutlineAcrossEdits(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 4, DiffLines: 400, Comments: 12, DriftedFraction: -1, Seed: 5}))
	firstActive := strings.Index(src, `"state": "active"`) + len(`"state": "`)
	// The path of the next active comment, which it precedes.
	nextActive := firstActive + strings.Index(src[firstActive:], `"state": "active"`)
	path := strings.LastIndex(src[:nextActive], `"path": "`) + len(`"path": "`)
	edits := []struct {
		name    string
		at, del int
		text    string
		reuse   bool
	}{
		{name: "comment body", at: strings.LastIndex(src, `"body": "`) + len(`"body": "`), text: "x", reuse: true},
		{name: "a comment dismissed", at: firstActive, del: len("active"), text: "dismissed"},
		{name: "a comment moved to another file", at: path, text: "other/"},
		{name: "a line break for a space before the patch", at: strings.Index(src, `"title": `) + len(`"title":`), del: 1, text: "\n"},
		{name: "an added line", at: strings.Index(src, `"+`) + 2, text: "y"},
		// Before the patch, on a line of its own: the patch moves in bytes,
		// not in lines.
		{name: "the summary", at: strings.Index(src, `"summary": "`) + len(`"summary": "`), text: "é", reuse: true},
	}
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/outline.review.json")
	c.open(uri, src)
	outline := func(c *testClient, want string) string {
		var raw json.RawMessage
		c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &raw)
		var syms []protocol.DocumentSymbol
		if err := json.Unmarshal(raw, &syms); err != nil || len(syms) < 2 {
			t.Fatalf("%s: got %d symbols (%v) from %.200s", want, len(syms), err, raw)
		}
		b, _ := json.Marshal(syms)
		return string(b)
	}
	outline(c, "the first outline")
	text := src
	// Edits are applied last in the text first, so that the offsets
	// found in src still hold.
	for i, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			before := cachedPart(c, uri)
			conv := Converter{M: exchange.NewMapper([]byte(text)), Enc: exchange.UTF16}
			rng := protocol.Range{Start: conv.Position(e.at), End: conv.Position(e.at + e.del)}
			c.change(uri, int32(i+2), &rng, e.text)
			text = text[:e.at] + e.text + text[e.at+e.del:]
			c.waitDiagnostics(uri, int32(i+2))
			got := outline(c, e.name)
			if reused := cachedPart(c, uri) == before; reused != e.reuse {
				t.Errorf("the patch's part was reused: %v, want %v", reused, e.reuse)
			}
			fresh := newTestClient(t, Options{})
			fresh.initialize()
			fresh.open(uri, text)
			if want := outline(fresh, "a fresh server"); got != want {
				t.Fatalf("outline differs from a fresh server's:\ngot  %.600s\nwant %.600s", got, want)
			}
		})
	}
}

// cachedPart identifies the encoded patch part the server holds for
// uri's latest version: its first byte (nil when it has none).
func cachedPart(c *testClient, uri protocol.DocumentURI) *byte {
	c.srv.mu.Lock()
	cache := c.srv.files[uri].latest.cache
	c.srv.mu.Unlock()
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if cache.outline == nil || len(cache.outline.json) == 0 {
		return nil
	}
	return &cache.outline.json[0]
}

// TestOutlineCacheKeepsNoEarlierVersion: once the patch is edited, the
// version the cached outline and semantic tokens came from can be
// collected, although neither was asked for since.
func TestOutlineCacheKeepsNoEarlierVersion(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 200, Comments: 5, Seed: 7}))
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/kept.review.json")
	c.open(uri, src)
	c.waitDiagnostics(uri, 1)
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	c.srv.mu.Lock()
	doc := c.srv.files[uri].latest.analyzed().Doc
	first, firstPatch := weak.Make(doc), weak.Make(doc.Review.Patch.Node)
	doc = nil
	c.srv.mu.Unlock()
	at := strings.Index(src, `"+`) + 2
	conv := Converter{M: exchange.NewMapper([]byte(src)), Enc: exchange.UTF16}
	rng := protocol.Range{Start: conv.Position(at), End: conv.Position(at)}
	c.change(uri, 2, &rng, "y")
	c.waitDiagnostics(uri, 2)
	for range 3 {
		runtime.GC()
	}
	if first.Value() != nil || firstPatch.Value() != nil {
		t.Errorf("after an edit in the patch, the first version's document is alive: %v, its patch's nodes: %v", first.Value() != nil, firstPatch.Value() != nil)
	}
}
