package lsp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
)

// cplCursor marks where completion is asked in the test documents.
const cplCursor = "‸"

// cplReview is navReview's patch with one finished comment (authors,
// emoji) and the text being typed at the end of the comments array; open
// cuts the document off there, as at the end of a file being written.
func cplReview(typing string, open bool) string {
	head := navReview[:strings.Index(navReview, `    {"id": "c2"`)]
	doc := head + "    " + typing
	if !open {
		doc += "\n  ]\n}\n"
	}
	return doc
}

// complete opens text (without its cursor mark) as a new document and
// asks for completion at the mark.
func (s *navSession) complete(text string) (*protocol.CompletionList, protocol.Position) {
	s.t.Helper()
	at := strings.Index(text, cplCursor)
	if at < 0 {
		s.t.Fatalf("no cursor in %q", text)
	}
	text = text[:at] + text[at+len(cplCursor):]
	s.opened++
	s.uri = protocol.DocumentURI(fmt.Sprintf("file:///tmp/completion%d.review.json", s.opened))
	s.text = text
	s.c.open(s.uri, text)
	pos := navPosition(text, at, s.enc)
	var list *protocol.CompletionList
	s.c.mustCall("textDocument/completion", s.params(pos), &list)
	if list == nil {
		s.t.Fatalf("completion in %q: got null, want a list", text)
	}
	return list, pos
}

// rangeAround is the range of the occurrence of needle that holds the
// cursor at pos.
func (s *navSession) rangeAround(needle string, pos protocol.Position) protocol.Range {
	s.t.Helper()
	at := navOffset(s.t, s.text, pos, s.enc)
	for i := max(0, at-len(needle)); i <= at && i+len(needle) <= len(s.text); i++ {
		if s.text[i:i+len(needle)] == needle {
			return protocol.Range{Start: navPosition(s.text, i, s.enc), End: navPosition(s.text, i+len(needle), s.enc)}
		}
	}
	s.t.Fatalf("no %q around the cursor at %v", needle, pos)
	return protocol.Range{}
}

func cplLabels(l *protocol.CompletionList) []string {
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Label)
	}
	return out
}

func cplItem(t *testing.T, l *protocol.CompletionList, label string) protocol.CompletionItem {
	t.Helper()
	for _, it := range l.Items {
		if it.Label == label {
			return it
		}
	}
	t.Fatalf("no item %q in %q", label, cplLabels(l))
	return protocol.CompletionItem{}
}

func cplDoc(it protocol.CompletionItem) string {
	m, _ := it.Documentation.(map[string]any)
	if m == nil || m["kind"] != "markdown" {
		return ""
	}
	v, _ := m["value"].(string)
	return v
}

