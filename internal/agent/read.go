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
	MinSeverity string `json:"min_severity,omitempty" jsonschema:"only the diagnostics of this severity or worse: error, warning, information or hint (the default: all)"`
	Page
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
	Counts      Counts       `json:"counts" jsonschema:"every diagnostic of the file, by severity, whatever the filter and the page"`
	Total       int          `json:"total" jsonschema:"how many diagnostics the filter keeps, on every page"`
	Diagnostics []Diagnostic `json:"diagnostics" jsonschema:"this page of them"`
	NextCursor  string       `json:"next_cursor,omitempty" jsonschema:"give it as cursor to read the next page; absent on the last"`

	Contract *ContractAxis `json:"contract,omitempty" jsonschema:"the API-contract axis, when the patch changes an OpenAPI description"`
	Verdict  *Verdict      `json:"verdict" jsonschema:"every axis (contract, correctness, security, test_gap, visual) and the review's verdict; before lreview_finalize the reviewers' axes are unavailable, so the verdict is at least Hold"`
}

func severityWord(s exchange.Severity) string {
	if s == exchange.SeverityInformation {
		return "information"
	}
	return s.String()
}

// severityRank orders the severity words, worst first.
var severityRank = map[string]int{"error": 0, "warning": 1, "information": 2, "hint": 3}

// diagnostics are the file's diagnostics in the tool's shape, converted
// once per version.
func (r *review) diagnostics() ([]Diagnostic, Counts) {
	o := r.out
	o.diagOnce.Do(func() {
		an := r.analysis()
		o.diags, o.counts = convertDiagnostics(an.Doc, an.Diagnostics)
	})
	return o.diags, o.counts
}

// convertDiagnostics converts ds, diagnostics of doc, to the tool's
// shape, and counts them by severity.
func convertDiagnostics(doc *exchange.Document, ds []exchange.Diagnostic) ([]Diagnostic, Counts) {
	m := doc.Mapper()
	out := make([]Diagnostic, 0, len(ds))
	var counts Counts
	for _, d := range ds {
		line, _ := m.LineCol(d.Range.Start)
		od := Diagnostic{Code: d.Code, Severity: severityWord(d.Severity), Message: d.Message, Line: line}
		if c := anchor.CommentAt(doc, d.Range.Start); c != nil {
			od.CommentID = c.Name()
		}
		for _, f := range d.Fixes {
			if f.Preferred {
				od.Fix = f.Title
				break
			}
		}
		switch d.Severity {
		case exchange.SeverityError:
			counts.Error++
		case exchange.SeverityWarning:
			counts.Warning++
		case exchange.SeverityInformation:
			counts.Information++
		default:
			counts.Hint++
		}
		out = append(out, od)
	}
	return out, counts
}

func (s *server) check(ctx context.Context, _ *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	worst := 3
	if in.MinSeverity != "" {
		rank, ok := severityRank[in.MinSeverity]
		if !ok {
			return nil, CheckOutput{}, argError("min_severity", "expected error, warning, information or hint, got %q", in.MinSeverity)
		}
		worst = rank
	}
	r, err := s.readCached("file", in.File, false)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	pg, err := newPager(in.Page, r.checksum(), "check", in.MinSeverity)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	all, counts := r.diagnostics()
	all, counts, axis, v := s.withVerdict(ctx, r.path, r.analysis(), all, counts)
	kept := all
	if worst < 3 {
		kept = nil
		for _, d := range all {
			if severityRank[d.Severity] <= worst {
				kept = append(kept, d)
			}
		}
	}
	out := CheckOutput{File: r.name, Counts: counts, Clean: counts.Error == 0, Total: len(kept), Diagnostics: []Diagnostic{}, Contract: axis, Verdict: v}
	var b strings.Builder
	n, err := pg.fill(len(kept), &b, func(i int) string { return diagnosticText(kept[i]) })
	if err != nil {
		return nil, CheckOutput{}, err
	}
	out.Diagnostics = append(out.Diagnostics, kept[pg.start:pg.start+n]...)
	out.NextCursor = pg.next(n, len(kept))
	c := out.Counts
	head := fmt.Sprintf("%s: %s, %s, %d information, %s", out.File,
		anchor.Plural(c.Error, "error", "errors"), anchor.Plural(c.Warning, "warning", "warnings"), c.Information, anchor.Plural(c.Hint, "hint", "hints"))
	if in.MinSeverity != "" {
		head += fmt.Sprintf("; %d of %s or worse", out.Total, in.MinSeverity)
	}
	head += "\n" + v.Line
	return textResult(head + pageNote("diagnostics", pg, n, out.Total, out.NextCursor) + b.String()), out, nil
}

