package agent

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// lreview_edit_comment and lreview_delete_comment. The rule: an agent
// changes only its own words. A comment or reply is edited or removed only
// when its author is the caller's (assistant by default); a dismissed
// comment is neither edited nor removed (the person's verdict was on those
// words); a comment with replies is not removed (the answers would lose
// what they answer). Replies are numbered from 1 in their thread.

// EditCommentInput is lreview_edit_comment's input.
type EditCommentInput struct {
	CommentRef
	Reply  int    `json:"reply,omitempty" jsonschema:"the reply to edit, numbered from 1 in the thread; absent: the comment itself"`
	Body   string `json:"body" jsonschema:"the new text, in Markdown"`
	Author string `json:"author,omitempty" jsonschema:"who you are: only what this author wrote is edited; assistant by default"`
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
	Reply  int    `json:"reply,omitempty" jsonschema:"the reply to remove, numbered from 1 in the thread; absent: the comment itself"`
	Author string `json:"author,omitempty" jsonschema:"who you are: only what this author wrote is removed; assistant by default"`
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

// ownTarget finds what id and reply name in r and checks that author
// wrote it and that it is not a dismissed comment.
func ownTarget(r *review, id string, reply int, author, verb string) (target, error) {
	c, err := findComment(r, id)
	if err != nil {
		return target{}, err
	}
	author = cmp.Or(author, DefaultAuthor)
	t := target{c: c, node: c.Node, what: "comment " + id, reply: reply}
	wrote := c.Author
	switch {
	case reply < 0 || reply > len(c.Replies):
		return target{}, argError("reply", "comment %s has %d replies, so no reply %d: number them from 1, or leave reply out for the comment itself", id, len(c.Replies), reply)
	case reply > 0:
		t.node, t.what, wrote = c.Replies[reply-1].Node, fmt.Sprintf("reply %d of %s", reply, id), c.Replies[reply-1].Author
	case c.StateNorm() == exchange.StateDismissed:
		return target{}, argError("id", "comment %s was dismissed by a person: their verdict was on these words, which stay as they are; reply to it (lreview_reply) instead", id)
	}
	if wrote != author {
		return target{}, argError("author", "%s was written by %q, not %q: an agent %s only its own words; reply to it (lreview_reply) instead, or give the author you write as", t.what, wrote, author, verb)
	}
	return t, nil
}

func (s *server) editComment(ctx context.Context, _ *mcp.CallToolRequest, in EditCommentInput) (*mcp.CallToolResult, EditCommentOutput, error) {
	if strings.TrimSpace(in.Body) == "" {
		return nil, EditCommentOutput{}, argError("body", "expected the new text (Markdown), got an empty body; to remove a comment, use lreview_delete_comment")
	}
	release, err := s.queued(ctx, "file", in.File)
	if err != nil {
		return nil, EditCommentOutput{}, err
	}
	defer release()
	r, err := s.readReview("file", in.File, true)
	if err != nil {
		return nil, EditCommentOutput{}, err
	}
	t, err := ownTarget(r, in.ID, in.Reply, in.Author, "edits")
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
		edit = exchange.SetMember(r.doc.Text, t.node, "body", jsontext.Quote(in.Body), anchor.KeyAfter(t.node, keys, "body"))
	}
	if _, err := s.apply(r, []exchange.Edit{edit}); err != nil {
		return nil, EditCommentOutput{}, err
	}
	out.Changed = true
	return textResult(fmt.Sprintf("edited %s in %s", t.what, r.name)), out, nil
}

func (s *server) deleteComment(ctx context.Context, _ *mcp.CallToolRequest, in DeleteCommentInput) (*mcp.CallToolResult, DeleteCommentOutput, error) {
	release, err := s.queued(ctx, "file", in.File)
	if err != nil {
		return nil, DeleteCommentOutput{}, err
	}
	defer release()
	r, err := s.readReview("file", in.File, true)
	if err != nil {
		return nil, DeleteCommentOutput{}, err
	}
	t, err := ownTarget(r, in.ID, in.Reply, in.Author, "removes")
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
