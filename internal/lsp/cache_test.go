package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestPatchKeyThrough moves a patch's byte range [100, 200) of a text of
// 1000 bytes through edits before, after, inside and around it.
func TestPatchKeyThrough(t *testing.T) {
	key := patchKey{span: exchange.Range{Start: 100, End: 200}, at: protocol.Position{Line: 3, Character: 4}}
	tests := []struct {
		name      string
		ch        exchange.Change
		newLen    int
		wantSpan  exchange.Range
		wantStale bool
	}{
		{"insertion after", exchange.Change{Prefix: 500, Suffix: 500}, 1003, exchange.Range{Start: 100, End: 200}, false},
		{"insertion at its end", exchange.Change{Prefix: 200, Suffix: 800}, 1001, exchange.Range{Start: 100, End: 200}, false},
		{"insertion before", exchange.Change{Prefix: 50, Suffix: 950}, 1002, exchange.Range{Start: 102, End: 202}, false},
		{"deletion before, up to its start", exchange.Change{Prefix: 40, Suffix: 900}, 940, exchange.Range{Start: 40, End: 140}, false},
		{"insertion inside", exchange.Change{Prefix: 150, Suffix: 850}, 1001, exchange.Range{Start: 100, End: 200}, true},
		{"deletion across its start", exchange.Change{Prefix: 90, Suffix: 880}, 970, exchange.Range{Start: 100, End: 200}, true},
		{"the whole text replaced", exchange.Change{}, 1000, exchange.Range{Start: 100, End: 200}, true},
		{"nothing changed", exchange.Change{Prefix: 1000, Suffix: 1000}, 1000, exchange.Range{Start: 100, End: 200}, false},
	}
	for _, tc := range tests {
		got := key.through(tc.ch, 1000, tc.newLen)
		if got.span != tc.wantSpan || got.stale != tc.wantStale || got.at != key.at {
			t.Errorf("%s: got span %v stale %v at %v, want span %v stale %v at %v", tc.name, got.span, got.stale, got.at, tc.wantSpan, tc.wantStale, key.at)
		}
	}
}

// TestTokensAcrossSkippedVersions: tokens asked for at version 1 serve
// version 4, whose patch three edits in a comment left alone, though
// versions 2 and 3 made none; an edit in the patch then makes new ones.
func TestTokensAcrossSkippedVersions(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 2, DiffLines: 100, Comments: 4, Seed: 9}))
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/skipped.review.json")
	c.open(uri, src)
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	var first protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", doc, &first)
	text := src
	edit := func(v int32, at int, s string) {
		conv := Converter{M: exchange.NewMapper([]byte(text)), Enc: exchange.UTF16}
		rng := protocol.Range{Start: conv.Position(at), End: conv.Position(at)}
		c.change(uri, v, &rng, s)
		text = text[:at] + s + text[at:]
	}
	body := strings.LastIndex(src, `"body": "`) + len(`"body": "`)
	for v := int32(2); v <= 4; v++ {
		edit(v, body, "x")
	}
	c.waitDiagnostics(uri, 4)
	var fourth protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", doc, &fourth)
	if fourth.ResultID != first.ResultID || !slices.Equal(fourth.Data, first.Data) {
		t.Errorf("version 4: got result %q, want version 1's %q taken over", fourth.ResultID, first.ResultID)
	}
	edit(5, strings.Index(text, `"+`)+2, "y")
	c.waitDiagnostics(uri, 5)
	var fifth protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", doc, &fifth)
	if fifth.ResultID == first.ResultID {
		t.Errorf("after an edit in the patch: got result %q again, want a new one", fifth.ResultID)
	}
}

// TestTokenIDsOutliveAClose: a client that still holds the id of a
// closed document's tokens, and asks for a delta from it once the
// document is open again with another patch, gets the whole new data,
// not "no change".
func TestTokenIDsOutliveAClose(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/reopened.review.json")
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	c.open(uri, string(reviewgen.Generate(reviewgen.Config{Files: 2, DiffLines: 60, Comments: 2, Seed: 1})))
	var held protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", doc, &held)
	c.notifyServer("textDocument/didClose", doc)
	c.open(uri, string(reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 90, Comments: 2, Seed: 2})))
	var want protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", doc, &want)
	var d deltaReply
	c.mustCall("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": held.ResultID}, &d)
	if d.Edits != nil || !slices.Equal(d.Data, want.Data) {
		t.Errorf("delta from the closed document's result %q: got %d edits, %d numbers; want the whole %d numbers", held.ResultID, len(d.Edits), len(d.Data), len(want.Data))
	}
}
