package features

import (
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// cpPatch has two hunks in handler.go, a new file and a deleted one:
//
//	handler.go RIGHT 70–74, 101–103; LEFT 70–73, 100–101
//	docs/new.md RIGHT 1–2 (no LEFT image); old.txt LEFT 1 (no RIGHT image)
var cpPatch = []string{
	"diff --git a/internal/api/handler.go b/internal/api/handler.go",
	"--- a/internal/api/handler.go",
	"+++ b/internal/api/handler.go",
	"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",
	"     ctx := context.Background()",
	"     defer cancel(ctx)",
	"-    result := calculate(input)",
	"+    result, err := calculate(input)",
	"+    _ = err",
	"     return result, nil",
	"@@ -100,2 +101,3 @@ func Other() {",
	"     a := 1",
	"+    b := 2",
	"     c := 3",
	"diff --git a/docs/new.md b/docs/new.md",
	"new file mode 100644",
	"--- /dev/null",
	"+++ b/docs/new.md",
	"@@ -0,0 +1,2 @@",
	"+# Title",
	"+body text",
	"diff --git a/old.txt b/old.txt",
	"deleted file mode 100644",
	"--- a/old.txt",
	"+++ /dev/null",
	"@@ -1 +0,0 @@",
	"-gone forever",
}

// cpCursor marks the cursor in the test documents.
const cpCursor = "‸"

// cpDoc lays out a review whose comments array holds comments (raw text
// with the cursor mark); open leaves the document cut off after them, as
// while typing at its end.
func cpDoc(comments string, open bool) string {
	var b strings.Builder
	b.WriteString("{\n  \"leanreview_review\": 1,\n  \"patch\": [")
	for i, l := range cpPatch {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + jsontext.Quote(l))
	}
	b.WriteString("\n  ],\n  \"comments\": [\n    {\"id\": \"c0\", \"author\": \"assistant\", \"path\": \"internal/api/handler.go\", \"side\": \"RIGHT\", \"start_line\": 72, \"body\": \"x\", \"replies\": [{\"author\": \"hduran\", \"body\": \"y\"}]},\n    ")
	b.WriteString(comments)
	if !open {
		b.WriteString("\n  ]\n}\n")
	}
	return b.String()
}

// cpComplete completes at the cursor mark of src (which it removes).
func cpComplete(t *testing.T, src string) (string, Completion) {
	t.Helper()
	at := strings.Index(src, cpCursor)
	if at < 0 {
		t.Fatalf("no cursor in %q", src)
	}
	src = src[:at] + src[at+len(cpCursor):]
	an := analyze(exchange.Parse([]byte(src)))
	return src, Complete(an, at)
}

func cpLabels(c Completion) []string {
	var out []string
	for _, it := range c.Items {
		out = append(out, it.Label)
	}
	return out
}

func cpItem(c Completion, label string) (Item, bool) {
	for _, it := range c.Items {
		if it.Label == label {
			return it, true
		}
	}
	return Item{}, false
}

