package forge

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// ImportGitLab makes a review exchange document from a merge request's
// discussions and its diff (glab mr diff), split into lines: one comment
// per diff thread, its replies in order. head, when not "", is the merge
// request's latest head commit (opts.Head): a thread placed on another
// version is imported stale. Without it every position is taken as
// current.
//
// A discussion becomes:
//   - a diff thread (its first note has a text position): a comment, its
//     id, body and quoted replies read back from the markers an export
//     wrote (else id gl-<note id>), the later notes its replies; resolved
//     on GitLab, it keeps its state, said in a note (a person marked it
//     addressed, which is not rejecting it: see the README's table);
//   - a thread on the merge request itself (no position): the title and
//     summary when it carries the export's review marker (the latest such
//     thread), else left out with a note;
//   - a thread on an image or a whole file: left out with a note;
//   - GitLab's own notes (system) are no one's words: a reply that is one
//     is skipped, a discussion made of them alone says nothing.
func ImportGitLab(discussions []GitLabDiscussionRecord, patch []string, opts ImportOptions) (*Imported, error) {
	in, err := newImporter(patch, "glab mr diff", opts)
	head := opts.Head
	if err != nil {
		return nil, err
	}
	var summaryAt time.Time
	haveSummary := false
	var resolved []string
	for i := range discussions {
		notes := peopleNotes(discussions[i].Notes)
		if len(notes) == 0 {
			continue
		}
		first, replies := &notes[0], notes[1:]
		name := "note " + strconv.FormatInt(first.ID, 10)
		switch pos := first.Position; {
		case pos == nil && isReviewBody(first.Body):
			at := noteTime(first)
			if !haveSummary || !at.Before(summaryAt) {
				in.rv.Title, in.rv.Summary = splitReviewBody(first.Body)
				summaryAt, haveSummary = at, true
			}
		case pos == nil:
			in.notef("%s%s is a comment on the merge request, not on a line: left out%s",
				name, by(first.Author), withReplies(replies))
		case pos.PositionType != "text":
			in.notef("%s on %q is on %s, not on lines: left out%s (a review exchange comment anchors to lines)",
				name, cmp.Or(pos.NewPath, pos.OldPath), positionKind(pos.PositionType), withReplies(replies))
		case lastLine(pos) == glLine{}:
			in.notef("%s on %q has neither new_line nor old_line: left out%s", name, cmp.Or(pos.NewPath, pos.OldPath), withReplies(replies))
		default:
			c := gitlabComment(name, first, replies, in, head)
			if first.Resolved {
				resolved = append(resolved, c.ID)
			}
			in.rv.Comments = append(in.rv.Comments, c)
		}
	}
	if len(resolved) > 0 {
		in.notef("%s resolved on GitLab (%s): imported with their state (addressed is not rejected: a resolved thread keeps its state)",
			anchor.Plural(len(resolved), "thread", "threads"), strings.Join(resolved, ", "))
	}
	return in.finish()
}

// peopleNotes returns the notes that are not GitLab's own.
func peopleNotes(notes []GitLabNote) []GitLabNote {
	var out []GitLabNote
	for _, n := range notes {
		if !n.System {
			out = append(out, n)
		}
	}
	return out
}

// gitlabComment turns a diff thread into a comment.
func gitlabComment(name string, first *GitLabNote, replies []GitLabNote, in *importer, head string) *exComment {
	c := in.comment(name, "gl-"+strconv.FormatInt(first.ID, 10), first.Body, username(first.Author), first.CreatedAt)
	for _, r := range replies {
		c.Replies = append(c.Replies, in.reply("note "+strconv.FormatInt(r.ID, 10), username(r.Author), r.CreatedAt, r.Body))
	}
	pos := first.Position
	if head != "" && pos.HeadSHA != head {
		c.State = exchange.StateStale
	}
	placeGitLab(c, pos, in)
	if c.State == exchange.StateStale {
		in.notef("%s: placed on another version of the merge request (head %s, not %s): imported stale at %s of %q, that version's lines",
			c.ID, shortSHA(pos.HeadSHA), shortSHA(head), anchor.LineSpan(sideOf(c.Side), c.StartLine, cmp.Or(c.EndLine, c.StartLine)), c.Path)
	}
	return c
}

