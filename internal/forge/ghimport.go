package forge

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// ImportGitHub makes a review exchange document from a pull request's
// review comments, its reviews (nil: no summary) and its diff, split into
// lines: one comment per thread, its replies oldest first. opts.Head is
// not used: GitHub says itself which comments are outdated.
func ImportGitHub(comments []GitHubThreadComment, reviews []GitHubReviewRecord, patch []string, opts ImportOptions) (*Imported, error) {
	in, err := newImporter(patch, "gh pr diff", opts)
	if err != nil {
		return nil, err
	}
	if latest := latestReview(reviews); latest != nil {
		in.rv.Title, in.rv.Summary = splitReviewBody(latest.Body)
	}
	roots, replies := threads(comments, in.im)
	for _, root := range roots {
		if c, ok := threadComment(root, replies[root.ID], in); ok {
			in.rv.Comments = append(in.rv.Comments, c)
		}
	}
	return in.finish()
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
// thread of its own; a cycle of in_reply_to_id is broken at its earliest
// comment (linkThreads), each said in a note.
func threads(comments []GitHubThreadComment, im *Imported) ([]*GitHubThreadComment, map[int64][]*GitHubThreadComment) {
	earlier := func(i, j int) bool {
		a, b := &comments[i], &comments[j]
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID)) < 0
	}
	l := linkThreads(len(comments),
		func(i int) string { return strconv.FormatInt(comments[i].ID, 10) },
		func(i int) (string, bool) {
			if p := comments[i].InReplyToID; p != nil {
				return strconv.FormatInt(*p, 10), true
			}
			return "", false
		}, earlier)
	for _, i := range l.orphans {
		c := &comments[i]
		im.Notes = append(im.Notes, fmt.Sprintf("comment %d replies to comment %d, which is not in the comments: imported as a thread of its own", c.ID, *c.InReplyToID))
	}
	for _, cycle := range l.cycles {
		names := make([]string, len(cycle))
		for k, i := range cycle {
			names[k] = "comment " + strconv.FormatInt(comments[i].ID, 10)
		}
		im.Notes = append(im.Notes, cycleNote("in_reply_to_id", names))
	}
	var roots []*GitHubThreadComment
	replies := map[int64][]*GitHubThreadComment{}
	for i := range comments {
		c := &comments[i]
		if root := &comments[l.root[i]]; root != c {
			replies[root.ID] = append(replies[root.ID], c)
			continue
		}
		roots = append(roots, c)
	}
	for _, rs := range replies {
		slices.SortStableFunc(rs, func(a, b *GitHubThreadComment) int {
			return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
		})
	}
	return roots, replies
}

// threadComment turns a thread into a comment; ok is false for a
// file-level thread, which anchors to no line.
func threadComment(root *GitHubThreadComment, replies []*GitHubThreadComment, in *importer) (*exComment, bool) {
	ghName := "comment " + strconv.FormatInt(root.ID, 10)
	if root.SubjectType == "file" || (root.Line == nil && root.OriginalLine == nil) {
		in.notef("%s on %q is a file-level comment: left out, with its %s (a review exchange comment anchors to lines)",
			ghName, root.Path, anchor.Plural(len(replies), "reply", "replies"))
		return nil, false
	}
	c := in.comment(ghName, "gh-"+strconv.FormatInt(root.ID, 10), root.Body, login(root.User), root.CreatedAt)
	c.Path = root.Path
	for _, r := range replies {
		c.Replies = append(c.Replies, in.reply("comment "+strconv.FormatInt(r.ID, 10), login(r.User), r.CreatedAt, r.Body))
	}
	place(c, root, in.ix, in.im)
	return c, true
}

// login is a user's login, "" for a deleted account.
func login(u *GitHubUser) string {
	if u == nil {
		return ""
	}
	return u.Login
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
	if other, ok := anchor.ParseSide(*g.StartSide); ok {
		c.StartLine, c.EndLine = narrowed(f, side, other, from, c.EndLine)
	} else {
		c.StartLine = c.EndLine
	}
	if c.EndLine == c.StartLine {
		c.EndLine = 0
	}
	im.Notes = append(im.Notes, fmt.Sprintf("%s: GitHub's range runs from %s %d to %s %d; a review exchange comment has one side: imported as %s",
		c.ID, *g.StartSide, from, side, *end, anchor.LineSpan(side, c.StartLine, cmp.Or(c.EndLine, c.StartLine))))
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