func diagnosticText(d Diagnostic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nline %d: %s: %s [%s]", d.Line, d.Severity, d.Message, d.Code)
	if d.CommentID != "" {
		fmt.Fprintf(&b, " (comment %s)", d.CommentID)
	}
	if d.Fix != "" {
		fmt.Fprintf(&b, " fix: %s", d.Fix)
	}
	return b.String()
}

// CommentsInput is lreview_comments's input.
type CommentsInput struct {
	ReviewFile
	State    string `json:"state,omitempty" jsonschema:"only the comments in this state: active, dismissed, orphaned or stale"`
	Path     string `json:"path,omitempty" jsonschema:"only the comments on this file of the patch"`
	ID       string `json:"id,omitempty" jsonschema:"only this comment"`
	Problems bool   `json:"problems,omitempty" jsonschema:"only the comments with a problem: an anchor that does not hold (drift, orphaned) or an error or warning in the comment"`
	Page
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
	File       string        `json:"file"`
	Totals     CommentTotals `json:"totals" jsonschema:"every comment of the file, whatever the filters and the page"`
	Total      int           `json:"total" jsonschema:"how many comments the filters keep, on every page"`
	Comments   []Comment     `json:"comments" jsonschema:"this page of them"`
	NextCursor string        `json:"next_cursor,omitempty" jsonschema:"give it as cursor to read the next page; absent on the last"`
}

// CommentTotals counts a review's comments.
type CommentTotals struct {
	Comments  int `json:"comments"`
	Active    int `json:"active"`
	Dismissed int `json:"dismissed"`
	Orphaned  int `json:"orphaned"`
	Stale     int `json:"stale"`
	Problems  int `json:"problems" jsonschema:"comments whose anchor does not hold or that hold an error or warning"`
}

func validState(member, state string) error {
	switch state {
	case exchange.StateActive, exchange.StateDismissed, exchange.StateOrphaned, exchange.StateStale:
		return nil
	}
	return argError(member, "expected active, dismissed, orphaned or stale, got %q", state)
}

// comments are the file's comments described, with which of them have a
// problem, once per version.
func (r *review) comments() ([]Comment, []bool) {
	o := r.out
	o.comOnce.Do(func() {
		an := r.analysis()
		diags, _ := r.diagnostics()
		bad := map[string]bool{}
		for _, d := range diags {
			if d.CommentID != "" && severityRank[d.Severity] <= 1 {
				bad[d.CommentID] = true
			}
		}
		o.coms = make([]Comment, len(an.Doc.Review.Comments))
		o.problem = make([]bool, len(o.coms))
		for i := range o.coms {
			o.coms[i] = commentOf(an, i)
			o.problem[i] = o.coms[i].Anchor.Status != "ok" || bad[o.coms[i].ID]
		}
	})
	return o.coms, o.problem
}