func TestCompletion(t *testing.T) {
	commentKeys := slices.DeleteFunc(slices.Clone(exchange.CommentKeys), func(k string) bool { return k == "id" })
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, navReview, e.offer, e.enc)
			for _, tc := range []struct {
				name    string
				text    string
				replace string // the exact text the edit range covers ("" for an empty range at the cursor)
				labels  []string
				item    string // the item checked in detail
				kind    protocol.CompletionItemKind
				newText string
				filter  string
				detail  string // substring
				doc     string // substring of the Markdown documentation
				// colonAfter: each item adds ": " after the closing quote.
				colonAfter bool
			}{
				{
					name: "side after its colon", text: cplReview("{\"id\": \"😀3\", \"path\": \"é.go\", \"side\": "+cplCursor+"\n      \"start_line\": 2, \"body\": \"b\"}", false),
					labels: []string{"RIGHT", "LEFT"},
					item:   "RIGHT", kind: protocol.CompletionItemKindEnumMember, newText: `"RIGHT"`, filter: "RIGHT", doc: "The **new** image",
				},
				{
					name: "an unterminated path", text: cplReview("{\"id\": \"😀3\", \"side\": \"RIGHT\", \"path\": \"é"+cplCursor+"\n    }", false),
					replace: `"é`, labels: []string{"é.go"},
					item: "é.go", kind: protocol.CompletionItemKindFile, newText: `"é.go"`, filter: `"é.go"`, detail: "modified · +2 −1",
				},
				{
					name: "start_line at the end of the input", text: cplReview(`{"id": "😀3", "path": "é.go", "side": "RIGHT", "start_line": `+cplCursor, true),
					labels: []string{"1", "2", "3", "4"},
					item:   "2", kind: protocol.CompletionItemKindValue, newText: "2", filter: "2", detail: `+ name := "é" // \ ok`,
					doc: "```diff\n  1 1  │ \tctx := \"😀\"\n- 2    │ \tname := é\n+   2 >│ \tname := \"é\" // \\ ok\n",
				},
				{
					name: "a partial end_line stays in the hunk, after start_line", text: cplReview(`{"id": "😀3", "path": "é.go", "side": "RIGHT", "start_line": 3, "end_line": 4`+cplCursor+`}`, false),
					replace: "4", labels: []string{"3", "4"},
					item: "4", newText: "4", detail: "  return",
				},
				{
					// Within the quotes, the name alone; the colon after them.
					name: "a member name in the quotes the editor closed", text: cplReview(`{"id": "😀3", "`+cplCursor+`"}`, false),
					labels: commentKeys, colonAfter: true,
					item: "path", kind: protocol.CompletionItemKindProperty, newText: `path`, filter: `path`, detail: "File path (required)", doc: "**without** the `a/` or `b/` prefix",
				},
				{
					name: "reply members", text: cplReview(`{"id": "😀3", "replies": [{"author": "😀", `+cplCursor+`}]}`, false),
					labels: []string{"body", "at"},
					item:   "at", newText: `"at": `, doc: "RFC 3339",
				},
				{
					name: "state values in an unterminated string", text: cplReview("{\"id\": \"😀3\", \"state\": \"dis"+cplCursor+"\n    }", false),
					replace: `"dis`, labels: []string{"active", "dismissed", "orphaned", "stale"},
					item: "dismissed", newText: `"dismissed"`, filter: `"dismissed"`, doc: "A person rejected it",
				},
				{
					name: "authors of the review", text: cplReview(`{"id": "😀3", "author": `+cplCursor+`}`, false),
					labels: []string{"hé"},
					item:   "hé", newText: `"hé"`,
				},
			} {
				t.Run(tc.name, func(t *testing.T) {
					list, pos := s.complete(tc.text)
					if got := cplLabels(list); !slices.Equal(got, tc.labels) {
						t.Errorf("%s: got labels %q, want %q", tc.name, got, tc.labels)
						return
					}
					want := protocol.Range{Start: pos, End: pos}
					if tc.replace != "" {
						want = s.rangeAround(tc.replace, pos)
					}
					for _, it := range list.Items {
						if it.TextEdit == nil || it.TextEdit.Range != want {
							t.Errorf("%s: item %q: got edit %+v, want range %+v (over %q)", tc.name, it.Label, it.TextEdit, want, tc.replace)
						}
						colon := []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{Line: pos.Line, Character: pos.Character + 1}, End: protocol.Position{Line: pos.Line, Character: pos.Character + 1}}, NewText: ": "}}
						if tc.colonAfter && !slices.Equal(it.AdditionalTextEdits, colon) {
							t.Errorf("%s: item %q: got extra edits %v, want %v", tc.name, it.Label, it.AdditionalTextEdits, colon)
						} else if it.InsertTextFormat != protocol.InsertTextFormatPlainText || !tc.colonAfter && len(it.AdditionalTextEdits) > 0 {
							t.Errorf("%s: item %q: got format %v and extra edits %v, want plain text alone", tc.name, it.Label, it.InsertTextFormat, it.AdditionalTextEdits)
						}
					}
					it := cplItem(t, list, tc.item)
					if tc.kind != 0 && it.Kind != tc.kind {
						t.Errorf("%s: item %q: got kind %v, want %v", tc.name, tc.item, it.Kind, tc.kind)
					}
					if it.TextEdit != nil && it.TextEdit.NewText != tc.newText {
						t.Errorf("%s: item %q: got new text %q, want %q", tc.name, tc.item, it.TextEdit.NewText, tc.newText)
					}
					if tc.filter != "" && it.FilterText != tc.filter {
						t.Errorf("%s: item %q: got filter text %q, want %q", tc.name, tc.item, it.FilterText, tc.filter)
					}
					if !strings.Contains(it.Detail, tc.detail) {
						t.Errorf("%s: item %q: got detail %q, want it to contain %q", tc.name, tc.item, it.Detail, tc.detail)
					}
					if got := cplDoc(it); !strings.Contains(got, tc.doc) {
						t.Errorf("%s: item %q: got documentation\n%s\nwant it to contain\n%s", tc.name, tc.item, got, tc.doc)
					}
				})
			}
		})
	}
}

