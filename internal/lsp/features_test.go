package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// tokenText decodes semantic tokens into "type:text" strings, reading the
// covered text back from the document with the negotiated encoding.
func tokenText(t *testing.T, text string, enc exchange.Encoding, data []uint32) []string {
	t.Helper()
	if len(data)%5 != 0 {
		t.Fatalf("token data length %d is not a multiple of 5", len(data))
	}
	m := exchange.NewMapper([]byte(text))
	var out []string
	line, char := 0, 0
	for i := 0; i < len(data); i += 5 {
		if data[i] > 0 {
			line += int(data[i])
			char = int(data[i+1])
		} else {
			char += int(data[i+1])
		}
		start, err1 := m.Offset(exchange.Position{Line: line, Character: char}, enc)
		end, err2 := m.Offset(exchange.Position{Line: line, Character: char + int(data[i+2])}, enc)
		if err1 != nil || err2 != nil {
			t.Fatalf("token %d at %d:%d does not map: %v %v", i/5, line, char, err1, err2)
		}
		out = append(out, TokenTypes[data[i+3]]+":"+text[start:end])
	}
	return out
}

// escapedReview has escapes, non-ASCII text and an emoji inside and before
// the patch, so that every column conversion is exercised.
const escapedReview = `{
  "leanreview_review": 1,
  "title": "😀 tabs and quotes",
  "patch": [
    "diff --git a/é.go b/é.go",
    "--- a/é.go",
    "+++ b/é.go",
    "@@ -1,3 +1,3 @@ func Ünïcode() {",
    " \tctx := \"😀\"",
    "-\tname := \u00e9",
    "+\tname := \"é\" // \\ ok",
    "\\ No newline at end of file"
  ],
  "comments": []
}
`