// glLine is a line as a GitLab position gives it: its old and new
// numbers, 0 where it has none.
type glLine struct{ old, new int }

// side is the image a line is read on alone: RIGHT when it has a new
// number (an added line, or a context line, which GitLab numbers on both
// sides: a comment an export put on a context line's LEFT comes back on
// its RIGHT), else LEFT.
func (l glLine) side() (anchor.Side, int) {
	if l.new > 0 {
		return anchor.Right, l.new
	}
	return anchor.Left, l.old
}

// lastLine is a text position's last line: its own numbers, else its
// line_range's end's.
func lastLine(pos *GitLabPosition) glLine {
	l := glLine{pos.OldLine, pos.NewLine}
	if l == (glLine{}) && pos.LineRange != nil {
		l = glLine{pos.LineRange.End.OldLine, pos.LineRange.End.NewLine}
	}
	return l
}

// placeGitLab sets c's path, side and lines from a text position. The
// position's own numbers are its last line's, line_range.start its first
// line's. A range takes the side both ends have a number on (RIGHT when
// both do); one from a removed line to an added one is narrowed to its
// last line's side, as GitHub's ranges across sides are. The path is the
// file's name on that side (a renamed file's old name on the LEFT).
func placeGitLab(c *exComment, pos *GitLabPosition, in *importer) {
	end := lastLine(pos)
	start := end
	if pos.LineRange != nil {
		start = glLine{pos.LineRange.Start.OldLine, pos.LineRange.Start.NewLine}
	}
	side, last := end.side()
	first := last
	cross := false
	switch {
	case start == end || start == (glLine{}):
	case start.new > 0 && end.new > 0:
		side, first, last = anchor.Right, start.new, end.new
	case start.old > 0 && end.old > 0:
		side, first, last = anchor.Left, start.old, end.old
	default:
		cross = true
	}
	f := gitlabFile(in.ix, pos)
	c.Side, c.Path = side.String(), pos.NewPath
	if side == anchor.Left {
		c.Path = cmp.Or(pos.OldPath, pos.NewPath)
	}
	if f != nil && f.Name(side) != "" {
		c.Path = f.Name(side)
	}
	if cross {
		other, from := start.side()
		first = last
		if c.State != exchange.StateStale { // a stale thread's lines are not this patch's
			first, last = narrowed(f, side, other, from, last)
		}
		in.notef("%s: GitLab's range runs from %s %d to %s %d; a review exchange comment has one side: imported as %s",
			c.ID, other, from, side, last, anchor.LineSpan(side, first, last))
	}
	c.StartLine = last
	if first < last {
		c.StartLine, c.EndLine = first, last
	}
}

// gitlabFile returns the file a position names: the first whose new name
// (the old one for a deleted file) is new_path, else whose old name is
// old_path.
func gitlabFile(ix *anchor.Index, pos *GitLabPosition) *anchor.FileDiff {
	if f := fileNamed(ix, pos.NewPath); f != nil {
		return f
	}
	for _, f := range ix.Files {
		if f.OldName != "" && f.OldName == pos.OldPath {
			return f
		}
	}
	return nil
}

func username(u *GitLabUser) string {
	if u == nil {
		return ""
	}
	return u.Username
}

// by names a note's author for the notes, " by NAME", or "".
func by(u *GitLabUser) string {
	if name := username(u); name != "" {
		return " by " + name
	}
	return ""
}

// withReplies says how many replies go with a thread left out.
func withReplies(replies []GitLabNote) string {
	if len(replies) == 0 {
		return ""
	}
	return ", with its " + anchor.Plural(len(replies), "reply", "replies")
}

func positionKind(t string) string {
	switch t {
	case "image":
		return "an image"
	case "file":
		return "the whole file"
	}
	return "a position of type " + strconv.Quote(t)
}

// noteTime is when a note was written; the zero time when GitLab's
// created_at does not read.
func noteTime(n *GitLabNote) time.Time {
	at, _ := time.Parse(time.RFC3339, n.CreatedAt)
	return at
}

func shortSHA(sha string) string { return sha[:min(len(sha), 12)] }
