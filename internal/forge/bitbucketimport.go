package forge

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// BitbucketActivity is a pull request activity as Bitbucket Data Center
// lists it (GET …/pull-requests/{id}/activities, pages of "values"): the
// members an import reads. A comment added is action COMMENTED,
// commentAction ADDED, its comment holding its replies as they are now.
type BitbucketActivity struct {
	ID            int64                `json:"id"`
	Action        string               `json:"action"`
	CommentAction string               `json:"commentAction"`
	Comment       *BitbucketCommentRec `json:"comment"`
	CommentAnchor *BitbucketAnchorRec  `json:"commentAnchor"`
}

// BitbucketCommentRec is a comment as listed: its replies nested in
// comments; threadResolved (8.9 and later) or state RESOLVED (a task)
// when a person resolved it.
type BitbucketCommentRec struct {
	ID             int64                 `json:"id"`
	Text           string                `json:"text"`
	Author         *BitbucketUser        `json:"author"`
	CreatedDate    int64                 `json:"createdDate"`
	Comments       []BitbucketCommentRec `json:"comments"`
	State          string                `json:"state"`
	ThreadResolved bool                  `json:"threadResolved"`
}

// BitbucketAnchorRec is a comment's anchor as listed: the create
// anchor's members, and orphaned once a later commit changed its line.
type BitbucketAnchorRec struct {
	Path            string              `json:"path"`
	SrcPath         string              `json:"srcPath"`
	Line            int                 `json:"line"`
	LineType        string              `json:"lineType"`
	FileType        string              `json:"fileType"`
	Orphaned        bool                `json:"orphaned"`
	MultilineMarker *BitbucketMultiline `json:"multilineMarker"`
}

// BitbucketUser is a comment's author: name is the username, slug its
// form in URLs, id its number; displayName is the person's to change and
// never an identity.
type BitbucketUser struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	DisplayName string `json:"displayName"`
}

// ReadBitbucketActivities reads the pages of
// GET /rest/api/latest/projects/{key}/repos/{slug}/pull-requests/{id}/activities,
// concatenated (each page an object whose "values" are the activities).
func ReadBitbucketActivities(name string, data []byte) ([]BitbucketActivity, error) {
	return readRecords[BitbucketActivity](name, data, listing{forge: "Bitbucket", member: "values",
		what: "the activities of GET …/pull-requests/N/activities (pages with \"values\")", required: []string{"id", "action"}})
}

// ImportBitbucket makes a review exchange document from a pull request's
// activities and its diff: each comment added is a thread, its nested
// replies (depth first) oldest first. An orphaned anchor (a later commit
// changed its line) is stale. The title and summary come from the latest
// comment on the pull request that carries the export's marker.
func ImportBitbucket(activities []BitbucketActivity, patch []string, opts ImportOptions) (*Imported, error) {
	in, err := newImporter(patch, "git diff of the pull request", opts)
	if err != nil {
		return nil, err
	}
	var added []*BitbucketActivity
	seen := map[int64]bool{}
	for i := range activities {
		a := &activities[i]
		if a.Action != "COMMENTED" || a.CommentAction != "ADDED" || a.Comment == nil || seen[a.Comment.ID] {
			continue
		}
		seen[a.Comment.ID] = true
		added = append(added, a)
	}
	// Bitbucket lists the newest activity first.
	slices.SortStableFunc(added, func(a, b *BitbucketActivity) int {
		return cmp.Or(cmp.Compare(a.Comment.CreatedDate, b.Comment.CreatedDate), cmp.Compare(a.Comment.ID, b.Comment.ID))
	})
	var sum summary
	for _, a := range added {
		bitbucketThread(in, &sum, a)
	}
	return in.finish()
}

// bitbucketThread imports the thread an activity added.
func bitbucketThread(in *importer, sum *summary, a *BitbucketActivity) {
	c, an := a.Comment, a.CommentAnchor
	name := "comment " + strconv.FormatInt(c.ID, 10)
	var replies []*BitbucketCommentRec
	bitbucketReplies(c.Comments, &replies)
	switch {
	case an == nil:
		if !sum.offer(in, c.Text, bitbucketTime(c.CreatedDate)) {
			in.notef("%s%s is a comment on the pull request, not on a line: left out%s", name, bitbucketBy(c.Author), gerritWithReplies(len(replies)))
		}
		return
	case an.Line == 0:
		in.notef("%s on %q is a file comment: left out%s (a review exchange comment anchors to lines)", name, an.Path, gerritWithReplies(len(replies)))
		return
	}
	slices.SortStableFunc(replies, func(x, y *BitbucketCommentRec) int {
		return cmp.Or(cmp.Compare(x.CreatedDate, y.CreatedDate), cmp.Compare(x.ID, y.ID))
	})
	t := &lineThread{
		fallbackID: "bb-" + strconv.FormatInt(c.ID, 10),
		first:      post{name: name, author: in.author("Bitbucket", bitbucketAccount(c.Author)), at: bitbucketAt(c.CreatedDate), body: c.Text},
		path:       an.Path, oldPath: an.SrcPath, side: anchor.Right, start: an.Line, end: an.Line,
	}
	if an.FileType == "FROM" || (an.FileType == "" && an.LineType == "REMOVED") {
		t.side = anchor.Left
		if an.SrcPath != "" {
			t.path = an.SrcPath
		}
	}
	if m := an.MultilineMarker; m != nil && m.StartLine > 0 && m.StartLine < an.Line {
		t.start = m.StartLine
	}
	resolved := c.ThreadResolved || c.State == "RESOLVED"
	for _, r := range replies {
		t.replies = append(t.replies, post{name: "comment " + strconv.FormatInt(r.ID, 10), author: in.author("Bitbucket", bitbucketAccount(r.Author)), at: bitbucketAt(r.CreatedDate), body: r.Text})
	}
	if resolved {
		t.resolved = "resolved"
	}
	if an.Orphaned {
		t.stale = "orphaned on Bitbucket (a later commit changed its line)"
	}
	in.addThread("Bitbucket", t)
}

// bitbucketReplies appends a comment's nested replies, depth first.
func bitbucketReplies(cs []BitbucketCommentRec, out *[]*BitbucketCommentRec) {
	for i := range cs {
		*out = append(*out, &cs[i])
		bitbucketReplies(cs[i].Comments, out)
	}
}

// bitbucketTime reads Bitbucket's times, milliseconds since 1970.
func bitbucketTime(ms int64) time.Time { return time.UnixMilli(ms) }

// bitbucketAt is a Bitbucket time as the format's at; "" when not given.
func bitbucketAt(ms int64) string {
	if ms == 0 {
		return ""
	}
	return rfc3339(bitbucketTime(ms))
}

func bitbucketName(u *BitbucketUser) string { return bitbucketAccount(u).id }

// bitbucketAccount is an author's identity, its name, slug or id, and
// the name Bitbucket shows.
func bitbucketAccount(u *BitbucketUser) account {
	switch {
	case u == nil:
		return account{}
	case u.Name != "" || u.Slug != "":
		return account{id: cmp.Or(u.Name, u.Slug)}
	case u.ID != 0:
		return account{id: "user " + strconv.FormatInt(u.ID, 10), display: u.DisplayName}
	}
	return account{display: u.DisplayName}
}

func bitbucketBy(u *BitbucketUser) string {
	if n := bitbucketName(u); n != "" {
		return " by " + n
	}
	return ""
}
