package features

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// hardBody has what makes a body painful to type as a JSON string: a
// suggestion block, tabs, quotes, backslashes, an emoji, CRLF line ends
// and a trailing line break.
const hardBody = "Return the error 🚀.\r\n\r\n```suggestion\r\n\t\tline -= \"a\\b\" // `x`\r\n```\r\n"

func bodyDoc(body string) string {
	return `{
  "leanreview_review": 1,
  "patch": ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -1 +1 @@", "-x", "+y"],
  "comments": [
    {"id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 1, "body": ` + body + `,
     "replies": [{"author": "ana", "body": "first"}, {"author": "bo", "body": "second"}]}
  ]
}
`
}

func TestBodyRoundTrip(t *testing.T) {
	src := bodyDoc(jsontext.Quote(hardBody))
	doc := exchange.Parse([]byte(src))
	b, err := BodyAtOffset(doc, strings.Index(src, `"start_line"`))
	if err != nil || b.Text != hardBody || b.Place != (BodyCursor{Comment: "c1", Reply: -1}) {
		t.Fatalf("got %+v, %v, want c1's body %q", b, err, hardBody)
	}
	// Saved unchanged: not a byte changes.
	if edits, err := SetBodyEdit(doc, b.Place, b.Text); err != nil || len(edits) != 0 {
		t.Errorf("unchanged: got %v, %v, want no edit", edits, err)
	}
	// Another text, and back: the document is as it was, byte for byte.
	edits, err := SetBodyEdit(doc, b.Place, "plain")
	if err != nil || len(edits) != 1 {
		t.Fatalf("got %v, %v, want one edit", edits, err)
	}
	plain := applyChecked(t, src, edits...)
	if plain != bodyDoc(`"plain"`) {
		t.Errorf("other text: got\n%s", plain)
	}
	doc2 := exchange.Parse([]byte(plain))
	edits, err = SetBodyEdit(doc2, b.Place, hardBody)
	if err != nil {
		t.Fatal(err)
	}
	if back := applyChecked(t, plain, edits...); back != src {
		t.Errorf("back: got\n%s\nwant\n%s", back, src)
	}
	if got := exchange.Parse([]byte(src)).Review.Comments[0].Body; got != hardBody {
		t.Errorf("the document reads %q, want %q", got, hardBody)
	}
}

func TestBodyOfAReply(t *testing.T) {
	src := bodyDoc(`"b"`)
	doc := exchange.Parse([]byte(src))
	b, err := BodyAtOffset(doc, strings.Index(src, `"bo"`))
	if err != nil || b.Text != "second" || b.Place.Reply != 1 || src[b.Range.Start:b.Range.End] != `"second"` {
		t.Fatalf("got %+v, %v, want reply 2's body", b, err)
	}
	edits, err := SetBodyEdit(doc, b.Place, "tab\there")
	if err != nil {
		t.Fatal(err)
	}
	if got := applyChecked(t, src, edits...); !strings.Contains(got, `"body": "tab\there"}]}`) || !strings.Contains(got, `"body": "first"`) {
		t.Errorf("got\n%s", got)
	}
	if _, err := BodyAtOffset(doc, strings.Index(src, `"patch"`)); err == nil {
		t.Errorf("a body outside every comment")
	}
}
