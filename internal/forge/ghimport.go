package forge

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Imported is a review exchange document made from a pull request, and
// what the import has to say about it.
type Imported struct {
	// Data is the document, written canonically (exchange.Format).
	Data []byte
	// Notes are one line each: comments left out (file-level ones),
	// imported orphaned or stale, or placed otherwise than on GitHub.
	Notes []string
	// Comments counts the comments the document holds.
	Comments int
}

// ImportGitHub makes a review exchange document from a pull request's
// review comments, its reviews (nil: no summary) and its diff, split into
// lines: one comment per thread, its replies oldest first.
func ImportGitHub(comments []GitHubThreadComment, reviews []GitHubReviewRecord, patch []string) (*Imported, error) {
	ix, err := patchIndex(patch)
	if err != nil {
		return nil, err
	}
	im := &Imported{}
	if n, first := invalidUTF8(patch); n > 0 {
		// JSON strings hold Unicode text only: such bytes cannot travel.
		are, their := "are", "their"
		if n == 1 {
			are, their = "is", "its"
		}
		im.Notes = append(im.Notes, fmt.Sprintf("the patch has %s that %s not UTF-8 (the first is line %d): in the review, %s invalid bytes are U+FFFD",
			anchor.Plural(n, "line", "lines"), are, first+1, their))
	}
	rv := exReview{Version: 1, Patch: patch, Comments: []*exComment{}}
	if latest := latestReview(reviews); latest != nil {
		rv.Title, rv.Summary = splitReviewBody(latest.Body)
	}
	roots, replies := threads(comments, im)
	used := map[string]bool{}
	for _, root := range roots {
		c, ok := threadComment(root, replies[root.ID], ix, used, im)
		if ok {
			rv.Comments = append(rv.Comments, c)
		}
	}
	// Resolve every comment with the engine: what does not resolve is
	// orphaned, what does gets its snippet.
	doc, err := rv.document()
	if err != nil {
		return nil, err
	}
	rep := anchor.CheckDocument(doc, nil)
	for i, c := range rv.Comments {
		r := rep.Anchors.Resolutions[i]
		switch {
		case c.State != exchange.StateActive:
		case r.Resolved:
			c.Snippet = anchor.SnippetOf(&doc.Review.Patch, r.File, r.Lines())
		default:
			c.State = exchange.StateOrphaned
			im.Notes = append(im.Notes, fmt.Sprintf("%s: %s of %q is not in the patch: imported orphaned",
				c.ID, anchor.LineSpan(sideOf(c.Side), c.StartLine, cmp.Or(c.EndLine, c.StartLine)), c.Path))
		}
	}
	if doc, err = rv.document(); err != nil {
		return nil, err
	}
	if im.Data, err = exchange.Format(doc); err != nil {
		return nil, err
	}
	im.Comments = len(rv.Comments)
	return im, nil
}

// invalidUTF8 counts the lines that are not UTF-8, and gives the first.
func invalidUTF8(lines []string) (n, first int) {
	for i, l := range lines {
		if !utf8.ValidString(l) {
			if n == 0 {
				first = i
			}
			n++
		}
	}
	return n, first
}

// patchIndex indexes the patch alone, to place comments before the
// document is made.
func patchIndex(patch []string) (*anchor.Index, error) {
	rv := exReview{Version: 1, Patch: patch, Comments: []*exComment{}}
	doc, err := rv.document()
	if err != nil {
		return nil, err
	}
	ix := anchor.BuildIndex(&doc.Review.Patch)
	if len(ix.Files) == 0 {
		return nil, fmt.Errorf("the patch holds no file diff (expected the output of gh pr diff)")
	}
	return ix, nil
}

// latestReview is the latest submitted review with a body: a review
// made of line comments alone has an empty one.
func latestReview(reviews []GitHubReviewRecord) *GitHubReviewRecord {
	var best *GitHubReviewRecord
	var bestAt time.Time
	for i := range reviews {
		r := &reviews[i]
		at, err := time.Parse(time.RFC3339, r.SubmittedAt)
		if r.Body == "" || err != nil { // a pending review has no submitted_at
			continue
		}
		if best == nil || !at.Before(bestAt) {
			best, bestAt = r, at
		}
	}
	return best
}

