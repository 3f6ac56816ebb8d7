package lsp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// deltaReply is a semanticTokens/full/delta result: edits, or the whole
// data when the server does not know the previous result.
type deltaReply struct {
	ResultID string                        `json:"resultId"`
	Edits    []protocol.SemanticTokensEdit `json:"edits"`
	Data     []uint32                      `json:"data"`
}

// applyTokenEdits applies edits as a client does, last first.
func applyTokenEdits(data []uint32, edits []protocol.SemanticTokensEdit) []uint32 {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b protocol.SemanticTokensEdit) int { return int(b.Start) - int(a.Start) })
	for _, e := range edits {
		data = slices.Concat(data[:e.Start], e.Data, data[e.Start+e.DeleteCount:])
	}
	return data
}

// TestSemanticTokensDelta keeps a client's tokens up to date through
// delta requests across edits in a comment, in the patch and before it
// (one of the same length that moves the patch down a line),
// and checks each time that they equal a fresh server's full tokens of the
// same text; an edit that leaves the patch alone, and where it begins,
// keeps the result id.
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
			if d.Edits == nil {
				t.Fatalf("got no edits for the result the client holds (%q)", held.ResultID)
			}
			if e.sameData && (d.ResultID != held.ResultID || len(d.Edits) != 0) {
				t.Errorf("got result %q with %d edits, want %q unchanged: the patch was not edited", d.ResultID, len(d.Edits), held.ResultID)
			}
			held = protocol.SemanticTokens{ResultID: d.ResultID, Data: applyTokenEdits(held.Data, d.Edits)}

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

func TestTokenEdits(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, cur []uint32
	}{
		{"same", []uint32{1, 2, 3}, []uint32{1, 2, 3}},
		{"insert middle", []uint32{1, 2, 3}, []uint32{1, 2, 9, 3}},
		{"delete end", []uint32{1, 2, 3}, []uint32{1}},
		{"replace all", []uint32{1, 2}, []uint32{3, 4, 5}},
		{"from empty", nil, []uint32{7}},
		{"repeated", []uint32{1, 1, 1}, []uint32{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := applyTokenEdits(slices.Clone(tc.old), tokenEdits(tc.old, tc.cur)); !slices.Equal(got, tc.cur) {
				t.Errorf("got %v, want %v", got, tc.cur)
			}
		})
	}
}

// TestTokenReplyKeepsNoRoom: the encoded full result, which the cache
// keeps, holds no more room than an eighth of its bytes, however small
// the numbers (the reply of a large review is megabytes).
func TestTokenReplyKeepsNoRoom(t *testing.T) {
	data := make([]uint32, 50_000)
	for i := range data {
		data[i] = uint32(i % 7)
	}
	reply := encodeTokenReply("3", data)
	if !json.Valid(reply) || !bytes.HasPrefix(reply, []byte(`{"resultId":"3","data":[0,1,2,`)) {
		t.Fatalf("reply %.60s… is not the encoding of the data", reply)
	}
	if room := cap(reply) - len(reply); room > len(reply)/8 {
		t.Errorf("reply of %d bytes keeps %d bytes of room, want at most %d", len(reply), room, len(reply)/8)
	}
}
