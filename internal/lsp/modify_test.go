package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/transport"
)

// TestApplyContentChanges: the changes of one didChange, reviews' and
// source documents' alike, each in the positions of the text the one
// before left (emoji take two UTF-16 units, CRLF ends a line), give the
// text an editor has, and a mapper, edited change by change, that
// places every offset as one made from that text does.
func TestApplyContentChanges(t *testing.T) {
	rng := func(l1, c1, l2, c2 uint32) *protocol.Range {
		return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
	}
	tests := []struct {
		name, text string
		changes    []transport.ContentChange
		want       string
		full       bool
		edits      int
	}{
		{"after an emoji", "a😀b\r\nc\r\n", []transport.ContentChange{{Range: rng(0, 3, 0, 4), Text: []byte("B")}}, "a😀B\r\nc\r\n", false, 1},
		{"two in a row", "x\r\ny😀z\r\n", []transport.ContentChange{
			{Range: rng(1, 1, 1, 3), Text: []byte("🎉\r\n")},
			{Range: rng(2, 0, 2, 1), Text: []byte("Z")},
		}, "x\r\ny🎉\r\nZ\r\n", false, 2},
		{"a line joined", "one\r\ntwo\r\n", []transport.ContentChange{{Range: rng(0, 3, 1, 0), Text: nil}}, "onetwo\r\n", false, 1},
		{"whole text, then a range", "old\n", []transport.ContentChange{
			{Text: []byte("new\ntext\n")},
			{Range: rng(1, 0, 1, 4), Text: []byte("TEXT")},
		}, "new\nTEXT\n", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := exchange.NewText([]byte(tt.text))
			got, err := applyContentChanges(text, exchange.NewTextMapper(text), exchange.UTF16, tt.changes)
			if err != nil {
				t.Fatal(err)
			}
			if s := got.text.String(0, got.text.Len()); s != tt.want {
				t.Errorf("got text %q, want %q", s, tt.want)
			}
			if got.full != tt.full || len(got.edits) != tt.edits {
				t.Errorf("got full %v and %d edits, want %v and %d", got.full, len(got.edits), tt.full, tt.edits)
			}
			fresh := exchange.NewTextMapper(got.text)
			if got.mapper.Lines() != fresh.Lines() {
				t.Errorf("the edited mapper has %d lines, want %d", got.mapper.Lines(), fresh.Lines())
			}
			for off := 0; off <= got.text.Len(); off++ {
				if p, q := got.mapper.Position(off, exchange.UTF16), fresh.Position(off, exchange.UTF16); p != q {
					t.Errorf("offset %d: the edited mapper says %v, want %v", off, p, q)
				}
			}
		})
	}
	text := exchange.NewText([]byte("ab\n"))
	if _, err := applyContentChanges(text, exchange.NewTextMapper(text), exchange.UTF16, []transport.ContentChange{{Range: rng(0, 2, 0, 1)}}); err == nil {
		t.Error("a range that ends before it starts was applied, want an error")
	}
}

// TestSourceChangesEditTheMapper: a source document's didChange goes the
// reviews' way: its buffer's mapper is the previous one's edited, and
// places the changed text's positions exactly.
func TestSourceChangesEditTheMapper(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/src/emoji.go")
	c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": "package p\r\n// 😀 one\r\n"}})
	c.change(uri, 2, &protocol.Range{Start: protocol.Position{Line: 1, Character: 6}, End: protocol.Position{Line: 1, Character: 9}}, "two\r\nvar x = 1")
	c.mustCall("shutdown", nil, nil) // the change was applied before the answer
	b := c.srv.buffers()[uri]
	if b == nil {
		t.Fatal("the source document is not open")
	}
	want := "package p\r\n// 😀 two\r\nvar x = 1\r\n"
	if got := b.text.String(0, b.text.Len()); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	b.mu.Lock()
	m := b.mapper
	b.mu.Unlock()
	if m == nil {
		t.Fatal("the buffer's mapper was not carried from the previous version's")
	}
	if got, want := m.Position(strings.Index(want, "var"), exchange.UTF16), (exchange.Position{Line: 2}); got != want {
		t.Errorf("var is at %v, want %v", got, want)
	}
}
