package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// deltaReply is a semanticTokens/full/delta result: edits, or the whole
// data.
type deltaReply struct {
	ResultID string                        `json:"resultId"`
	Edits    []protocol.SemanticTokensEdit `json:"edits"`
	Data     []uint32                      `json:"data"`
}

// TestSemanticTokensDelta keeps a client's tokens up to date through
// delta requests across edits in a comment, in the patch and before it
// (one of the same length that moves the patch down a line),
// and checks each time that they equal a fresh server's full tokens of the
// same text: an edit that leaves the patch alone, and where it begins,
// keeps the result id and is answered with no edit; any other with the
// whole data under a new id.
func TestSemanticTokensDelta(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 300, Comments: 10, Seed: 3}))
	added := strings.Index(src, `"+`) + 2
	edits := []struct {
		name     string
		at       int
		del      int
		text     string
		sameData bool
	}{
		{"comment body", strings.LastIndex(src, `"body": "`) + len(`"body": "`), 0, "x", true},
		// The same length, one line more: the patch's bytes are where they
		// were, its lines are not.
		{"a line break for a space before the patch", strings.Index(src, `"title": `) + len(`"title":`), 1, "\n", false},
		{"added line", added, 0, "y", false},
		{"added line back", added, 1, "", false},
		// Bytes before the patch but no line: the patch moves in bytes
		// only, and its tokens are the same.
		{"title", strings.Index(src, `"title": "`) + len(`"title": "`), 0, "Title é\\n", true},
	}
	c := newTestClient(t, Options{})
	res := c.initialize()
	if full, _ := res.Capabilities.SemanticTokensProvider.(map[string]any)["full"].(map[string]any); full["delta"] != true {
		t.Fatalf("semanticTokensProvider.full: got %v, want {delta: true}", res.Capabilities.SemanticTokensProvider)
	}
	uri := protocol.DocumentURI("file:///w/delta.review.json")
	c.open(uri, src)
	var held protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &held)
	if held.ResultID == "" || len(held.Data) == 0 {
		t.Fatalf("got result id %q with %d numbers, want an id and tokens", held.ResultID, len(held.Data))
	}
	text := src
	for i, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			conv := Converter{M: exchange.NewMapper([]byte(text)), Enc: exchange.UTF16}
			rng := protocol.Range{Start: conv.Position(e.at), End: conv.Position(e.at + e.del)}
			c.change(uri, int32(i+2), &rng, e.text)
			text = text[:e.at] + e.text + text[e.at+e.del:]
			c.waitDiagnostics(uri, int32(i+2))

			var d deltaReply
			c.mustCall("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": held.ResultID}, &d)
			switch {
			case e.sameData && (d.Edits == nil || len(d.Edits) != 0 || d.ResultID != held.ResultID):
				t.Fatalf("got result %q with edits %v, want %q and no edit: the patch was not edited", d.ResultID, d.Edits, held.ResultID)
			case !e.sameData && (d.Edits != nil || d.ResultID == held.ResultID):
				t.Fatalf("got result %q with %d edits, want the whole data under a new id", d.ResultID, len(d.Edits))
			}
			if d.Edits == nil {
				held = protocol.SemanticTokens{ResultID: d.ResultID, Data: d.Data}
			}

			fresh := newTestClient(t, Options{})
			fresh.initialize()
			fresh.open(uri, text)
			var want protocol.SemanticTokens
			fresh.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &want)
			if !slices.Equal(held.Data, want.Data) {
				t.Fatalf("tokens after the delta differ from a fresh full request:\ngot  %v\nwant %v", tokenText(t, text, exchange.UTF16, held.Data), tokenText(t, text, exchange.UTF16, want.Data))
			}
		})
	}

	// An id the server does not know gets the whole data.
	var d deltaReply
	c.mustCall("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": "nope"}, &d)
	if d.Edits != nil || !slices.Equal(d.Data, held.Data) || d.ResultID != held.ResultID {
		t.Errorf("unknown previous id: got id %q, %d edits, %d numbers; want the full %d numbers of %q", d.ResultID, len(d.Edits), len(d.Data), len(held.Data), held.ResultID)
	}
}
