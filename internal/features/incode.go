package features

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review in the code: a review's active comments placed in the
// source files they are about, where a person reads and edits the code.
// Each comment's lines are found in the working tree (a file, or the
// editor's buffer of it: worktree.Tree.Overlay) through the same engine
// as `locate`, so a comment follows its code as it moves.

// InSource is one active comment of a review placed in a source file.
type InSource struct {
	// Comment is the comment's index in the review; Name its id or #N.
	Comment int
	Name    string
	// File is the source file (or buffer) the comment is placed in;
	// Start and End its lines there, from 1.
	File       *worktree.File
	Start, End int
	// Left: the comment is on removed lines, placed on the first line
	// after them. Outdated: the file no longer holds its lines; it is
	// placed at the nearest place that holds a part of them, or where
	// the review had them. Applied: the file holds its suggestion where
	// its lines were (AppliedSuggestion); it is placed on the block.
	Left, Outdated, Applied bool
	// Message is the one line an editor lists: "c3 (assistant): <first
	// line of the body> · 2 replies".
	Message string
	// Thread is the comment and each reply, in order, in the review.
	Thread []ReviewPlace
}

// ReviewPlace is a place in the review's text: a comment or a reply.
type ReviewPlace struct {
	Range   exchange.Range
	Message string
}

// InSourceOptions selects and words the comments placed.
type InSourceOptions struct {
	// Only, when not "", is the one path (under the root, as a review
	// names it) whose comments are wanted.
	Only string
	// Outdated places the comments whose lines the file no longer holds
	// too.
	Outdated bool
}

// CommentsInSource places the review's active comments in the tree's
// files: each whose anchor resolves in the patch and whose file the tree
// reads (never one outside the root). Dismissed, stale and orphaned
// comments are not placed: they are not for acting on in the code.
func CommentsInSource(an *anchor.Analysis, t *worktree.Tree, opts InSourceOptions) []InSource {
	if an.Doc == nil || an.Anchors == nil {
		return nil
	}
	var out []InSource
	for ci, c := range an.Doc.Review.Comments {
		res := an.Anchors.Resolutions[ci]
		if c.StateNorm() != exchange.StateActive || res == nil || !res.Resolved || res.File == nil || res.File.NewName == "" {
			continue
		}
		if opts.Only != "" && res.File.NewName != opts.Only {
			continue
		}
		in, ok := placeInSource(an, t, ci, res, opts)
		if ok {
			out = append(out, in)
		}
	}
	return out
}

// placeInSource finds comment ci's lines in the tree.
func placeInSource(an *anchor.Analysis, t *worktree.Tree, ci int, res *anchor.Resolution, opts InSourceOptions) (InSource, bool) {
	c := an.Doc.Review.Comments[ci]
	loc := t.LocateComment(&an.Doc.Review.Patch, res)
	f := loc.File
	if f == nil || f.Lines() == 0 {
		return InSource{}, false // not read: outside the root, missing, binary, too large
	}
	in := InSource{Comment: ci, Name: c.Name(), File: f, Left: res.Side == anchor.Left}
	switch {
	case loc.Found():
		in.Start, in.End = loc.Start, loc.End
	case errors.Is(loc.Err, worktree.ErrChanged):
		if ap, ok := AppliedSuggestion(an, t, ci); ok {
			in.Applied = true
			in.Start, in.End = ap.Start, max(ap.End, ap.Start)
			break
		}
		if !opts.Outdated {
			return InSource{}, false
		}
		in.Outdated = true
		in.Start, in.End = loc.PartialStart, loc.PartialEnd
		if in.Start == 0 {
			in.Start, in.End = loc.Expected, loc.Expected
		}
	case errors.Is(loc.Err, worktree.ErrNoLine) && in.Left:
		// Removed lines with no RIGHT line after them in their hunk (the
		// end of the file): where the hunk's new lines end.
		h := res.File.Hunks[res.Hunk]
		in.Start = h.NewStart + h.NewCount
		in.End = in.Start
	default:
		return InSource{}, false
	}
	in.Start = min(max(in.Start, 1), f.Lines())
	in.End = min(max(in.End, in.Start), f.Lines())
	in.Message = sourceMessage(c, in)
	in.Thread = threadPlaces(c)
	return in, true
}

// sourceMessage is an InSource's one line.
func sourceMessage(c *exchange.Comment, in InSource) string {
	var b strings.Builder
	b.WriteString(in.Name)
	if c.Author != "" {
		fmt.Fprintf(&b, " (%s)", c.Author)
	}
	b.WriteString(": ")
	if first := FirstLine(c.Body); first != "" {
		b.WriteString(first)
	} else {
		b.WriteString("(no text)")
	}
	if n := len(c.Replies); n > 0 {
		b.WriteString(" · " + anchor.Plural(n, "reply", "replies"))
	}
	if in.Left {
		b.WriteString(" · on removed lines")
	}
	switch {
	case in.Applied:
		b.WriteString(" · suggestion applied")
	case in.Outdated:
		b.WriteString(" · outdated: the code changed since the review")
	}
	return b.String()
}