// A name typed after a member that has no comma yet brings the comma
// along, as an additional edit right after that member.
func TestCompletionAddsTheMissingComma(t *testing.T) {
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, navReview, e.offer, e.enc)
			list, pos := s.complete(cplReview("{\"id\": \"😀3\"\n      \"pa"+cplCursor, true))
			it := cplItem(t, list, "path")
			at := s.pos(`"😀3"`, len(`"😀3"`))
			want := []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: ","}}
			if !slices.Equal(it.AdditionalTextEdits, want) {
				t.Errorf("got additional edits %+v, want %+v", it.AdditionalTextEdits, want)
			}
			if r := s.rangeAround(`"pa`, pos); it.TextEdit == nil || it.TextEdit.Range != r || it.TextEdit.NewText != `"path": ` {
				t.Errorf("got edit %+v, want %q over %+v", it.TextEdit, `"path": `, r)
			}
		})
	}
}

// Nothing to propose is an empty list, not an error: the space trigger
// fires in every comment body.
func TestCompletionInABody(t *testing.T) {
	s := navOpen(t, navReview, nil, exchange.UTF16)
	list, _ := s.complete(cplReview(`{"id": "😀3", "body": "a `+cplCursor+`b"}`, false))
	if len(list.Items) != 0 {
		t.Errorf("got items %q, want none", cplLabels(list))
	}
}

// Clients that take snippets get the value's placeholder with the name;
// the others, and items without a snippet, get plain text.
func TestCompletionListSnippets(t *testing.T) {
	text := `{"😀": "x", }`
	conv := Converter{M: exchange.NewMapper([]byte(text)), Enc: exchange.UTF16}
	at := strings.Index(text, "}")
	c := features.Completion{Range: exchange.Range{Start: at, End: at}, Items: []features.Item{
		{Label: "side", Kind: features.ItemMember, Text: `"side": `, Snippet: `"side": "$1"`, Extra: []exchange.Edit{{Start: 1, End: 1, NewText: ","}}},
		{Label: "LEFT", Kind: features.ItemEnum, Text: `"LEFT"`},
	}}
	for _, tc := range []struct {
		snippets bool
		want     []string
	}{
		{false, []string{`1 "side": `, `1 "LEFT"`}},
		{true, []string{`2 "side": "$1"`, `1 "LEFT"`}},
	} {
		t.Run(fmt.Sprint("snippets=", tc.snippets), func(t *testing.T) {
			list := completionList(conv, c, tc.snippets, clientCaps{docMarkdown: true, preselect: true, asIs: true, completionKinds: []protocol.CompletionItemKind{protocol.CompletionItemKindEnumMember}})
			var got []string
			for _, it := range list.Items {
				got = append(got, fmt.Sprintf("%d %s", int(it.InsertTextFormat), it.TextEdit.NewText))
				if want := (protocol.Range{Start: protocol.Position{Character: 12}, End: protocol.Position{Character: 12}}); it.TextEdit.Range != want {
					t.Errorf("snippets %v: item %q: got range %+v, want %+v", tc.snippets, it.Label, it.TextEdit.Range, want)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("snippets %v: got %q, want %q", tc.snippets, got, tc.want)
			}
			if extra := list.Items[0].AdditionalTextEdits; len(extra) != 1 || extra[0].Range.Start.Character != 1 {
				t.Errorf("snippets %v: got additional edits %+v, want a comma at 0:1", tc.snippets, extra)
			}
		})
	}
}
