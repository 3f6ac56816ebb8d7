package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// lreview_edit_comment and lreview_delete_comment. The rule: an agent
// changes only its own words. A comment or reply is edited or removed only
// when its author is the agent (who it is is fixed when the server
// starts: server.author); nothing of a thread a person decided on (a
// dismissed comment, or one whose state is not exactly a valid one:
// personsDecision) is edited or removed, replies included (the person's
// verdict was on those words, and their answer would be left hanging); a
// comment with replies is not removed (the answers would lose what they
// answer). Replies are numbered from 1 in their thread.

// EditCommentInput is lreview_edit_comment's input.
type EditCommentInput struct {
	CommentRef
	Reply int    `json:"reply,omitempty" jsonschema:"the reply to edit, numbered from 1 in the thread; absent: the comment itself"`
	Body  string `json:"body" jsonschema:"the new text, in Markdown"`
}

// EditCommentOutput is lreview_edit_comment's output.
type EditCommentOutput struct {
	File    string `json:"file"`
	ID      string `json:"id"`
	Reply   int    `json:"reply,omitempty"`
	Body    string `json:"body"`
	Changed bool   `json:"changed" jsonschema:"false when the body was already that (nothing written)"`
}

// DeleteCommentInput is lreview_delete_comment's input.
type DeleteCommentInput struct {
	CommentRef
	Reply int `json:"reply,omitempty" jsonschema:"the reply to remove, numbered from 1 in the thread; absent: the comment itself"`
}

// DeleteCommentOutput is lreview_delete_comment's output.
type DeleteCommentOutput struct {
	File     string `json:"file"`
	ID       string `json:"id"`
	Reply    int    `json:"reply,omitempty"`
	Comments int    `json:"comments" jsonschema:"how many comments the review has now"`
}

// target is the comment or reply a call names, once found and allowed.
type target struct {
	c     *exchange.Comment
	node  *exchange.Node // the comment's or the reply's object
	what  string         // "comment c1", "reply 2 of c1"
	reply int
}

// ownTarget finds what reply names in comment c (id) and checks that
// author wrote it and that no person decided on its thread.
func ownTarget(c *exchange.Comment, id string, reply int, author, verb string) (target, error) {
	t := target{c: c, node: c.Node, what: "comment " + id, reply: reply}
	wrote := c.Author
	switch {
	case reply < 0 || reply > len(c.Replies):
		return target{}, argError("reply", "comment %s has %d replies, so no reply %d: number them from 1, or leave reply out for the comment itself", id, len(c.Replies), reply)
	case reply > 0:
		t.node, t.what, wrote = c.Replies[reply-1].Node, fmt.Sprintf("reply %d of %s", reply, id), c.Replies[reply-1].Author
	}
	if why := personsDecision(c); why != "" {
		return target{}, argError("id", "comment %s %s: their verdict was on this thread, whose words stay as they are; reply to it (lreview_reply) instead", id, why)
	}
	if wrote != author {
		return target{}, argError("id", "%s was written by %q, and you write as %q (fixed when the server started): an agent %s only its own words; reply to it (lreview_reply) instead", t.what, wrote, author, verb)
	}
	return t, nil
}

// personsDecision says why c's state is a person's decision, which no
// agent tool changes: dismissed, or a state that is not exactly one the
// format defines ("Dismissed", " dismissed", a number: a schema error,
// and whoever wrote it meant something the agent cannot tell), or
// several state members (readers differ on which counts). "" when the
// state is absent (active) or exactly active, orphaned or stale.
func personsDecision(c *exchange.Comment) string {
	var states []*exchange.Node
	for _, m := range c.Node.Members() {
		if m.Name == "state" {
			states = append(states, m)
		}
	}
	switch {
	case len(states) == 0:
		return ""
	case len(states) > 1:
		return "has several state members"
	case states[0].Kind != exchange.KindString:
		return "has a state that is not a string"
	}
	switch states[0].Str {
	case exchange.StateActive, exchange.StateOrphaned, exchange.StateStale:
		return ""
	case exchange.StateDismissed:
		return "was dismissed by a person"
	}
	return fmt.Sprintf("has the state %q, not one the format defines (a person's, as far as an agent can tell)", states[0].Str)
}

func (s *server) editComment(ctx context.Context, req *mcp.CallToolRequest, in EditCommentInput) (*mcp.CallToolResult, EditCommentOutput, error) {
	if strings.TrimSpace(in.Body) == "" {
		return nil, EditCommentOutput{}, argError("body", "expected the new text (Markdown), got an empty body; to remove a comment, use lreview_delete_comment")
	}
	r, c, release, err := s.openComment(ctx, in.CommentRef)
	if err != nil {
		return nil, EditCommentOutput{}, err
	}
	defer release()
	t, err := ownTarget(c, in.ID, in.Reply, s.author(req), "edits")
	if err != nil {
		return nil, EditCommentOutput{}, err
	}
	if in.Reply == 0 { // issue 44: a person decides (write.go)
		if err := refuseDecision(in.Body); err != nil {
			return nil, EditCommentOutput{}, err
		}
	}
	out := EditCommentOutput{File: r.name, ID: in.ID, Reply: in.Reply, Body: in.Body}
	body := t.node.Member("body")
	if body != nil && body.Value(r.doc.Text) == in.Body {
		return textResult(fmt.Sprintf("%s already says that; nothing written", t.what)), out, nil
	}
	var edit exchange.Edit
	if body != nil {
		edit = exchange.ReplaceValue(body, jsontext.Quote(in.Body))
	} else {
		keys := exchange.CommentKeys
		if in.Reply > 0 {
			keys = exchange.ReplyKeys
		}
		edit = exchange.SetMember(r.doc.Text, t.node, "body", jsontext.Quote(in.Body), exchange.KeyAfter(t.node, keys, "body"))
	}
	if _, err := s.apply(r, []exchange.Edit{edit}); err != nil {
		return nil, EditCommentOutput{}, err
	}
	out.Changed = true
	return textResult(fmt.Sprintf("edited %s in %s", t.what, r.name)), out, nil
}

func (s *server) deleteComment(ctx context.Context, req *mcp.CallToolRequest, in DeleteCommentInput) (*mcp.CallToolResult, DeleteCommentOutput, error) {
	r, c, release, err := s.openComment(ctx, in.CommentRef)
	if err != nil {
		return nil, DeleteCommentOutput{}, err
	}
	defer release()
	t, err := ownTarget(c, in.ID, in.Reply, s.author(req), "removes")
	if err != nil {
		return nil, DeleteCommentOutput{}, err
	}
	arr := r.doc.Root.Member("comments")
	if in.Reply > 0 {
		arr = t.c.Member("replies")
	} else if n := len(t.c.Replies); n > 0 {
		return nil, DeleteCommentOutput{}, argError("id", "comment %s has %s: they would lose what they answer; set its state (lreview_set_state) or reply instead", in.ID, pluralReplies(n))
	}
	if _, err := s.apply(r, []exchange.Edit{exchange.RemoveElement(arr, t.node)}); err != nil {
		return nil, DeleteCommentOutput{}, err
	}
	out := DeleteCommentOutput{File: r.name, ID: in.ID, Reply: in.Reply, Comments: len(r.doc.Review.Comments)}
	if in.Reply == 0 {
		out.Comments--
	}
	return textResult(fmt.Sprintf("removed %s from %s (%d comments now)", t.what, r.name, out.Comments)), out, nil
}

func pluralReplies(n int) string {
	if n == 1 {
		return "a reply"
	}
	return fmt.Sprintf("%d replies", n)
}
