package lsp

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestEditsMatchAFreshServer types random edits into a review, several to
// a notification and several notifications between analyses, and after
// each burst requires what a server opening the same text afresh
// publishes and answers: the change the history composes, the parse and
// check that reuse the earlier version, the anchoring that shares its
// results, and the caches of diagnostics, tokens and outline must all
// agree with starting over.
func TestEditsMatchAFreshServer(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 240, Comments: 12, Seed: 9}))
	r := rand.New(rand.NewPCG(13, 14))
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/typed.review.json")
	c.open(uri, src)
	c.waitDiagnostics(uri, 1)
	text, version := src, int32(1)
	for burst := range 60 {
		for range 1 + r.IntN(4) {
			version++
			var changes []any
			if burst%4 == 3 && len(changes) == 0 {
				// Back to the start now and then, as a whole text: the
				// random edits soon break the patch, which stops its reuse.
				changes, text = append(changes, map[string]any{"text": src}), src
			}
			for range 1 + r.IntN(3) {
				at, end, ins := randomEdit(r, text)
				conv := Converter{M: exchange.NewMapper([]byte(text)), Enc: exchange.UTF16}
				changes = append(changes, map[string]any{"range": protocol.Range{Start: conv.Position(at), End: conv.Position(end)}, "text": ins})
				text = text[:at] + ins + text[end:]
			}
			c.notifyServer("textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
		}
		got := c.waitDiagnostics(uri, version)
		fresh := newTestClient(t, Options{})
		fresh.initialize()
		fresh.open(uri, text)
		want := fresh.waitDiagnostics(uri, 1)
		if g, w := marshalJSON(t, got), marshalJSON(t, want); g != w {
			t.Fatalf("burst %d: diagnostics differ from a fresh server's\ngot  %.1500s\nwant %.1500s\ntext:\n%s", burst, g, w, text)
		}
		for _, method := range []string{"textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/foldingRange"} {
			var g, w json.RawMessage
			params := map[string]any{"textDocument": map[string]any{"uri": uri}}
			c.mustCall(method, params, &g)
			fresh.mustCall(method, params, &w)
			if method == "textDocument/semanticTokens/full" {
				g, w = tokensData(t, g), tokensData(t, w) // result ids differ
			}
			if string(g) != string(w) {
				t.Fatalf("burst %d: %s differs from a fresh server's\ngot  %.800s\nwant %.800s", burst, method, g, w)
			}
		}
	}
}

// randomEdit picks a range of text, on character boundaries, and what to
// write there: typing in a comment, about the patch's end, or anywhere,
// sometimes a character that breaks the syntax.
func randomEdit(r *rand.Rand, text string) (start, end int, ins string) {
	at := r.IntN(len(text) + 1)
	switch k := r.IntN(6); {
	case k < 2:
		if body := strings.LastIndex(text, `"body": "`); body >= 0 {
			at = body + len(`"body": "`) + r.IntN(min(20, len(text)-body-len(`"body": "`))+1)
		}
	case k < 4:
		// About the patch's end, where reusing it is decided.
		if cs := strings.Index(text, `"comments"`); cs >= 0 {
			at = max(0, cs-r.IntN(12))
		}
	}
	for at < len(text) && !utf8.RuneStart(text[at]) {
		at++
	}
	end = min(len(text), at+r.IntN(3))
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	ins = []string{"", "x", "é", "😀", " ", "\n", `"`, ",", "}", `\n`, "7"}[r.IntN(11)]
	return at, end, ins
}

func marshalJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func tokensData(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var toks struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &toks); err != nil {
		t.Fatalf("semantic tokens %.200s: %v", raw, err)
	}
	return toks.Data
}
