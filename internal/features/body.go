package features

import (
	"fmt"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// A body edited as Markdown. A comment's or reply's body is one JSON
// string: typing a ```suggestion block there means typing \n, \t and \"
// by hand. The editor opens the body unescaped in a Markdown buffer
// instead (BodyAtOffset gives its text), and writes it back as one JSON
// string (SetBodyEdit), escaped by the project's one writer
// (exchange.Quote), which every editor shares through the server.

// Body is the body string of a comment or of one of its replies.
type Body struct {
	// Place names it (BodyCursor: the comment, the reply or -1).
	Place BodyCursor
	// Text is the body, unescaped; Range its JSON string, quotes and all.
	Text  string
	Range exchange.Range
}

// BodyAtOffset is the body of the reply the offset is in, else of the
// comment it is in.
func BodyAtOffset(doc *exchange.Document, offset int) (Body, error) {
	c := anchor.CommentAt(doc, offset)
	if c == nil {
		return Body{}, fmt.Errorf("the cursor is in no comment")
	}
	place := BodyCursor{Comment: c.Name(), Reply: -1}
	for i, r := range c.Replies {
		if r.Node != nil && r.Node.Start <= offset && offset < r.Node.End {
			place.Reply = i
		}
	}
	return bodyAt(doc, place)
}

// BodyOf is the body place names.
func BodyOf(doc *exchange.Document, place BodyCursor) (Body, error) { return bodyAt(doc, place) }

// bodyAt is the body place names.
func bodyAt(doc *exchange.Document, place BodyCursor) (Body, error) {
	for i := len(doc.Review.Comments) - 1; i >= 0; i-- {
		c := doc.Review.Comments[i]
		if c.Name() != place.Comment || c.Node == nil {
			continue
		}
		n, text, what := c.Member("body"), c.Body, place.Comment
		if place.Reply >= 0 {
			if place.Reply >= len(c.Replies) || c.Replies[place.Reply].Node == nil {
				return Body{}, fmt.Errorf("%s has no reply %d", place.Comment, place.Reply+1)
			}
			r := c.Replies[place.Reply]
			n, text, what = r.Node.Member("body"), r.Body, fmt.Sprintf("reply %d of %s", place.Reply+1, place.Comment)
		}
		switch {
		case n == nil:
			return Body{}, fmt.Errorf("%s has no body", what)
		case n.Kind != exchange.KindString || !n.Closed:
			return Body{}, fmt.Errorf("the body of %s is not a closed string", what)
		}
		return Body{Place: place, Text: text, Range: exchange.NodeRange(n)}, nil
	}
	return Body{}, fmt.Errorf("no comment %s", place.Comment)
}

// SetBodyEdit is the edit that makes the body place names text: its
// string replaced by text quoted as the writer quotes, nothing else. No
// edit when the body already holds text, however it is escaped: saving a
// body unchanged changes no byte.
func SetBodyEdit(doc *exchange.Document, place BodyCursor, text string) ([]exchange.Edit, error) {
	b, err := bodyAt(doc, place)
	if err != nil || b.Text == text {
		return nil, err
	}
	return []exchange.Edit{{Start: b.Range.Start, End: b.Range.End, NewText: jsontext.Quote(text)}}, nil
}