func TestSemanticTokensFull(t *testing.T) {
	for _, enc := range []struct {
		offer []string
		enc   exchange.Encoding
	}{{nil, exchange.UTF16}, {[]string{"utf-8", "utf-16"}, exchange.UTF8}, {[]string{"utf-32"}, exchange.UTF32}, {[]string{"utf-16", "utf-32"}, exchange.UTF16}} {
		t.Run(enc.enc.String()+fmt.Sprint(enc.offer), func(t *testing.T) {
			c := newTestClient(t, Options{})
			res := c.initialize(enc.offer...)
			if res.Capabilities.PositionEncoding != enc.enc.String() {
				t.Fatalf("positionEncoding: got %q, want %q", res.Capabilities.PositionEncoding, enc.enc)
			}
			uri := protocol.DocumentURI("file:///tmp/esc.review.json")
			c.open(uri, escapedReview)
			var toks protocol.SemanticTokens
			c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &toks)
			got := tokenText(t, escapedReview, enc.enc, toks.Data)
			want := []string{
				"diffHeader:diff --git a/é.go b/é.go",
				"diffHeader:--- a/é.go",
				"diffHeader:+++ b/é.go",
				"diffHunk:@@ -1,3 +1,3 @@",
				`diffContext: \tctx := \"😀\"`,
				`diffRemoved:-\tname := \u00e9`,
				`diffAdded:+\tname := \"é\" // \\ ok`,
				`diffNoNewline:\\ No newline at end of file`,
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("tokens:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

func TestSemanticTokensStringFormAndRange(t *testing.T) {
	text := `{"leanreview_review": 1, "patch": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new é\n", "comments": []}` + "\n"
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/str.review.json")
	c.open(uri, text)
	var toks protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &toks)
	got := tokenText(t, text, exchange.UTF16, toks.Data)
	want := []string{"diffHeader:diff --git a/x b/x", "diffHeader:--- a/x", "diffHeader:+++ b/x", "diffHunk:@@ -1 +1 @@", "diffRemoved:-old", "diffAdded:+new é"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("string form tokens:\ngot  %q\nwant %q", got, want)
	}

	// A range request returns only the tokens of the lines it covers.
	c.open("file:///tmp/esc.review.json", escapedReview)
	c.mustCall("textDocument/semanticTokens/range", map[string]any{
		"textDocument": map[string]any{"uri": "file:///tmp/esc.review.json"},
		"range":        protocol.Range{Start: protocol.Position{Line: 9}, End: protocol.Position{Line: 11}},
	}, &toks)
	got = tokenText(t, escapedReview, exchange.UTF16, toks.Data)
	want = []string{`diffRemoved:-\tname := \u00e9`, `diffAdded:+\tname := \"é\" // \\ ok`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("range tokens:\ngot  %q\nwant %q", got, want)
	}
}

func TestInlayHintsGutter(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/auth.review.json")
	c.open(uri, exampleReview)
	var hints []inlayHint
	c.mustCall("textDocument/inlayHint", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        protocol.Range{End: protocol.Position{Line: 100}},
	}, &hints)
	var got []string
	for _, h := range hints {
		got = append(got, fmt.Sprintf("%d:%d %s", h.Position.Line, h.Position.Character, h.Label))
	}
	want := []string{"9:4 70 70", "10:4 71 71", "11:4 72   ", "12:4    72", "13:4    73", "14:4 73 74"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("inlay hints:\ngot  %q\nwant %q", got, want)
	}
}

func TestFoldingSymbolsAndLens(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/auth.review.json")
	c.open(uri, exampleReview)

	var folds []protocol.FoldingRange
	c.mustCall("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": uri}}, &folds)
	var gotFolds []string
	for _, f := range folds {
		gotFolds = append(gotFolds, fmt.Sprintf("%d-%d", f.StartLine, f.EndLine))
	}
	// The file, its hunk, the comment (0-based lines).
	if want := "5-14|8-14|17-29"; strings.Join(gotFolds, "|") != want {
		t.Errorf("folding ranges: got %q, want %q", strings.Join(gotFolds, "|"), want)
	}

	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	var outline []string
	var walk func(prefix string, ss []protocol.DocumentSymbol)
	walk = func(prefix string, ss []protocol.DocumentSymbol) {
		for _, s := range ss {
			line := prefix + s.Name
			if s.Detail != "" {
				line += " — " + s.Detail
			}
			outline = append(outline, line)
			walk(prefix+"  ", s.Children)
		}
	}
	walk("", syms)
	// Counts are in words: "1 active comment", never "1 active comments".
	wantOutline := []string{
		"internal/api/ — 3 changed lines, 1 active comment",
		"  internal/api/handler.go — 3 changed lines, 1 active comment",
		"    @@ -70,5 +70,6 @@ — func Handle(input Input) (Output, error) {",
		"comments — 1 active",
		"  c1 · internal/api/handler.go RIGHT 72 — active · `err` is assigned and discarded — return it instead.",
	}
	if strings.Join(outline, "\n") != strings.Join(wantOutline, "\n") {
		t.Errorf("outline:\ngot  %q\nwant %q", outline, wantOutline)
	}

	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
	var titles []string
	for _, l := range lenses {
		titles = append(titles, l.Command.Title)
	}
	if want := "1 comment: 1 active|1 warning|1 comment: 1 active|contract: n/a · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold"; strings.Join(titles, "|") != want {
		t.Errorf("code lenses: got %q, want %q", strings.Join(titles, "|"), want)
	}
}

func TestFormattingIsMinimalAndRefusesBrokenJSON(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///tmp/auth.review.json")
	c.open(uri, exampleReview)
	var edits []protocol.TextEdit
	c.mustCall("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	// The spec's example differs from the canonical form only in its
	// one-line reply.
	if len(edits) != 1 || edits[0].Range.Start.Line != 27 {
		t.Fatalf("formatting edits: got %+v, want one edit on the reply's line", edits)
	}
	got := applyTextEdits(t, exampleReview, exchange.UTF16, edits)
	want, err := exchange.Format(exchange.Parse([]byte(exampleReview)))
	if err != nil || got != string(want) {
		t.Errorf("formatted text differs from the canonical writer's:\n%s", got)
	}

	broken := strings.Replace(exampleReview, `"title": "auth refactor",`, `"title": "auth refactor"`, 1)
	c.change(uri, 2, nil, broken)
	c.mustCall("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": 2}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting a document with a syntax error: got %d edits, want none", len(edits))
	}
}

// applyTextEdits applies protocol edits to text, as an editor would.
func applyTextEdits(t *testing.T, text string, enc exchange.Encoding, edits []protocol.TextEdit) string {
	t.Helper()
	m := exchange.NewMapper([]byte(text))
	var ex []exchange.Edit
	for _, e := range edits {
		start, err1 := m.Offset(exchange.Position{Line: int(e.Range.Start.Line), Character: int(e.Range.Start.Character)}, enc)
		end, err2 := m.Offset(exchange.Position{Line: int(e.Range.End.Line), Character: int(e.Range.End.Character)}, enc)
		if err1 != nil || err2 != nil {
			t.Fatalf("edit %+v does not map: %v %v", e, err1, err2)
		}
		ex = append(ex, exchange.Edit{Start: start, End: end, NewText: e.NewText})
	}
	out, err := exchange.ApplyEdits([]byte(text), ex)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprint(d.Code))
	}
	return out
}

