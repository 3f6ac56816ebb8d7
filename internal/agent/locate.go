package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The coding agent's tools: lreview_locate and lreview_apply_suggestion,
// over the working tree (internal/worktree, the engine `locate`, `apply`
// and the editors' go-to-source use). The working tree is the repository
// holding the review (the nearest directory above it with .git) when that
// lies inside the server's root, else the root itself.

// LocateInput is lreview_locate's input.
type LocateInput struct {
	ReviewFile
	ID string `json:"id,omitempty" jsonschema:"only this comment"`
	Page
}

// Located is where one comment's lines are in the working tree.
type Located struct {
	ID     string `json:"id"`
	Path   string `json:"path" jsonschema:"the file in the working tree"`
	Status string `json:"status" jsonschema:"holds: the lines are where the review has them; moved: the same lines, elsewhere; whitespace: the lines with other white space; changed: the file no longer holds them; suggestion-applied: the file holds the thread's suggestion in their place (start_line to end_line); missing: the file cannot be read; unresolved: the comment's anchor is not in the patch; deleted: the patch deletes the file"`
	// StartLine and EndLine are in the working tree's file now.
	StartLine  int      `json:"start_line,omitempty" jsonschema:"the first line in the file now (found only)"`
	EndLine    int      `json:"end_line,omitempty"`
	Moved      int      `json:"moved,omitempty" jsonschema:"how many lines below where the review has them (negative: above)"`
	Lines      []string `json:"lines" jsonschema:"the lines' current text (at most 50)"`
	Reason     string   `json:"reason,omitempty" jsonschema:"why they were not found"`
	Suggestion bool     `json:"suggestion,omitempty" jsonschema:"the thread holds a suggestion block (lreview_apply_suggestion)"`
}

// LocateOutput is lreview_locate's output.
type LocateOutput struct {
	File       string    `json:"file"`
	Root       string    `json:"root" jsonschema:"the working tree, relative to the server's root"`
	Total      int       `json:"total"`
	Comments   []Located `json:"comments" jsonschema:"this page of them"`
	NextCursor string    `json:"next_cursor,omitempty"`
}

// maxLocatedLines bounds the lines a located comment quotes.
const maxLocatedLines = 50

// tree returns the working tree of the review at rel: the nearest
// directory above it holding .git, inside the server's root, else the
// root itself. Each is opened once, through the root, and kept: its
// cache of files serves the calls after.
func (s *server) tree(rel string) (*worktree.Tree, error) {
	dir := filepath.Dir(rel)
	for ; dir != "."; dir = filepath.Dir(dir) {
		if _, err := s.files.Lstat(filepath.Join(dir, ".git")); err == nil {
			break
		}
	}
	return s.trees.open(s, dir)
}

func (s *server) locate(_ context.Context, _ *mcp.CallToolRequest, in LocateInput) (*mcp.CallToolResult, LocateOutput, error) {
	r, err := s.readCached("file", in.File, true)
	if err != nil {
		return nil, LocateOutput{}, err
	}
	pg, err := newPager(in.Page, r.checksum(), "locate", in.ID)
	if err != nil {
		return nil, LocateOutput{}, err
	}
	t, err := s.tree(r.path)
	if err != nil {
		return nil, LocateOutput{}, argError("file", "%v", err)
	}
	an := r.analysis()
	var kept []int
	for i, c := range an.Doc.Review.Comments {
		if in.ID == "" || c.Name() == in.ID {
			kept = append(kept, i)
		}
	}
	if in.ID != "" && len(kept) == 0 {
		if _, err := findComment(r, in.ID); err != nil {
			return nil, LocateOutput{}, err
		}
	}
	root, _ := s.relative(t.Root())
	out := LocateOutput{File: r.name, Root: s.display(root), Total: len(kept), Comments: []Located{}}
	var b strings.Builder
	n, err := pg.fill(len(kept), &b, func(i int) string {
		l := located(t, an, kept[i])
		out.Comments = append(out.Comments, l)
		return locatedText(l)
	})
	if err != nil {
		return nil, LocateOutput{}, err
	}
	out.Comments = out.Comments[:n] // the last one rendered may not fit
	out.NextCursor = pg.next(n, len(kept))
	head := fmt.Sprintf("%s: %s in the working tree %s", r.name, anchor.Plural(out.Total, "comment", "comments"), out.Root)
	return textResult(head + pageNote("comments", pg, n, out.Total, out.NextCursor) + b.String()), out, nil
}

// located finds comment ci of the report in the tree.
func located(t *worktree.Tree, an *anchor.Analysis, ci int) Located {
	c := an.Doc.Review.Comments[ci]
	loc := t.LocateComment(&an.Doc.Review.Patch, an.Anchors.Resolutions[ci])
	_, sugg := features.SuggestionBlock(c.Body)
	for _, rp := range c.Replies {
		if _, ok := features.SuggestionBlock(rp.Body); ok {
			sugg = true
		}
	}
	l := Located{ID: c.Name(), Path: loc.Path, Lines: []string{}, Suggestion: sugg}
	if l.Path == "" {
		l.Path = c.Path
	}
	ap, isApplied := features.Applied{}, false
	if !loc.Found() {
		ap, isApplied = features.AppliedSuggestion(an, t, ci)
	}
	switch {
	case isApplied:
		l.Status, l.StartLine, l.EndLine = "suggestion-applied", ap.Start, max(ap.End, ap.Start)
		for n := ap.Start; loc.File != nil && n <= ap.End && len(l.Lines) < maxLocatedLines; n++ {
			l.Lines = append(l.Lines, loc.File.Line(n))
		}
		l.Reason = fmt.Sprintf("%s holds its suggestion where its lines were", ap.Place())
	case loc.Found():
		l.StartLine, l.EndLine, l.Moved = loc.Start, loc.End, loc.Moved()
		for n := loc.Start; n <= loc.End && len(l.Lines) < maxLocatedLines; n++ {
			l.Lines = append(l.Lines, loc.File.Line(n))
		}
		switch {
		case !loc.Exact:
			l.Status = "whitespace"
		case loc.Moved() != 0:
			l.Status = "moved"
		default:
			l.Status = "holds"
		}
	case errors.Is(loc.Err, worktree.ErrChanged):
		l.Status, l.Reason = "changed", fmt.Sprintf("%s no longer holds these lines of the review (the code changed since): rebase the review onto the current diff (lreview_rebase)", l.Path)
	case errors.Is(loc.Err, worktree.ErrUnresolved):
		l.Status, l.Reason = "unresolved", "its anchor is not in the patch: lreview_comments says why"
	case errors.Is(loc.Err, worktree.ErrDeleted):
		l.Status, l.Reason = "deleted", "the patch deletes this file"
	default:
		l.Status, l.Reason = "missing", loc.Err.Error()
	}
	return l
}