func (s *server) comments(_ context.Context, _ *mcp.CallToolRequest, in CommentsInput) (*mcp.CallToolResult, CommentsOutput, error) {
	if in.State != "" {
		if err := validState("state", in.State); err != nil {
			return nil, CommentsOutput{}, err
		}
	}
	r, err := s.readCached("file", in.File, true)
	if err != nil {
		return nil, CommentsOutput{}, err
	}
	pg, err := newPager(in.Page, r.checksum(), "comments", in.State, in.Path, in.ID, fmt.Sprint(in.Problems))
	if err != nil {
		return nil, CommentsOutput{}, err
	}
	all, problem := r.comments()
	out := CommentsOutput{File: r.name, Comments: []Comment{}}
	var kept []int
	for i, c := range all {
		out.Totals.add(c, problem[i])
		if in.State != "" && c.State != in.State || in.Path != "" && c.Path != in.Path || in.ID != "" && c.ID != in.ID || in.Problems && !problem[i] {
			continue
		}
		kept = append(kept, i)
	}
	if in.ID != "" && len(kept) == 0 {
		if _, err := findComment(r, in.ID); err != nil {
			return nil, CommentsOutput{}, err
		}
	}
	out.Total = len(kept)
	var b strings.Builder
	n, err := pg.fill(len(kept), &b, func(i int) string { return commentText(all[kept[i]]) })
	if err != nil {
		return nil, CommentsOutput{}, err
	}
	for _, i := range kept[pg.start : pg.start+n] {
		out.Comments = append(out.Comments, all[i])
	}
	out.NextCursor = pg.next(n, len(kept))
	head := fmt.Sprintf("%s: %s", out.File, anchor.Plural(out.Totals.Comments, "comment", "comments"))
	if out.Total != out.Totals.Comments {
		head += fmt.Sprintf(", %d of them kept by the filters", out.Total)
	}
	return textResult(head + pageNote("comments", pg, n, out.Total, out.NextCursor) + b.String()), out, nil
}

func (t *CommentTotals) add(c Comment, problem bool) {
	t.Comments++
	switch c.State {
	case exchange.StateActive:
		t.Active++
	case exchange.StateDismissed:
		t.Dismissed++
	case exchange.StateOrphaned:
		t.Orphaned++
	case exchange.StateStale:
		t.Stale++
	}
	if problem {
		t.Problems++
	}
}

// commentOf describes comment i of the report's document.
func commentOf(an *anchor.Analysis, i int) Comment {
	c := an.Doc.Review.Comments[i]
	out := Comment{
		ID: c.Name(), Author: c.Author, Path: c.Path, Side: c.SideNorm(),
		StartLine: c.StartLine, EndLine: c.EndLine, State: c.StateNorm(), Body: c.Body,
		Snippet: c.Snippet, At: c.At, Replies: []Reply{}, Lines: []string{},
	}
	for _, rp := range c.Replies {
		out.Replies = append(out.Replies, Reply{Author: rp.Author, Body: rp.Body, At: rp.At})
	}
	res := an.Anchors.Resolutions[i]
	for _, l := range res.Lines() {
		out.Lines = append(out.Lines, an.Doc.Review.Patch.LineText(l.Patch))
	}
	out.Anchor = anchorOf(an, res)
	return out
}

// anchorOf says whether res holds, with the diagnostic's message and the
// drift candidates when it does not.
func anchorOf(an *anchor.Analysis, res *anchor.Resolution) Anchor {
	c := res.Comment
	var a Anchor
	switch {
	case res.Skipped:
		return Anchor{Status: "orphaned", Reason: "invalid", Message: "its path, side or line members are invalid: lreview_check says which"}
	case !res.Resolved:
		a = Anchor{Status: "orphaned", Reason: res.Reason}
	case !anchor.SnippetMatches(c.Snippet, res.Side, &an.Doc.Review.Patch, res.File, res.Lines()):
		a = Anchor{Status: "drift"}
	default:
		return Anchor{Status: "ok"}
	}
	for _, d := range an.Anchors.Diagnostics {
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

// commentText is one comment's block of lreview_comments's text.
func commentText(c Comment) string {
	var b strings.Builder
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
