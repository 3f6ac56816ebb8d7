package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
)

// The tools that change comments: lreview_add_comment, lreview_reply and
// lreview_set_state. Each makes the edit the editor's code action makes.

// AddCommentInput is lreview_add_comment's input.
type AddCommentInput struct {
	ReviewFile
	Path      string `json:"path" jsonschema:"the file of the patch the comment is about, as the patch names it (without a/ or b/)"`
	Side      string `json:"side" jsonschema:"RIGHT: the new version (added and context lines); LEFT: the old version (removed and context lines)"`
	Body      string `json:"body" jsonschema:"the comment, in Markdown"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"the first line, numbered in the side's version of the file; with snippet, the snippet must match these lines"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"the last line of a range in the same hunk; defaults to start_line"`
	Snippet   string `json:"snippet,omitempty" jsonschema:"the text of the line(s) to comment on, quoted from the patch (markers and indentation optional); alone, it places the comment where it is found, once"`
}

func (s *server) addComment(ctx context.Context, req *mcp.CallToolRequest, in AddCommentInput) (*mcp.CallToolResult, Comment, error) {
	if strings.TrimSpace(in.Body) == "" {
		return nil, Comment{}, argError("body", "expected the comment's text (Markdown), got an empty body")
	}
	if err := refuseDecision(in.Body); err != nil { // issue 44: a person decides
		return nil, Comment{}, err
	}
	side, ok := anchor.ParseSide(in.Side)
	if !ok {
		return nil, Comment{}, argError("side", "expected RIGHT (the new version) or LEFT (the old version), got %q", in.Side)
	}
	if in.StartLine == 0 && in.Snippet == "" {
		return nil, Comment{}, argError("start_line", "give start_line (and end_line for a range), or snippet: the text of the line to comment on")
	}
	if in.EndLine != 0 && in.StartLine == 0 {
		return nil, Comment{}, argError("end_line", "end_line needs start_line")
	}
	r, release, err := s.openReview(ctx, in.File, true)
	if err != nil {
		return nil, Comment{}, err
	}
	defer release()
	an := r.analysis()
	place, err := placeComment(an.Index, in.Path, side, in.StartLine, in.EndLine, in.Snippet)
	if err != nil {
		return nil, Comment{}, err
	}
	nc := exchange.NewComment{
		ID: features.FreshID(r.doc), Author: s.author(req), Path: place.Path(), Side: side.String(),
		Start: place.Start, End: place.End, Body: in.Body,
		Snippet: anchor.SnippetOf(an.Index.Patch, place.File, place.Lines()), At: features.Stamp(s.now()),
	}
	edit, ok := exchange.NewCommentEdit(r.doc, nc)
	if !ok {
		return nil, Comment{}, argError("file", "%s: its comments member is not an array: fix it first (lreview_check)", r.name)
	}
	if _, err := s.apply(r, []exchange.Edit{edit}); err != nil {
		return nil, Comment{}, err
	}
	c, err := writtenComment(r.written, nc.ID)
	if err != nil {
		return nil, Comment{}, err
	}
	return textResult(fmt.Sprintf("added %s on %s %s of %s:\n%s", c.ID, c.Path, anchor.LineSpan(side, c.StartLine, c.EndLine), r.name, strings.Join(c.Lines, "\n"))), c, nil
}

// placeComment finds the lines a new comment anchors to: by numbers
// (checked against snippet when both are given) or by snippet alone.
func placeComment(ix *anchor.Index, path string, side anchor.Side, start, end int, snippet string) (anchor.Place, error) {
	f, err := anchor.PlaceFile(ix, path, side)
	if err != nil {
		return anchor.Place{}, err
	}
	if start == 0 {
		found, err := anchor.FindSnippet(ix.Patch, f, side, snippet)
		switch {
		case err != nil:
			return anchor.Place{}, err
		case len(found) == 0:
			return anchor.Place{}, anchor.SnippetNotFound(f, side, snippet)
		case len(found) > 1:
			return anchor.Place{}, anchor.SnippetAmbiguous(snippet, found)
		}
		return found[0], nil
	}
	if end == 0 {
		end = start
	}
	p, err := anchor.PlaceLines(f, side, start, end)
	if err != nil {
		return anchor.Place{}, err
	}
	if snippet != "" && !anchor.SnippetMatches(snippet, side, ix.Patch, f, p.Lines()) {
		found, _ := anchor.FindSnippet(ix.Patch, f, side, snippet)
		return anchor.Place{}, anchor.SnippetMismatch(ix.Patch, p, snippet, found)
	}
	return p, nil
}

// writtenComment reads back the comment id from the version just
// written (checked here once, for the next call too: it is cached).
func writtenComment(v *reviewfile.Version, id string) (Comment, error) {
	an, _ := v.Analysis(context.Background())
	for i, c := range an.Doc.Review.Comments {
		if c.ID == id {
			return commentOf(an, i), nil
		}
	}
	return Comment{}, fmt.Errorf("file: internal error: comment %s is not in the file written", id)
}