// threads returns the thread roots in the order listed, and each root's
// replies oldest first. A reply to a comment that is not listed starts a
// thread of its own.
func threads(comments []GitHubThreadComment, im *Imported) ([]*GitHubThreadComment, map[int64][]*GitHubThreadComment) {
	byID := make(map[int64]*GitHubThreadComment, len(comments))
	for i := range comments {
		byID[comments[i].ID] = &comments[i]
	}
	var roots []*GitHubThreadComment
	replies := map[int64][]*GitHubThreadComment{}
	for i := range comments {
		c := &comments[i]
		root := rootOf(c, byID)
		if root == c {
			if c.InReplyToID != nil {
				im.Notes = append(im.Notes, fmt.Sprintf("comment %d replies to comment %d, which is not in the comments: imported as a thread of its own", c.ID, *c.InReplyToID))
			}
			roots = append(roots, c)
			continue
		}
		replies[root.ID] = append(replies[root.ID], c)
	}
	for _, rs := range replies {
		slices.SortStableFunc(rs, func(a, b *GitHubThreadComment) int {
			return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
		})
	}
	return roots, replies
}

// rootOf follows in_reply_to_id up to the thread's first comment (GitHub
// points replies at it, but an older reply may point at another reply).
// A chain that leaves the list or loops ends where it does.
func rootOf(c *GitHubThreadComment, byID map[int64]*GitHubThreadComment) *GitHubThreadComment {
	seen := map[int64]bool{c.ID: true}
	for c.InReplyToID != nil {
		p := byID[*c.InReplyToID]
		if p == nil || seen[p.ID] {
			return c
		}
		seen[p.ID] = true
		c = p
	}
	return c
}

// threadComment turns a thread into a comment; ok is false for a
// file-level thread, which anchors to no line.
func threadComment(root *GitHubThreadComment, replies []*GitHubThreadComment, ix *anchor.Index, used map[string]bool, im *Imported) (*exComment, bool) {
	ghName := "comment " + strconv.FormatInt(root.ID, 10)
	if root.SubjectType == "file" || (root.Line == nil && root.OriginalLine == nil) {
		im.Notes = append(im.Notes, fmt.Sprintf("%s on %q is a file-level comment: left out, with its %s (a review exchange comment anchors to lines)",
			ghName, root.Path, anchor.Plural(len(replies), "reply", "replies")))
		return nil, false
	}
	body, quoted, id, marked := splitBody(root.Body)
	c := &exComment{ID: "gh-" + strconv.FormatInt(root.ID, 10), Path: root.Path, Body: body, State: exchange.StateActive, At: root.CreatedAt}
	if marked && id != "" && !used[id] {
		c.ID = id
	} else if marked && id != "" {
		im.Notes = append(im.Notes, fmt.Sprintf("%s: its marker names %s, which an earlier comment took: imported as %s", ghName, id, c.ID))
	}
	used[c.ID] = true
	if root.User != nil {
		c.Author = root.User.Login
	}
	for _, q := range quoted {
		c.Replies = append(c.Replies, exReply{Author: q.author, Body: q.body, At: q.at})
	}
	for _, r := range replies {
		er := exReply{Body: r.Body, At: r.CreatedAt}
		if r.User != nil {
			er.Author = r.User.Login
		}
		c.Replies = append(c.Replies, er)
	}
	place(c, root, ix, im)
	return c, true
}

