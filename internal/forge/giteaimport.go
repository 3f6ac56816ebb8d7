package forge

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// GiteaReviewComment is a review comment as Forgejo and Gitea list it
// (PullReviewComment, GET …/pulls/{index}/reviews/{id}/comments):
// position is its line in the new file, original_position in the old
// one, the other 0; resolver is set once its conversation is resolved.
type GiteaReviewComment struct {
	ID               int64      `json:"id"`
	Body             string     `json:"body"`
	User             *GiteaUser `json:"user"`
	Resolver         *GiteaUser `json:"resolver"`
	ReviewID         int64      `json:"pull_request_review_id"`
	CreatedAt        string     `json:"created_at"`
	Path             string     `json:"path"`
	CommitID         string     `json:"commit_id"`
	Position         int        `json:"position"`
	OriginalPosition int        `json:"original_position"`
}

// GiteaUser is a comment's or review's author.
type GiteaUser struct {
	Login string `json:"login"`
}

// GiteaReviewRecord is a review as GET …/pulls/{index}/reviews lists it
// (PullReview): dismissed when a maintainer dismissed it.
type GiteaReviewRecord struct {
	ID          int64      `json:"id"`
	User        *GiteaUser `json:"user"`
	Body        string     `json:"body"`
	State       string     `json:"state"`
	Dismissed   bool       `json:"dismissed"`
	SubmittedAt string     `json:"submitted_at"`
}

// ReadGiteaComments reads review comments: the outputs of
// GET /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments for each
// review, concatenated.
func ReadGiteaComments(name string, data []byte) ([]GiteaReviewComment, error) {
	return readRecords[GiteaReviewComment](name, data, listing{forge: "Gitea",
		what: "the review comments of GET /repos/OWNER/REPO/pulls/N/reviews/ID/comments", required: []string{"id", "path", "body"}})
}

// ReadGiteaReviews reads the output of GET /repos/{owner}/{repo}/pulls/{index}/reviews.
func ReadGiteaReviews(name string, data []byte) ([]GiteaReviewRecord, error) {
	return readRecords[GiteaReviewRecord](name, data, listing{forge: "Gitea",
		what: "the reviews of GET /repos/OWNER/REPO/pulls/N/reviews", required: []string{"id", "body"}})
}

// ImportGitea makes a review exchange document from a Forgejo or Gitea
// pull request's review comments, its reviews (nil: no summary, no
// dismissal) and its diff. Gitea threads a conversation by its place:
// the comments on one line of one side of one file are one thread, the
// earliest its comment, the others its replies, except that a comment
// an export marked starts a thread of its own. opts.Head is the pull
// request's head commit: a comment made on another commit is stale (Gitea
// does not move it).
func ImportGitea(comments []GiteaReviewComment, reviews []GiteaReviewRecord, patch []string, opts ImportOptions) (*Imported, error) {
	in, err := newImporter(patch, "git diff of the pull request", opts)
	if err != nil {
		return nil, err
	}
	dismissed := map[int64]bool{}
	latest := latestGiteaReview(reviews)
	for i := range reviews {
		dismissed[reviews[i].ID] = reviews[i].Dismissed
	}
	if latest != nil {
		in.rv.Title, in.rv.Summary = splitReviewBody(latest.Body)
	}
	type place struct {
		path     string
		old, new int
	}
	order := make([]int, len(comments))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		a, b := &comments[i], &comments[j]
		return cmp.Or(cmp.Compare(giteaTime(a.CreatedAt).UnixNano(), giteaTime(b.CreatedAt).UnixNano()), cmp.Compare(a.ID, b.ID))
	})
	// Gitea shows the comments on one place as one conversation; a
	// comment an export marked starts a thread of its own there (two
	// comments of a review may end on one line), the others reply to the
	// latest thread on their place.
	var threads [][]int
	latestAt := map[place]int{}
	for _, i := range order {
		c := &comments[i]
		p := place{c.Path, c.OriginalPosition, c.Position}
		k, ok := latestAt[p]
		if _, _, _, marked := splitBody(c.Body); !ok || marked {
			latestAt[p] = len(threads)
			threads = append(threads, []int{i})
			continue
		}
		threads[k] = append(threads[k], i)
	}
	for _, ids := range threads {
		giteaThread(in, comments, ids, dismissed, opts.Head)
	}
	return in.finish()
}