// findComment returns the comment named id ("c3", or "#3" for the third
// when it has no id), or an error listing the ids there are.
func findComment(r *review, id string) (*exchange.Comment, error) {
	var ids []string
	for _, c := range r.doc.Review.Comments {
		name := c.Name()
		if name == id {
			return c, nil
		}
		ids = append(ids, name)
	}
	if len(ids) == 0 {
		return nil, argError("id", "%s has no comment, so no %q", r.name, id)
	}
	return nil, argError("id", "%s has no comment %q; its comments are %s", r.name, id, strings.Join(ids, ", "))
}

// ReplyInput is lreview_reply's input.
type ReplyInput struct {
	CommentRef
	Body string `json:"body" jsonschema:"the reply, in Markdown"`
}

// ReplyOutput is lreview_reply's output.
type ReplyOutput struct {
	File    string `json:"file"`
	ID      string `json:"id"`
	Reply   Reply  `json:"reply"`
	Replies int    `json:"replies" jsonschema:"how many replies the comment has now"`
}

func (s *server) reply(ctx context.Context, req *mcp.CallToolRequest, in ReplyInput) (*mcp.CallToolResult, ReplyOutput, error) {
	if strings.TrimSpace(in.Body) == "" {
		return nil, ReplyOutput{}, argError("body", "expected the reply's text (Markdown), got an empty body")
	}
	r, c, release, err := s.openComment(ctx, in.CommentRef)
	if err != nil {
		return nil, ReplyOutput{}, err
	}
	defer release()
	reply := Reply{Author: s.author(req), Body: in.Body, At: features.Stamp(s.now())}
	edit, ok := exchange.ReplyEdit(r.doc.Text, c, reply.Author, reply.Body, reply.At)
	if !ok {
		return nil, ReplyOutput{}, argError("id", "comment %s: its replies member is not an array: fix it first (lreview_check)", in.ID)
	}
	if _, err := s.apply(r, []exchange.Edit{edit}); err != nil {
		return nil, ReplyOutput{}, err
	}
	out := ReplyOutput{File: r.name, ID: in.ID, Reply: reply, Replies: len(c.Replies) + 1}
	return textResult(fmt.Sprintf("replied to %s in %s (%s)", in.ID, r.name, anchor.Plural(out.Replies, "reply", "replies"))), out, nil
}

// SetStateInput is lreview_set_state's input.
type SetStateInput struct {
	CommentRef
	State string `json:"state" jsonschema:"active, dismissed, orphaned or stale"`
}

// SetStateOutput is lreview_set_state's output.
type SetStateOutput struct {
	File    string `json:"file"`
	ID      string `json:"id"`
	From    string `json:"from"`
	To      string `json:"to"`
	Changed bool   `json:"changed" jsonschema:"false when the comment was already in that state (nothing written)"`
}

func (s *server) setState(ctx context.Context, _ *mcp.CallToolRequest, in SetStateInput) (*mcp.CallToolResult, SetStateOutput, error) {
	if err := validState("state", in.State); err != nil {
		return nil, SetStateOutput{}, err
	}
	r, c, release, err := s.openComment(ctx, in.CommentRef)
	if err != nil {
		return nil, SetStateOutput{}, err
	}
	defer release()
	out := SetStateOutput{File: r.name, ID: in.ID, From: c.StateNorm(), To: in.State}
	if why := personsDecision(c); why != "" {
		return nil, SetStateOutput{}, argError("state", "comment %s %s, and a person's decision stays as it is: do not act on it; reply to it (lreview_reply) if you disagree", in.ID, why)
	}
	if out.From == in.State {
		return textResult(fmt.Sprintf("%s is already %s in %s; nothing written", in.ID, in.State, r.name)), out, nil
	}
	if _, err := s.apply(r, []exchange.Edit{exchange.SetStateEdit(r.doc.Text, c, in.State)}); err != nil {
		return nil, SetStateOutput{}, err
	}
	out.Changed = true
	return textResult(fmt.Sprintf("%s: %s → %s in %s", in.ID, out.From, in.State, r.name)), out, nil
}

// refuseDecision refuses a comment body that is a contract decision
// ("contract: approved — …"): approving or rejecting a breaking change is
// a person's call, and the axis never counts an agent's (contract.Counts).
func refuseDecision(body string) error {
	word, summary, ok := contract.ParseDecision(body)
	if !ok {
		return nil
	}
	return argError("body", "a comment beginning %q would decide a breaking change of the API contract, and only a person %s one: write what you found without the \"contract: %s —\" line, and leave the decision to a person (the editor's Approve and Reject actions)", contract.DecisionLine(word, summary), word, word)
}
