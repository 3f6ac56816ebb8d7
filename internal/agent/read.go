package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The reading tools: lreview_check and lreview_comments.

// ReviewFile names the review file a tool reads, in every tool's input
// but lreview_new's (whose file must not exist yet).
type ReviewFile struct {
	File string `json:"file" jsonschema:"the review file (*.review.json), relative to the server's root or absolute inside it"`
}

// CommentRef names one comment of a review file.
type CommentRef struct {
	ReviewFile
	ID string `json:"id" jsonschema:"the comment's id, as lreview_comments lists it"`
}

// CheckInput is lreview_check's input.
type CheckInput struct {
	ReviewFile
}

// Diagnostic is one problem of a review file.
type Diagnostic struct {
	Code      string `json:"code" jsonschema:"the stable diagnostic code (syntax, orphaned-anchor, snippet-mismatch, ...)"`
	Severity  string `json:"severity" jsonschema:"error, warning, information or hint"`
	Message   string `json:"message"`
	Line      int    `json:"line" jsonschema:"1-based line of the review file"`
	CommentID string `json:"comment_id,omitempty" jsonschema:"the comment the problem is in, when it is in one"`
	Fix       string `json:"fix,omitempty" jsonschema:"the title of the preferred fix, when there is one; lreview_fix applies those that need no choice"`
}

// Counts counts diagnostics by severity.
type Counts struct {
	Error       int `json:"error"`
	Warning     int `json:"warning"`
	Information int `json:"information"`
	Hint        int `json:"hint"`
}

// CheckOutput is lreview_check's output.
type CheckOutput struct {
	File        string       `json:"file"`
	Clean       bool         `json:"clean" jsonschema:"true when there is no error"`
	Counts      Counts       `json:"counts"`
	Diagnostics []Diagnostic `json:"diagnostics"`

	Contract *ContractAxis `json:"contract,omitempty" jsonschema:"the API-contract axis, when the patch changes an OpenAPI description"`
}

func severityWord(s exchange.Severity) string {
	if s == exchange.SeverityInformation {
		return "information"
	}
	return s.String()
}

func (s *server) check(_ context.Context, _ *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	r, err := s.readReview("file", in.File, false)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	doc, name := r.doc, r.name
	rep := anchor.CheckDocument(doc, nil)
	ds, axis := s.withContract(rep)
	out := CheckOutput{File: name, Diagnostics: []Diagnostic{}, Contract: axis}
	m := doc.Mapper()
	for _, d := range ds {
		line, _ := m.LineCol(d.Range.Start)
		od := Diagnostic{Code: d.Code, Severity: severityWord(d.Severity), Message: d.Message, Line: line}
		if c := anchor.CommentAt(doc, d.Range.Start); c != nil {
			od.CommentID = anchor.CommentName(c)
		}
		for _, f := range d.Fixes {
			if f.Preferred {
				od.Fix = f.Title
				break
			}
		}
		switch d.Severity {
		case exchange.SeverityError:
			out.Counts.Error++
		case exchange.SeverityWarning:
			out.Counts.Warning++
		case exchange.SeverityInformation:
			out.Counts.Information++
		default:
			out.Counts.Hint++
		}
		out.Diagnostics = append(out.Diagnostics, od)
	}
	out.Clean = out.Counts.Error == 0
	return textResult(checkText(out)), out, nil
}

func checkText(out CheckOutput) string {
	var b strings.Builder
	c := out.Counts
	fmt.Fprintf(&b, "%s: %s, %s, %d information, %s", out.File,
		anchor.Plural(c.Error, "error", "errors"), anchor.Plural(c.Warning, "warning", "warnings"), c.Information, anchor.Plural(c.Hint, "hint", "hints"))
	for _, d := range out.Diagnostics {
		fmt.Fprintf(&b, "\nline %d: %s: %s [%s]", d.Line, d.Severity, d.Message, d.Code)
		if d.CommentID != "" {
			fmt.Fprintf(&b, " (comment %s)", d.CommentID)
		}
		if d.Fix != "" {
			fmt.Fprintf(&b, " fix: %s", d.Fix)
		}
	}
	return b.String()
}

// CommentsInput is lreview_comments's input.
type CommentsInput struct {
	ReviewFile
	State string `json:"state,omitempty" jsonschema:"only the comments in this state: active, dismissed, orphaned or stale"`
	Path  string `json:"path,omitempty" jsonschema:"only the comments on this file of the patch"`
}

// Reply is one reply to a comment.
type Reply struct {
	Author string `json:"author,omitempty"`
	Body   string `json:"body"`
	At     string `json:"at,omitempty"`
}

// Location is a place in the patch a comment could anchor to.
type Location struct {
	Path      string `json:"path"`
	Side      string `json:"side"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Preferred bool   `json:"preferred,omitempty" jsonschema:"the one best place, when there is one"`
}

// Anchor says whether a comment's anchor holds.
type Anchor struct {
	Status     string     `json:"status" jsonschema:"ok: the lines are in the patch and the snippet matches them; drift: the lines are in the patch but the snippet is not what they hold; orphaned: the lines are not in the patch"`
	Reason     string     `json:"reason,omitempty" jsonschema:"why an orphaned anchor does not resolve: unknown-path, line-not-in-image, range-crosses-hunks, inverted-range, no-such-image or invalid"`
	Message    string     `json:"message,omitempty"`
	Candidates []Location `json:"candidates,omitempty" jsonschema:"where the snippet is, nearest first (drift and orphaned)"`
}

// Comment is one comment of a review.
type Comment struct {
	ID        string   `json:"id"`
	Author    string   `json:"author,omitempty"`
	Path      string   `json:"path"`
	Side      string   `json:"side"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	State     string   `json:"state" jsonschema:"active, dismissed, orphaned or stale"`
	Body      string   `json:"body"`
	Snippet   string   `json:"snippet,omitempty"`
	At        string   `json:"at,omitempty"`
	Replies   []Reply  `json:"replies"`
	Lines     []string `json:"lines" jsonschema:"the patch lines the anchor points at, with their diff marker (' ', '+' or '-')"`
	Anchor    Anchor   `json:"anchor"`
}