// latestGiteaReview is the latest submitted review with a body that
// was not dismissed.
func latestGiteaReview(reviews []GiteaReviewRecord) *GiteaReviewRecord {
	var best *GiteaReviewRecord
	for i := range reviews {
		r := &reviews[i]
		if r.Body == "" || r.State == "PENDING" || r.Dismissed {
			continue
		}
		if best == nil || !giteaTime(r.SubmittedAt).Before(giteaTime(best.SubmittedAt)) {
			best = r
		}
	}
	return best
}

// giteaThread imports the comments on one place, oldest first.
func giteaThread(in *importer, comments []GiteaReviewComment, ids []int, dismissed map[int64]bool, head string) {
	c := &comments[ids[0]]
	name := "comment " + strconv.FormatInt(c.ID, 10)
	if c.Position == 0 && c.OriginalPosition == 0 {
		in.notef("%s on %q has neither position nor original_position: left out%s", name, c.Path, gerritWithReplies(len(ids)-1))
		return
	}
	t := &lineThread{
		fallbackID: "gitea-" + strconv.FormatInt(c.ID, 10),
		first:      post{name: name, author: giteaLogin(c.User), at: giteaAt(c.CreatedAt), body: c.Body},
		path:       c.Path, side: anchor.Right, start: c.Position, end: c.Position,
	}
	if c.Position == 0 {
		t.side, t.start, t.end = anchor.Left, c.OriginalPosition, c.OriginalPosition
	}
	// A range an export put on its last line names itself in the body's
	// first line: read back only from a body an export marked.
	if _, _, _, marked := splitBody(c.Body); marked {
		if first, ok := giteaRangeStart(c.Body, t.end); ok {
			t.start = first
			t.first.body = strings.TrimPrefix(strings.TrimPrefix(c.Body, rangeLines(first, t.end)), "\n\n")
		}
	}
	resolver := c.Resolver
	for _, i := range ids[1:] {
		r := &comments[i]
		t.replies = append(t.replies, post{name: "comment " + strconv.FormatInt(r.ID, 10), author: giteaLogin(r.User), at: giteaAt(r.CreatedAt), body: r.Body})
		resolver = cmp.Or(resolver, r.Resolver)
	}
	if resolver != nil {
		t.resolved = "resolved by " + cmp.Or(resolver.Login, "someone")
	}
	if dismissed[c.ReviewID] {
		t.dismissed = fmt.Sprintf("its review (%d) dismissed", c.ReviewID)
	}
	if head != "" && c.CommitID != "" && c.CommitID != head {
		t.stale = "made on commit " + shortSHA(c.CommitID) + ", not the head " + shortSHA(head) + " (Gitea does not move a comment)"
	}
	in.addThread("Gitea", t)
}

// giteaRangeStart reads "Lines A–B:" at the start of body, B being the
// comment's line: the range's first line.
func giteaRangeStart(body string, last int) (int, bool) {
	rest, ok := strings.CutPrefix(body, "Lines ")
	if !ok {
		return 0, false
	}
	a, rest, ok := strings.Cut(rest, "–")
	if !ok {
		return 0, false
	}
	first, err := strconv.Atoi(a)
	suffix := strconv.Itoa(last) + ":"
	if err != nil || first < 1 || first >= last || !strings.HasPrefix(rest, suffix) {
		return 0, false
	}
	if after := rest[len(suffix):]; after != "" && !strings.HasPrefix(after, "\n\n") {
		return 0, false
	}
	return first, true
}

func giteaLogin(u *GiteaUser) string {
	if u == nil {
		return ""
	}
	return u.Login
}

// giteaTime reads Gitea's RFC 3339 times; the zero time when it does not.
func giteaTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}

// giteaAt is a Gitea time as the format's at: as listed, when it reads.
func giteaAt(s string) string {
	if giteaTime(s).IsZero() {
		return ""
	}
	return s
}