func TestIncrementalChangesInBothEncodings(t *testing.T) {
	for _, enc := range []exchange.Encoding{exchange.UTF16, exchange.UTF8} {
		t.Run(enc.String(), func(t *testing.T) {
			c := newTestClient(t, Options{})
			if enc == exchange.UTF8 {
				c.initialize("utf-8")
			} else {
				c.initialize()
			}
			uri := protocol.DocumentURI("file:///tmp/auth.review.json")
			text := strings.Replace(exampleReview, `"auth refactor"`, `"auth 😀 refactor é"`, 1)
			text = strings.Replace(text, `"start_line": 72`, `"start_line": 71`, 1)
			c.open(uri, text)
			if got := codes(c.waitDiagnostics(uri, 1)); !contains(got, "snippet-mismatch") {
				t.Fatalf("version 1: got codes %v, want snippet-mismatch", got)
			}
			// Replace the 1 of 71 by 2, addressing it by position in the
			// negotiated encoding, after the emoji line.
			m := exchange.NewMapper([]byte(text))
			off := strings.Index(text, `71,`) + 1
			p := m.Position(off, enc)
			rng := protocol.Range{Start: protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}, End: protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character + 1)}}
			c.change(uri, 2, &rng, "2")
			if got := codes(c.waitDiagnostics(uri, 2)); contains(got, "snippet-mismatch") || contains(got, "syntax") {
				t.Errorf("version 2: got codes %v, want the drift gone", got)
			}
			// Typing in the title, before the patch, shifts it; the
			// diagnostics on the patch must move along.
			tp := m.Position(strings.Index(text, "é\""), enc)
			ins := protocol.Range{Start: protocol.Position{Line: uint32(tp.Line), Character: uint32(tp.Character)}, End: protocol.Position{Line: uint32(tp.Line), Character: uint32(tp.Character)}}
			c.change(uri, 3, &ins, "😀😀")
			ds := c.waitDiagnostics(uri, 3)
			if len(ds) != 1 || ds[0].Code != "hunk-count-mismatch" || ds[0].Range.Start.Line != 8 {
				t.Errorf("version 3: got %+v, want the hunk-count warning on line 9", ds)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestDismissedIsGreyedAndSettingsSilence(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{"diagnostics": map[string]any{"disabled": []string{"hunk-count-mismatch"}}}}})
	uri := protocol.DocumentURI("file:///tmp/d.review.json")
	text := strings.Replace(exampleReview, `"state": "active"`, `"state": "dismissed"`, 1)
	text = strings.Replace(text, `"start_line": 72`, `"start_line": 99`, 1)
	c.open(uri, text)
	ds := c.waitDiagnostics(uri, 1)
	if len(ds) != 1 || ds[0].Code != "dismissed" || len(ds[0].Tags) != 1 || ds[0].Tags[0] != protocol.DiagnosticTagUnnecessary {
		t.Fatalf("got %+v, want only the Unnecessary hint of the dismissed comment (no anchoring error, hunk count silenced)", ds)
	}
	if ds[0].Range.Start.Line != 17 || ds[0].Range.End.Line != 29 {
		t.Errorf("dismissed hint range: got %v, want the comment object (lines 18-30)", ds[0].Range)
	}
}

func TestCompletionSnippetsFollowTheClient(t *testing.T) {
	text := `{"leanreview_review": 1, "patch": [], "comments": [{"path": "x", }]}`
	at := uint32(strings.Index(text, "}]"))
	for _, snippets := range []bool{false, true} {
		c := newTestClient(t, Options{})
		c.mustCall("initialize", map[string]any{"capabilities": map[string]any{
			"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": snippets}}},
		}}, nil)
		c.notifyServer("initialized", map[string]any{})
		uri := protocol.DocumentURI("file:///tmp/c.review.json")
		c.open(uri, text)
		var list protocol.CompletionList
		c.mustCall("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": protocol.Position{Character: at}}, &list)
		var side *protocol.CompletionItem
		for i := range list.Items {
			if list.Items[i].Label == "side" {
				side = &list.Items[i]
			}
		}
		if side == nil {
			t.Fatalf("snippets %v: no `side` item in %d items", snippets, len(list.Items))
		}
		wantFormat := protocol.InsertTextFormatPlainText
		if snippets {
			wantFormat = protocol.InsertTextFormatSnippet
		}
		if side.InsertTextFormat != wantFormat || strings.Contains(side.TextEdit.NewText, "$") != snippets {
			t.Errorf("snippets %v: got format %v text %q", snippets, side.InsertTextFormat, side.TextEdit.NewText)
		}
	}
}