var (
	cpCommentKeysBut = func(skip ...string) []string {
		var out []string
		for _, k := range exchange.CommentKeys {
			if !slices.Contains(skip, k) {
				out = append(out, k)
			}
		}
		return out
	}
	handlerRight = []string{"70", "71", "72", "73", "74", "101", "102", "103"}
)

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		replace string   // the text the items replace
		labels  []string // nil: no items
		// checks of one item: label → text, snippet, filter, detail (each
		// checked when not empty; detail and doc as substrings)
		item                               string
		text, snippet, filter, detail, doc string
		comma                              string // text the extra comma edit follows, "" for none
		preselect                          string
		colon                              bool // each item adds ": " after the closing quote
	}{
		{
			name: "member names in a comment", src: cpDoc(`{"id": "c9", `+cpCursor+`}`, false),
			replace: "", labels: cpCommentKeysBut("id"),
			item: "side", text: `"side": `, snippet: `"side": "$1"`, filter: "side", detail: "Side (required)", doc: "Which image of the diff",
		},
		{
			name: "integer and array members get their value's placeholder", src: cpDoc(`{"id": "c9", `+cpCursor+`}`, false),
			replace: "", labels: cpCommentKeysBut("id"),
			item: "replies", text: `"replies": `, snippet: `"replies": [$1]`, detail: "Replies",
		},
		{
			name: "start_line snippet", src: cpDoc(`{"id": "c9", `+cpCursor+`}`, false),
			replace: "", labels: cpCommentKeysBut("id"),
			item: "start_line", text: `"start_line": `, snippet: `"start_line": $1`,
		},
		{
			name: "a half-typed name, unterminated", src: cpDoc("{\"id\": \"c9\", \"path\": \"x\", \"si"+cpCursor+"\n    }", false),
			replace: `"si`, labels: cpCommentKeysBut("id", "path"),
			item: "side", text: `"side": `, filter: `"side"`,
		},
		{
			// Within the quotes (every client applies that alike), the
			// colon after them.
			name: "inside the quotes the editor closed", src: cpDoc(`{"id": "c9", "`+cpCursor+`"}`, false),
			replace: ``, labels: cpCommentKeysBut("id"), colon: true,
			item: "body", text: `body`, filter: `body`,
		},
		{
			name: "renaming a key keeps its colon", src: cpDoc(`{"id": "c9", "si`+cpCursor+`de": "RIGHT"}`, false),
			replace: `side`, labels: cpCommentKeysBut("id"),
			item: "side", text: `side`, snippet: "",
		},
		{
			name: "a name after a member without its comma", src: cpDoc("{\"id\": \"c9\"\n      "+cpCursor+"\n    }", false),
			replace: "", labels: cpCommentKeysBut("id"), comma: `"c9"`,
			item: "path", text: `"path": `,
		},
		{
			name: "a half-typed name after a member without its comma", src: cpDoc("{\"id\": \"c9\"\n      \"pa"+cpCursor, true),
			replace: `"pa`, labels: cpCommentKeysBut("id"), comma: `"c9"`,
		},
		{
			name: "reply members", src: cpDoc(`{"id": "c9", "replies": [{"author": "me", `+cpCursor+`}]}`, false),
			replace: "", labels: []string{"body", "at"},
			item: "body", detail: "Body (required)", doc: "The reply text",
		},
		{
			name: "side values after the colon and a space", src: cpDoc("{\"path\": \"internal/api/handler.go\", \"side\": "+cpCursor+"\n      \"start_line\": 72, \"body\": \"b\"}", false),
			replace: "", labels: []string{"RIGHT", "LEFT"},
			item: "LEFT", text: `"LEFT"`, filter: "LEFT", doc: "The **old** image",
		},
		{
			name: "a side value right after the colon gets its space", src: cpDoc(`{"side":`+cpCursor+`}`, false),
			replace: "", labels: []string{"RIGHT", "LEFT"},
			item: "RIGHT", text: ` "RIGHT"`,
		},
		{
			name: "a partial side in quotes", src: cpDoc(`{"side": "R`+cpCursor+`"}`, false),
			replace: `R`, labels: []string{"RIGHT", "LEFT"},
			item: "RIGHT", text: `RIGHT`, filter: `RIGHT`,
		},
		{
			name: "a bare partial side", src: cpDoc(`{"side": R`+cpCursor+`}`, false),
			replace: `R`, labels: []string{"RIGHT", "LEFT"},
			item: "RIGHT", text: `"RIGHT"`, filter: "RIGHT",
		},
		{
			name: "state values, unterminated", src: cpDoc("{\"state\": \""+cpCursor+"\n    }", false),
			replace: `"`, labels: []string{"active", "dismissed", "orphaned", "stale"},
			item: "active", text: `"active"`, filter: `"active"`, doc: "**The default.**",
		},
		{
			name: "paths for the side given later", src: cpDoc("{\"path\": \"inter"+cpCursor+"\n      \"side\": \"LEFT\", \"start_line\": 72, \"body\": \"b\"}", false),
			replace: `"inter`, labels: []string{"internal/api/handler.go", "old.txt"},
			item: "old.txt", text: `"old.txt"`, filter: `"old.txt"`, detail: "deleted file · +0 −1",
		},
		{
			name: "paths for RIGHT", src: cpDoc(`{"side": "right", "path": `+cpCursor+`}`, false),
			replace: "", labels: []string{"internal/api/handler.go", "docs/new.md"},
			item: "internal/api/handler.go", detail: "modified · +3 −1",
		},
		{
			name: "every path when the side is unknown", src: cpDoc(`{"path": "`+cpCursor+`", "side": "MIDDLE"}`, false),
			replace: ``, labels: []string{"internal/api/handler.go", "docs/new.md", "old.txt"},
		},
		{
			name: "start_line at the end of the input", src: cpDoc(`{"path": "internal/api/handler.go", "side": "RIGHT", "start_line": `+cpCursor, true),
			replace: "", labels: handlerRight,
			item: "72", text: "72", detail: "+ result, err := calculate(input)", doc: "```diff\n   70  70  │     ctx := context.Background()\n   71  71  │     defer cancel(ctx)\n-  72      │     result := calculate(input)\n+      72 >│     result, err := calculate(input)\n",
		},
		{
			name: "a partial start_line", src: cpDoc(`{"path": "internal/api/handler.go", "side": "RIGHT", "start_line": 7`+cpCursor+`, "body": "b"}`, false),
			replace: "7", labels: handlerRight,
			item: "74", text: "74", filter: "74", detail: "  return result, nil",
		},
		{
			name: "start_line on the old image", src: cpDoc(`{"path": "internal/api/handler.go", "side": "LEFT", "start_line": `+cpCursor+`}`, false),
			replace: "", labels: []string{"70", "71", "72", "73", "100", "101"},
			item: "72", detail: "- result := calculate(input)",
		},
		{
			name: "start_line without a side: RIGHT", src: cpDoc(`{"path": "internal/api/handler.go", "start_line": `+cpCursor+`}`, false),
			replace: "", labels: handlerRight,
		},
		{
			name: "start_line of a deleted file without a side: LEFT", src: cpDoc(`{"path": "old.txt", "start_line": `+cpCursor+`}`, false),
			replace: "", labels: []string{"1"},
		},
		{
			name: "end_line stays in start_line's hunk", src: cpDoc(`{"path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "end_line": `+cpCursor+`}`, false),
			replace: "", labels: []string{"72", "73", "74"},
		},
		{
			name: "the line the snippet names is preselected", src: cpDoc(`{"path": "internal/api/handler.go", "side": "RIGHT", "start_line": `+cpCursor+`, "snippet": "_ = err"}`, false),
			replace: "", labels: handlerRight, preselect: "73",
		},
		{
			name: "no lines for an unknown path", src: cpDoc(`{"path": "nope.go", "side": "RIGHT", "start_line": `+cpCursor+`}`, false),
			replace: "",
		},
		{
			name: "no lines for a missing image", src: cpDoc(`{"path": "docs/new.md", "side": "LEFT", "start_line": `+cpCursor+`}`, false),
			replace: "",
		},
		{
			name: "authors of the review", src: cpDoc(`{"author": "`+cpCursor+`"}`, false),
			replace: ``, labels: []string{"assistant", "hduran"},
		},
		{
			name: "the author being typed is not proposed", src: cpDoc(`{"author": "newc`+cpCursor+`"}`, false),
			replace: `newc`, labels: []string{"assistant", "hduran"},
		},
		{
			name: "nothing inside a body", src: cpDoc(`{"body": "some `+cpCursor+`text"}`, false),
			replace: `"some text"`,
		},
		{
			name: "nothing after a bare key", src: cpDoc(`{"side" `+cpCursor+`}`, false),
			replace: "",
		},
		{
			name: "a new comment in the comments array", src: cpDoc(cpCursor, false),
			replace: "", labels: []string{"new comment"}, preselect: "new comment",
		},
		{
			name: "review members", src: "{\n  \"leanreview_review\": 1,\n  \"patch\": [],\n  " + cpCursor + "\n}",
			replace: "", labels: []string{"title", "summary", "comments"},
			item: "comments", snippet: `"comments": [$1]`, detail: "Comments (required)",
		},
		{
			name: "the version", src: "{\"leanreview_review\": " + cpCursor,
			replace: "", labels: []string{"1"},
		},
		{
			name: "the first member of an empty document", src: "{" + cpCursor,
			replace: "", labels: exchange.ReviewKeys,
			item: "leanreview_review", snippet: `"leanreview_review": ${1:1}`,
		},
		{
			name: "nothing in a patch line", src: "{\"leanreview_review\": 1, \"patch\": [\"+ a " + cpCursor + "\"]}",
			replace: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, c := cpComplete(t, tc.src)
			if got := src[c.Range.Start:c.Range.End]; got != tc.replace {
				t.Errorf("%s: got replaced text %q, want %q", tc.name, got, tc.replace)
			}
			if got := cpLabels(c); !slices.Equal(got, tc.labels) {
				t.Errorf("%s: got labels %q, want %q", tc.name, got, tc.labels)
			}
			for i := 1; i < len(c.Items); i++ {
				if c.Items[i-1].Sort >= c.Items[i].Sort {
					t.Errorf("%s: items %q and %q sort %q, %q: want ascending", tc.name, c.Items[i-1].Label, c.Items[i].Label, c.Items[i-1].Sort, c.Items[i].Sort)
				}
			}
			for _, it := range c.Items {
				var gotComma string
				if len(it.Extra) == 1 && it.Extra[0].NewText == "," && it.Extra[0].Start == it.Extra[0].End {
					gotComma = src[:it.Extra[0].Start]
				} else if len(it.Extra) > 0 {
					gotComma = "unexpected edits"
				}
				if tc.colon && len(it.Extra) == 1 && it.Extra[0].NewText == ": " && src[it.Extra[0].Start-2:it.Extra[0].Start] == `""` {
					gotComma = "" // the colon after the closing quote
				}
				if tc.comma == "" && gotComma != "" || tc.comma != "" && !strings.HasSuffix(gotComma, tc.comma) {
					t.Errorf("%s: item %q: got extra edits %+v, want a comma after %q", tc.name, it.Label, it.Extra, tc.comma)
				}
				if got, want := it.Preselect, it.Label == tc.preselect; got != want {
					t.Errorf("%s: item %q: got preselect %v, want %v", tc.name, it.Label, got, want)
				}
			}
			if tc.item == "" {
				return
			}
			it, ok := cpItem(c, tc.item)
			if !ok {
				t.Errorf("%s: no item %q", tc.name, tc.item)
				return
			}
			if tc.text != "" && it.Text != tc.text {
				t.Errorf("%s: item %q: got text %q, want %q", tc.name, tc.item, it.Text, tc.text)
			}
			if tc.snippet != "" && it.Snippet != tc.snippet {
				t.Errorf("%s: item %q: got snippet %q, want %q", tc.name, tc.item, it.Snippet, tc.snippet)
			}
			if tc.filter != "" && it.Filter != tc.filter {
				t.Errorf("%s: item %q: got filter %q, want %q", tc.name, tc.item, it.Filter, tc.filter)
			}
			if !strings.Contains(it.Detail, tc.detail) {
				t.Errorf("%s: item %q: got detail %q, want it to contain %q", tc.name, tc.item, it.Detail, tc.detail)
			}
			if !strings.Contains(it.Doc, tc.doc) {
				t.Errorf("%s: item %q: got doc\n%s\nwant it to contain\n%s", tc.name, tc.item, it.Doc, tc.doc)
			}
		})
	}
}

