package forge

import (
	"cmp"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// post is one post of a thread as a forge lists it: its name in the
// forge's numbering (for notes), its author and time from the forge's
// fields, and its text.
type post struct {
	name, author, at, body string
}

// lineThread is a thread on lines, as the importers of Gerrit, Gitea,
// Bitbucket and Azure DevOps read it from their forge's fields: where it
// is, its posts, and the forge's verdict on it.
type lineThread struct {
	fallbackID string
	first      post
	replies    []post
	// path is the forge's name of the file; oldPath, when the forge gives
	// it, the old name of a renamed file.
	path, oldPath string
	side          anchor.Side
	start, end    int // end >= start
	// stale says why the thread is placed on another revision, "" when
	// it is not.
	stale string
	// moved says where the thread was placed then, when the import moved
	// it to where its lines are now; "" when it did not.
	moved string
	// resolved is the forge's word for a thread resolved (a person marked
	// it addressed), dismissed its word for one a person declined (won't
	// fix, by design); "" when the thread is open.
	resolved, dismissed string
}

// addThread turns a thread into a comment of the document: the id, body
// and quoted replies from the first post's text (importer.comment), the
// replies from the later posts (importer.reply), the path on the side's
// name of the file, and the state the forge's verdict means:
//
//   - declined (won't fix, by design): dismissed, a person rejected it;
//   - resolved (fixed, done, closed): active: a person addressed it, which
//     is not a rejection, and the comment stands; said in a note;
//   - placed on another revision: stale.
func (in *importer) addThread(forgeName string, t *lineThread) {
	c := in.comment(t.first.name, t.fallbackID, t.first.body, t.first.author, t.first.at)
	for _, r := range t.replies {
		c.Replies = append(c.Replies, in.reply(r.name, r.author, r.at, r.body))
	}
	c.Side, c.Path = t.side.String(), t.path
	f := fileNamed(in.ix, t.path)
	if f == nil && t.oldPath != "" {
		for _, g := range in.ix.Files {
			if g.OldName == t.oldPath {
				f = g
				break
			}
		}
	}
	if f != nil && f.Name(t.side) != "" {
		c.Path = f.Name(t.side)
	}
	c.StartLine = t.start
	if t.end > t.start {
		c.EndLine = t.end
	}
	span := anchor.LineSpan(t.side, t.start, cmp.Or(t.end, t.start))
	switch {
	case t.dismissed != "":
		c.State = exchange.StateDismissed
		in.notef("%s: %s on %s (a person declined it): imported dismissed", c.ID, t.dismissed, forgeName)
	case t.stale != "":
		c.State = exchange.StateStale
		in.notef("%s: %s: imported stale at %s of %q, that revision's lines", c.ID, t.stale, span, c.Path)
	}
	if t.moved != "" {
		in.notef("%s: %s", c.ID, t.moved)
	}
	if t.resolved != "" && c.State != exchange.StateDismissed {
		in.notef("%s: %s on %s: imported %s (addressed is not rejected: a resolved thread keeps its state)", c.ID, t.resolved, forgeName, cmp.Or(c.State, exchange.StateActive))
	}
	in.rv.Comments = append(in.rv.Comments, c)
}

// summary takes a post on the change itself that carries the export's
// review marker as the title and summary, the latest such post winning.
type summary struct {
	at   time.Time
	seen bool
}

// offer keeps text as the title and summary when it is the latest marked
// post so far; false when text is not marked.
func (s *summary) offer(in *importer, text string, at time.Time) bool {
	if !isReviewBody(text) {
		return false
	}
	if !s.seen || !at.Before(s.at) {
		in.rv.Title, in.rv.Summary = splitReviewBody(text)
		s.at, s.seen = at, true
	}
	return true
}

// rfc3339 is t in RFC 3339, UTC, as the format's at wants it.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
