package features

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Suggestions: a comment or reply body holding a fenced ```suggestion
// block, GitHub's syntax: the block's lines replace the comment's RIGHT
// lines. The latest block of the thread (the last reply holding one, else
// the comment's body) is the one applied.

// Suggestion is a comment's suggestion, ready to apply to its file.
type Suggestion struct {
	// Comment indexes doc.Review.Comments; Name is "c1".
	Comment int
	Name    string
	// Title is the action's: "Apply c1's suggestion to handler.go:72–73";
	// Place the lines it replaces: "handler.go:72–73".
	Title, Place string
	// File is the working-tree file and Start to End the lines replaced
	// (from 1), where the comment's lines are now.
	File       *worktree.File
	Start, End int
	// Lines are the block's lines, which replace them.
	Lines []string
	// Edit replaces bytes of File.Text.
	Edit exchange.Edit
}

// errNoSuggestion: the comment holds no suggestion block.
var errNoSuggestion = errors.New("no suggestion block")

// errApplied: the tree already holds the suggestion (AppliedSuggestion).
var errApplied = errors.New("already applied")

// IsApplied reports whether err, from Suggestion, says that the working
// tree already holds the suggestion.
func IsApplied(err error) bool { return errors.Is(err, errApplied) }

// IsNoSuggestion reports whether err, from Suggestion, says that the
// comment has no suggestion at all (rather than one that cannot be
// applied).
func IsNoSuggestion(err error) bool { return errors.Is(err, errNoSuggestion) }

// Suggestion returns comment ci's suggestion as an edit of the working
// tree's file, or why it cannot be applied.
func SuggestionOf(an *anchor.Analysis, t *worktree.Tree, ci int) (Suggestion, error) {
	c := an.Doc.Review.Comments[ci]
	block, ok := threadSuggestion(c)
	if !ok {
		return Suggestion{}, errNoSuggestion
	}
	res := an.Anchors.Resolutions[ci]
	switch {
	case c.StateNorm() != exchange.StateActive:
		return Suggestion{}, fmt.Errorf("the comment is %s, not active", c.StateNorm())
	case res == nil || !res.Resolved:
		return Suggestion{}, worktree.ErrUnresolved
	case res.Side != anchor.Right:
		return Suggestion{}, errors.New("a suggestion replaces RIGHT lines, and the comment is on LEFT")
	}
	if ap, ok := AppliedSuggestion(an, t, ci); ok {
		return Suggestion{}, fmt.Errorf("%w: %s holds it", errApplied, ap.Place())
	}
	loc := t.LocateComment(&an.Doc.Review.Patch, res)
	switch {
	case errors.Is(loc.Err, worktree.ErrChanged):
		return Suggestion{}, fmt.Errorf("%s no longer holds %s of the review", loc.Path, reviewLines(res))
	case !loc.Found():
		return Suggestion{}, loc.Err
	case !loc.Exact:
		return Suggestion{}, fmt.Errorf("%s holds %s of the review with other white space", lineSpan(loc.Path, loc.Start, loc.End), reviewLines(res))
	}
	f := loc.File
	// A review names any file: one in a repository's machinery, or one
	// that makes a tool run code, is not offered (filewrite.GuardIn).
	if err := filewrite.GuardIn(t.Files(), f.Path); err != nil {
		return Suggestion{}, err
	}
	edit := exchange.Edit{Start: f.LineStart(loc.Start), End: f.LineEnd(loc.End), NewText: strings.Join(block, f.Newline())}
	if len(block) == 0 {
		edit.End = f.LineStart(loc.End + 1) // the lines go, terminators and all
	}
	name, place := c.Name(), lineSpan(loc.Path, loc.Start, loc.End)
	return Suggestion{
		Comment: ci, Name: name, File: f, Start: loc.Start, End: loc.End, Lines: block, Edit: edit,
		Title: fmt.Sprintf("Apply %s's suggestion to %s", name, place), Place: place,
	}, nil
}

// SuggestionsIn returns the suggestions of the comments the byte range
// start–end touches that can be applied.
func SuggestionsIn(an *anchor.Analysis, t *worktree.Tree, start, end int) []Suggestion {
	var out []Suggestion
	for ci, c := range an.Doc.Review.Comments {
		if c.Node == nil || c.Node.End < start || c.Node.Start > end {
			continue
		}
		if s, err := SuggestionOf(an, t, ci); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// threadSuggestion is the latest suggestion block of c's thread.
func threadSuggestion(c *exchange.Comment) ([]string, bool) {
	for i := len(c.Replies) - 1; i >= 0; i-- {
		if block, ok := SuggestionBlock(c.Replies[i].Body); ok {
			return block, true
		}
	}
	return SuggestionBlock(c.Body)
}

// SuggestionBlock returns the lines of the last ```suggestion block of a
// Markdown body: a fence of three or more backticks whose info string is
// "suggestion", closed by a fence at least as long. An unclosed block is
// not a suggestion. An empty block suggests deleting the lines.
func SuggestionBlock(body string) ([]string, bool) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	var found []string
	ok := false
	for i := 0; i < len(lines); i++ {
		fence, info := fenceOf(lines[i])
		if fence == 0 {
			continue
		}
		j := i + 1
		for j < len(lines) {
			if f, rest := fenceOf(lines[j]); f >= fence && rest == "" {
				break
			}
			j++
		}
		if j == len(lines) {
			break // unclosed
		}
		if info == "suggestion" {
			found, ok = append([]string{}, lines[i+1:j]...), true
		}
		i = j
	}
	return found, ok
}

// fenceOf reads a line as a code fence: the number of backticks it opens
// with (0 when it is not a fence; up to three spaces before them) and its
// info string.
func fenceOf(line string) (int, string) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	if n < 3 {
		return 0, ""
	}
	info := strings.TrimSpace(s[n:])
	if strings.Contains(info, "`") {
		return 0, ""
	}
	return n, info
}