// place sets c's side and lines from GitHub's: line and start_line, or
// for an outdated comment (line null) original_line and
// original_start_line, which make it stale.
func place(c *exComment, g *GitHubThreadComment, ix *anchor.Index, im *Imported) {
	side := anchor.Right // GitHub's default
	if g.Side != nil {
		if s, ok := anchor.ParseSide(*g.Side); ok {
			side = s
		}
	}
	c.Side = side.String()
	end, start := g.Line, g.StartLine
	if end == nil {
		end, start = g.OriginalLine, g.OriginalStartLine
		c.State = exchange.StateStale
		// The lines it was on, from the hunk GitHub kept with it: the
		// snippet a re-anchoring pass (lreview-lsp fix, a quick fix)
		// searches the patch for.
		c.Snippet = hunkTail(g.DiffHunk, side, *end-rangeStart(start, *end)+1)
		im.Notes = append(im.Notes, fmt.Sprintf("%s: outdated on GitHub (its line is gone from the pull request's diff): imported stale at %s of %q",
			c.ID, anchor.LineSpan(side, rangeStart(start, *end), *end), c.Path))
	}
	c.StartLine = *end
	if start != nil && *start < *end {
		c.StartLine, c.EndLine = *start, *end
	}
	// GitHub names a file by its new name on both sides (the old one for
	// a deleted file); the exchange names the LEFT image of a renamed or
	// copied file by its old name.
	f := fileNamed(ix, c.Path)
	if f != nil && f.Name(side) != "" {
		c.Path = f.Name(side)
	}
	if c.EndLine == 0 || g.StartSide == nil || *g.StartSide == side.String() || c.State != exchange.StateActive {
		return
	}
	// A range from one image to the other (a removed line to its
	// replacement): an exchange comment has one side, so the range keeps
	// the lines of its last line's image.
	from := c.StartLine
	c.StartLine, c.EndLine = narrowed(f, side, *g.StartSide, from, c.EndLine)
	if c.EndLine == c.StartLine {
		c.EndLine = 0
	}
	im.Notes = append(im.Notes, fmt.Sprintf("%s: GitHub's range runs from %s %d to %s %d; a review exchange comment has one side: imported as %s",
		c.ID, *g.StartSide, from, side, *end, anchor.LineSpan(side, c.StartLine, cmp.Or(c.EndLine, c.StartLine))))
}

// narrowed returns the part of a range that starts on the other image at
// from and ends on side at end that lies in side's image: from the first
// line of that image after from's line, in the same hunk.
func narrowed(f *anchor.FileDiff, side anchor.Side, startSide string, from, end int) (int, int) {
	other, ok := anchor.ParseSide(startSide)
	if f == nil || !ok {
		return end, end
	}
	h1, i, ok1 := f.Find(other, from)
	h2, j, ok2 := f.Find(side, end)
	if !ok1 || !ok2 || h1 != h2 {
		return end, end
	}
	for ; i <= j; i++ {
		if n := f.Hunks[h1].Lines[i].Number(side); n > 0 {
			return n, end
		}
	}
	return end, end
}

// hunkTail returns the last n lines of side's image in a diff hunk,
// without their markers, trimmed: the lines a comment ending there is on.
func hunkTail(hunk string, side anchor.Side, n int) string {
	lines := strings.Split(strings.TrimRight(hunk, "\n"), "\n")
	var tail []string
	for i := len(lines) - 1; i >= 0 && len(tail) < n; i-- {
		l := strings.TrimSuffix(lines[i], "\r")
		if l == "" || strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "\\") {
			continue
		}
		if l[0] == ' ' || (l[0] == '+' && side == anchor.Right) || (l[0] == '-' && side == anchor.Left) {
			tail = append(tail, strings.TrimSpace(l[1:]))
		}
	}
	if len(tail) < n {
		return "" // the hunk does not reach back to the comment's first line
	}
	slices.Reverse(tail)
	return strings.Join(tail, "\n")
}

// fileNamed returns the file GitHub calls path: the first whose new
// name, or old name when deleted, it is.
func fileNamed(ix *anchor.Index, path string) *anchor.FileDiff {
	for _, f := range ix.Files {
		if f.DisplayName() == path {
			return f
		}
	}
	return nil
}

// rangeStart is a range's first line: start when GitHub gives one
// before end, else end.
func rangeStart(start *int, end int) int {
	if start == nil || *start >= end {
		return end
	}
	return *start
}

func sideOf(s string) anchor.Side {
	side, _ := anchor.ParseSide(s)
	return side
}
