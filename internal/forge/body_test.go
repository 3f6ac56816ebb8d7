package forge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestCommentBodyReadsBack writes comment bodies as an export does and
// reads them as an import does: body, replies and id come back as they
// were, however the body ends and whatever the id holds.
func TestCommentBodyReadsBack(t *testing.T) {
	r := func(author, body, at string) *exchange.Reply {
		return &exchange.Reply{Author: author, Body: body, At: at}
	}
	tests := []struct {
		name    string
		id      string
		body    string
		replies []*exchange.Reply
	}{
		{"plain", "c1", "Return err.", nil},
		{"empty body", "c1", "", nil},
		{"empty body with a reply", "c1", "", []*exchange.Reply{r("a", "b", "")}},
		{"body ending in line feeds", "c1", "text\n\n", nil},
		{"body ending like quoted replies", "c1", "See:\n\n> **bob**: not a reply", nil},
		{"body holding a replies marker", "c1", "x\n\n" + repliesMarker + "\n> **a**: b", []*exchange.Reply{r("c", "d", "")}},
		{"CRLF body", "c1", "one\r\ntwo", nil},
		{"replies of every form", "c1", "Body.", []*exchange.Reply{
			r("hduran", "Agreed.", "2026-11-30T11:00:00Z"),
			r("Zoë", "two\n\nparagraphs\n> quoted\n", ""),
			r("", "no author", ""),
			r("x", "", ""),
			r("y", " leading space", "2026-01-01T00:00:00+02:00"),
		}},
		{"id with dashes", "a--b-", "x", nil},
		{"id with a space and percent", "my id 100%", "x", nil},
		{"id with an HTML end", "x-->y", "x", nil},
		{"id of non-ASCII", "é🙂", "x", nil},
	}
	for _, tt := range tests {
		c := &exchange.Comment{ID: tt.id, Body: tt.body, Replies: tt.replies}
		text := commentBody(c, QuoteReplies, true)
		body, replies, id, ok := splitBody(text)
		if !ok || id != tt.id || body != tt.body {
			t.Errorf("%s: got ok %v id %q body %q, want id %q body %q; text:\n%s", tt.name, ok, id, body, tt.id, tt.body, text)
			continue
		}
		if got, want := fmt.Sprint(replies), fmt.Sprint(readable(tt.replies)); got != want {
			t.Errorf("%s: got replies %s, want %s; text:\n%s", tt.name, got, want, text)
		}
	}
}

func readable(rs []*exchange.Reply) []reply {
	var out []reply
	for _, r := range rs {
		out = append(out, reply{author: r.Author, body: r.Body, at: r.At})
	}
	return out
}

// TestBodyEditedOnTheForge: a body saved from GitHub's web page comes
// back with CRLF line ends; it still reads back.
func TestBodyEditedOnTheForge(t *testing.T) {
	c := &exchange.Comment{ID: "c1", Body: "one\ntwo", Replies: []*exchange.Reply{{Author: "a", Body: "r\ns"}}}
	text := strings.ReplaceAll(commentBody(c, QuoteReplies, true), "\n", "\r\n")
	body, replies, id, ok := splitBody(text)
	if !ok || id != "c1" || body != "one\ntwo" || len(replies) != 1 || replies[0].body != "r\ns" {
		t.Errorf("got ok %v id %q body %q replies %v, want c1's body and its reply", ok, id, body, replies)
	}
}

// TestBodiesWithoutMarkers: a body an export did not write is all body,
// and --no-marker writes none.
func TestBodiesWithoutMarkers(t *testing.T) {
	for _, text := range []string{
		"plain",
		"ends with <!-- a comment -->",
		"<!-- lreview:replies -->",
		"inline <!-- lreview:c1 --> marker not at a line start",
	} {
		body, replies, id, ok := splitBody(text)
		if ok || body != text || replies != nil || id != "" {
			t.Errorf("%q: got ok %v body %q replies %v id %q, want it all body", text, ok, body, replies, id)
		}
	}
	c := &exchange.Comment{ID: "c1", Body: "b", Replies: []*exchange.Reply{{Author: "a", Body: "r"}}}
	if got, want := commentBody(c, QuoteReplies, false), "b\n\n> **a**: r"; got != want {
		t.Errorf("no marker: got %q, want %q", got, want)
	}
	if got, want := commentBody(c, DropReplies, false), "b"; got != want {
		t.Errorf("no marker, replies dropped: got %q, want %q", got, want)
	}
}

func TestReviewBodyReadsBack(t *testing.T) {
	for _, tt := range []struct{ title, summary string }{
		{"t", "s"}, {"", "s"}, {"t", ""}, {"**bold** title", "para one\n\npara two"}, {"", "**not a title**\n\nrest"},
	} {
		text := reviewBody(tt.title, tt.summary, true)
		title, summary := splitReviewBody(text)
		if title != tt.title || summary != tt.summary {
			t.Errorf("%q: got title %q summary %q, want %q and %q", text, title, summary, tt.title, tt.summary)
		}
	}
	if title, summary := splitReviewBody("**Looks good**\n\nShip it."); title != "" || summary != "**Looks good**\n\nShip it." {
		t.Errorf("a body without marker: got title %q summary %q, want it all summary", title, summary)
	}
}