// InReview is an InSource's message naming its review, when comments of
// more than one review are on the same file.
func InReview(message, review string) string { return message + " · in " + review }

// threadPlaces are the comment's and its replies' places in the review:
// each body's value, else the object.
func threadPlaces(c *exchange.Comment) []ReviewPlace {
	out := []ReviewPlace{{Range: bodyRange(c.Node), Message: byWords(c.Name(), c.Author)}}
	for i, rp := range c.Replies {
		if rp == nil || rp.Node == nil {
			continue
		}
		out = append(out, ReviewPlace{Range: bodyRange(rp.Node), Message: byWords(fmt.Sprintf("reply %d", i+1), rp.Author)})
	}
	return out
}

func bodyRange(obj *exchange.Node) exchange.Range {
	if n := obj.Member("body"); n != nil {
		return exchange.NodeRange(n)
	}
	return exchange.Range{Start: obj.Start, End: obj.Start + 1}
}

func byWords(what, author string) string {
	if author == "" {
		return what
	}
	return what + " by " + author
}

// ThreadMarkdown is the whole thread of comment in, for a hover in the
// source: the comment's author, state (and "suggestion applied" when
// the code holds its suggestion) and body, then each reply in order.
// review names the review when more than one is in scope.
func ThreadMarkdown(an *anchor.Analysis, in InSource, review string) string {
	ci := in.Comment
	c := an.Doc.Review.Comments[ci]
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**", code(c.Name()))
	if c.Author != "" {
		b.WriteString(" by **" + escape(c.Author) + "**")
	}
	b.WriteString(" · " + escape(c.StateNorm()))
	if in.Applied {
		b.WriteString(" · suggestion applied")
	}
	if res := an.Anchors.Resolutions[ci]; res != nil && res.Resolved {
		fmt.Fprintf(&b, " · %s %s", code(c.Path), reviewLines(res))
	}
	if review != "" {
		b.WriteString(" · " + code(review))
	}
	b.WriteString("\n\n" + bodyOrNone(c.Body))
	for i, rp := range c.Replies {
		if rp == nil {
			continue
		}
		author := rp.Author
		if author == "" {
			author = "(no author)"
		}
		fmt.Fprintf(&b, "\n\n---\n\n**Reply %d** by **%s**", i+1, escape(author))
		if rp.At != "" {
			b.WriteString(" · " + escape(rp.At))
		}
		b.WriteString("\n\n" + bodyOrNone(rp.Body))
	}
	return b.String()
}

func bodyOrNone(body string) string {
	if strings.TrimSpace(body) == "" {
		return "*(no text yet)*"
	}
	return body
}

// SourceAction is an action on a comment offered in the source: its
// title, and the edit of the review it makes (none for a command alone).
type SourceAction struct {
	Title string
	Edits []exchange.Edit
	// Cursor, for a reply, is the offset in the review's text after the
	// edit where the new reply's body is, for the person to type it.
	Cursor int
}

// SourceActions are the actions on comment in from the source: reply
// (an empty reply, the cursor in its body) and dismiss, which says why
// when its suggestion is applied. A review with syntax errors gets none:
// its structure is a guess.
func SourceActions(an *anchor.Analysis, in InSource, opts ActionOptions) []SourceAction {
	ci := in.Comment
	doc := an.Doc
	if doc == nil || len(doc.Syntax) > 0 || ci < 0 || ci >= len(doc.Review.Comments) {
		return nil
	}
	c := doc.Review.Comments[ci]
	name := c.Name()
	var out []SourceAction
	if e, ok := exchange.ReplyEdit(doc.Text, c, opts.author(), "", Stamp(opts.Now)); ok {
		out = append(out, SourceAction{Title: "Reply to " + name, Edits: []exchange.Edit{e}, Cursor: replyCursor(e)})
	}
	if c.StateNorm() == exchange.StateActive {
		title := "Dismiss " + name
		if in.Applied {
			title = fmt.Sprintf("Dismiss %s: its suggestion is applied", name)
		}
		out = append(out, SourceAction{Title: title, Edits: []exchange.Edit{exchange.SetStateEdit(doc.Text, c, exchange.StateDismissed)}})
	}
	return out
}

// replyCursor is where the empty body of the reply e inserts is once e
// is applied: inside its quotes.
func replyCursor(e exchange.Edit) int {
	i := strings.Index(e.NewText, `"body"`)
	if i < 0 {
		return e.Start
	}
	j := strings.IndexByte(e.NewText[i+len(`"body"`):], '"')
	if j < 0 {
		return e.Start
	}
	return e.Start + i + len(`"body"`) + j + 1
}

// ShowTitle is the title of the action that shows comment name in its
// review.
func ShowTitle(name string) string { return "Show " + name + " in the review" }