// The item's kind tells the editor which icon to show.
func TestCompleteKinds(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want ItemKind
	}{
		{cpDoc(`{`+cpCursor+`}`, false), ItemMember},
		{cpDoc(`{"side": `+cpCursor+`}`, false), ItemEnum},
		{cpDoc(`{"path": `+cpCursor+`}`, false), ItemPath},
		{cpDoc(`{"path": "old.txt", "side": "LEFT", "start_line": `+cpCursor+`}`, false), ItemLine},
		{cpDoc(`{"author": `+cpCursor+`}`, false), ItemValue},
	} {
		t.Run(tc.src, func(t *testing.T) {
			_, c := cpComplete(t, tc.src)
			if len(c.Items) == 0 || c.Items[0].Kind != tc.want {
				t.Errorf("completion in %q: got items %+v, want the first of kind %d", tc.src[strings.Index(tc.src, "\"comments\""):], c.Items, tc.want)
			}
		})
	}
}

// A file with many lines gets its line items without a diff excerpt each.
func TestCompleteManyLinesHaveNoDocs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1, "patch": ["--- a/big.txt", "+++ b/big.txt", "@@ -0,0 +1,400 @@"`)
	for i := 0; i < 400; i++ {
		b.WriteString(`, "+x"`)
	}
	b.WriteString(`], "comments": [{"path": "big.txt", "side": "RIGHT", "start_line": ` + cpCursor + `}]}`)
	_, c := cpComplete(t, b.String())
	if len(c.Items) != 400 {
		t.Fatalf("got %d items, want 400", len(c.Items))
	}
	if c.Items[0].Doc != "" || c.Items[0].Detail != "+ x" {
		t.Errorf("got first item %+v, want detail %q and no doc", c.Items[0], "+ x")
	}
}