// CommentsOutput is lreview_comments's output.
type CommentsOutput struct {
	File     string    `json:"file"`
	Comments []Comment `json:"comments"`
}

func validState(member, state string) error {
	switch state {
	case exchange.StateActive, exchange.StateDismissed, exchange.StateOrphaned, exchange.StateStale:
		return nil
	}
	return argError(member, "expected active, dismissed, orphaned or stale, got %q", state)
}

func (s *server) comments(_ context.Context, _ *mcp.CallToolRequest, in CommentsInput) (*mcp.CallToolResult, CommentsOutput, error) {
	if in.State != "" {
		if err := validState("state", in.State); err != nil {
			return nil, CommentsOutput{}, err
		}
	}
	r, err := s.readReview("file", in.File, true)
	if err != nil {
		return nil, CommentsOutput{}, err
	}
	rep := anchor.CheckDocument(r.doc, nil)
	out := CommentsOutput{File: r.name, Comments: []Comment{}}
	for i, c := range r.doc.Review.Comments {
		if in.State != "" && c.StateNorm() != in.State || in.Path != "" && c.Path != in.Path {
			continue
		}
		out.Comments = append(out.Comments, commentOf(rep, i))
	}
	return textResult(commentsText(out)), out, nil
}

// commentOf describes comment i of the report's document.
func commentOf(rep *anchor.Report, i int) Comment {
	c := rep.Doc.Review.Comments[i]
	out := Comment{
		ID: anchor.CommentName(c), Author: c.Author, Path: c.Path, Side: c.SideNorm(),
		StartLine: c.StartLine, EndLine: c.EndLine, State: c.StateNorm(), Body: c.Body,
		Snippet: c.Snippet, At: c.At, Replies: []Reply{}, Lines: []string{},
	}
	for _, rp := range c.Replies {
		out.Replies = append(out.Replies, Reply{Author: rp.Author, Body: rp.Body, At: rp.At})
	}
	res := rep.Anchors.Resolutions[i]
	for _, l := range res.Lines() {
		out.Lines = append(out.Lines, rep.Doc.Review.Patch.LineText(int(l.Patch)))
	}
	out.Anchor = anchorOf(rep, res)
	return out
}

// anchorOf says whether res holds, with the diagnostic's message and the
// drift candidates when it does not.
func anchorOf(rep *anchor.Report, res *anchor.Resolution) Anchor {
	c := res.Comment
	var a Anchor
	switch {
	case res.Skipped:
		return Anchor{Status: "orphaned", Reason: "invalid", Message: "its path, side or line members are invalid: lreview_check says which"}
	case !res.Resolved:
		a = Anchor{Status: "orphaned", Reason: res.Reason}
	case !anchor.SnippetMatches(c.Snippet, res.Side, &rep.Doc.Review.Patch, res.File, res.Lines()):
		a = Anchor{Status: "drift"}
	default:
		return Anchor{Status: "ok"}
	}
	for _, d := range rep.Anchors.Diagnostics {
		if (d.Code == exchange.CodeOrphanedAnchor || d.Code == exchange.CodeSnippetMismatch) && c.Node.Start <= d.Range.Start && d.Range.End <= c.Node.End {
			a.Message = d.Message
			break
		}
	}
	for _, cd := range res.Candidates {
		a.Candidates = append(a.Candidates, Location{Path: cd.Path, Side: cd.Side.String(), StartLine: cd.Start, EndLine: cd.End, Preferred: cd.Preferred})
	}
	return a
}

func commentsText(out CommentsOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", out.File, anchor.Plural(len(out.Comments), "comment", "comments"))
	for _, c := range out.Comments {
		fmt.Fprintf(&b, "\n%s [%s, anchor %s] %s %s", c.ID, c.State, c.Anchor.Status, c.Path, anchor.LineSpan(sideOf(c.Side), c.StartLine, c.EndLine))
		if c.Author != "" {
			fmt.Fprintf(&b, " by %s", c.Author)
		}
		if c.Anchor.Message != "" {
			fmt.Fprintf(&b, "\n  anchor: %s", c.Anchor.Message)
		}
		if len(c.Anchor.Candidates) > 0 {
			places := make([]string, len(c.Anchor.Candidates))
			for i, l := range c.Anchor.Candidates {
				places[i] = fmt.Sprintf("%s %s", l.Path, anchor.LineSpan(sideOf(l.Side), l.StartLine, l.EndLine))
				if l.Preferred {
					places[i] += " (preferred)"
				}
			}
			fmt.Fprintf(&b, "\n  candidates: %s", strings.Join(places, ", "))
		}
		for _, l := range c.Lines {
			fmt.Fprintf(&b, "\n  | %s", l)
		}
		fmt.Fprintf(&b, "\n  %s", indentBody(c.Body))
		for _, r := range c.Replies {
			fmt.Fprintf(&b, "\n  reply by %s: %s", r.Author, indentBody(r.Body))
		}
	}
	return b.String()
}

// indentBody keeps a multi-line body inside its comment's block.
func indentBody(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

func sideOf(s string) anchor.Side {
	side, _ := anchor.ParseSide(s)
	return side
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
