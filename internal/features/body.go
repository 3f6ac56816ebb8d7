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
	// Author and At are who wrote the body and when: with its text, what
	// tells that a body is still the one an editor opened (BodyMoved).
	Author, At string
}

// String names the body in messages: its comment, or "reply 2 of c1".
func (bc BodyCursor) String() string {
	if bc.Reply < 0 {
		return bc.Comment
	}
	return fmt.Sprintf("reply %d of %s", bc.Reply+1, bc.Comment)
}

// EditAsMarkdownTitle is the title of the action that opens the body at
// place as a Markdown file, for an editor with no way of its own.
func EditAsMarkdownTitle(place BodyCursor) string {
	if place.Reply < 0 {
		return fmt.Sprintf("Edit %s's body as Markdown", place.Comment)
	}
	return fmt.Sprintf("Edit %s as Markdown", place)
}

// BodyMoved says why the body was (as it was opened, its Text as last
// written back) is no longer in doc as it was: gone, another's, or
// changed there since; "" when it is. A reply's index alone would send
// a save to whichever reply took its place.
func BodyMoved(doc *exchange.Document, was Body) string {
	cur, err := bodyAt(doc, was.Place)
	switch {
	case err != nil:
		return fmt.Sprintf("%s is gone from the review (%v)", was.Place, err)
	case cur.Author != was.Author || cur.At != was.At:
		return fmt.Sprintf("%s is now %s's of %q, not %s's of %q the file was opened for", was.Place, cur.Author, cur.At, was.Author, was.At)
	case cur.Text != was.Text:
		return fmt.Sprintf("%s changed in the review since the file was opened", was.Place)
	}
	return ""
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
		n, text, author, at := c.Member("body"), c.Body, c.Author, c.At
		if place.Reply >= 0 {
			if place.Reply >= len(c.Replies) || c.Replies[place.Reply].Node == nil {
				return Body{}, fmt.Errorf("%s has no reply %d", place.Comment, place.Reply+1)
			}
			r := c.Replies[place.Reply]
			n, text, author, at = r.Node.Member("body"), r.Body, r.Author, r.At
		}
		what := place.String()
		switch {
		case n == nil:
			return Body{}, fmt.Errorf("%s has no body", what)
		case n.Kind != exchange.KindString || !n.Closed:
			return Body{}, fmt.Errorf("the body of %s is not a closed string", what)
		}
		return Body{Place: place, Text: text, Range: exchange.NodeRange(n), Author: author, At: at}, nil
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