func locatedText(l Located) string {
	var b strings.Builder
	if l.StartLine > 0 {
		fmt.Fprintf(&b, "\n%s %s %s:%d", l.ID, l.Status, l.Path, l.StartLine)
		if l.EndLine > l.StartLine {
			fmt.Fprintf(&b, "–%d", l.EndLine)
		}
		if l.Moved != 0 {
			fmt.Fprintf(&b, " (moved %+d)", l.Moved)
		}
	} else {
		fmt.Fprintf(&b, "\n%s %s %s: %s", l.ID, l.Status, l.Path, l.Reason)
	}
	if l.Suggestion {
		b.WriteString(" [suggestion]")
	}
	for _, line := range l.Lines {
		fmt.Fprintf(&b, "\n  | %s", line)
	}
	return b.String()
}

// ApplyOutput is lreview_apply_suggestion's output.
type ApplyOutput struct {
	File      string `json:"file" jsonschema:"the review file"`
	ID        string `json:"id"`
	Path      string `json:"path" jsonschema:"the working tree's file changed"`
	StartLine int    `json:"start_line" jsonschema:"the first line replaced, in the file as it was"`
	EndLine   int    `json:"end_line"`
	Diff      string `json:"diff" jsonschema:"the change to the file as a unified diff"`
	Written   bool   `json:"written"`
}

// suggestion computes comment id's suggestion as a change of its file.
func (s *server) suggestion(in CommentRef) (features.Suggestion, ApplyOutput, error) {
	r, err := s.readCached("file", in.File, true)
	if err != nil {
		return features.Suggestion{}, ApplyOutput{}, err
	}
	c, err := findComment(r, in.ID)
	if err != nil {
		return features.Suggestion{}, ApplyOutput{}, err
	}
	t, err := s.tree(r.path)
	if err != nil {
		return features.Suggestion{}, ApplyOutput{}, argError("file", "%v", err)
	}
	an := r.analysis()
	sg, err := features.SuggestionOf(an, t, c.Index)
	switch {
	case features.IsNoSuggestion(err):
		return sg, ApplyOutput{}, argError("id", "comment %s holds no ```suggestion block (in its body or a reply): nothing to apply", in.ID)
	case err != nil:
		return sg, ApplyOutput{}, argError("id", "comment %s's suggestion cannot be applied: %v; lreview_locate shows where its lines are now (rebase the review onto the current diff with lreview_rebase when the code changed)", in.ID, err)
	}
	after := sg.File.Text[:sg.Edit.Start] + sg.Edit.NewText + sg.File.Text[sg.Edit.End:]
	rel, _ := s.relative(sg.File.Abs)
	rel = s.display(rel)
	out := ApplyOutput{File: r.name, ID: in.ID, Path: rel, StartLine: sg.Start, EndLine: sg.End,
		Diff: exchange.Unified(rel, []byte(sg.File.Text), []byte(after))}
	return sg, out, nil
}

// ApplyInput is lreview_apply_suggestion's input.
type ApplyInput struct {
	CommentRef
}

func (s *server) applySuggestion(ctx context.Context, _ *mcp.CallToolRequest, in ApplyInput) (*mcp.CallToolResult, ApplyOutput, error) {
	sg, out, err := s.suggestion(in.CommentRef)
	if err != nil {
		return nil, ApplyOutput{}, err
	}
	// The file's path relative to the server's root, from the tree's
	// name (under the root) and the review's path: opened through the root.
	rel, ok := s.relative(sg.File.Abs)
	if !ok {
		return nil, ApplyOutput{}, s.outside("id", sg.File.Abs)
	}
	release, err := s.queue.acquire(ctx, rel)
	if err != nil {
		return nil, ApplyOutput{}, err
	}
	defer release()
	o, err := filewrite.ReadIn(s.files, rel)
	if err != nil {
		return nil, ApplyOutput{}, argError("id", "%v", err)
	}
	if string(o.Data) != sg.File.Text {
		return nil, ApplyOutput{}, argError("id", "%s changed since it was read; nothing written: call again", out.Path)
	}
	after := sg.File.Text[:sg.Edit.Start] + sg.Edit.NewText + sg.File.Text[sg.Edit.End:]
	if err := o.Replace([]byte(after)); err != nil {
		return nil, ApplyOutput{}, fmt.Errorf("id: %v", err)
	}
	out.Written = true
	return textResult(fmt.Sprintf("applied %s's suggestion to %s:%d–%d\n%s", in.ID, out.Path, out.StartLine, out.EndLine, out.Diff)), out, nil
}
