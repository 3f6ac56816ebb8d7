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
// commit_id is not the commit it was made on: for a new-file line Gitea
// gives the commit git blame gives for that line (Forgejo, since its
// change #9914, that commit's line number too); its review's commit_id
// is the one. diff_hunk ends with its line as it read then, empty for a
// place outside the diff.
type GiteaReviewComment struct {
	ID               int64      `json:"id"`
	Body             string     `json:"body"`
	User             *GiteaUser `json:"user"`
	Resolver         *GiteaUser `json:"resolver"`
	ReviewID         int64      `json:"pull_request_review_id"`
	CreatedAt        string     `json:"created_at"`
	Path             string     `json:"path"`
	CommitID         string     `json:"commit_id"`
	DiffHunk         string     `json:"diff_hunk"`
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
	CommitID    string     `json:"commit_id"`
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
	posted := map[int64]string{}
	latest := latestGiteaReview(reviews)
	for i := range reviews {
		dismissed[reviews[i].ID] = reviews[i].Dismissed
		posted[reviews[i].ID] = reviews[i].CommitID
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
	g := giteaImport{in: in, comments: comments, dismissed: dismissed, posted: posted, reviews: reviews != nil, opts: opts}
	for _, ids := range threads {
		g.thread(ids)
	}
	g.noteUnknown()
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

// giteaImport is what a Gitea import's threads share.
type giteaImport struct {
	in        *importer
	comments  []GiteaReviewComment
	dismissed map[int64]bool
	posted    map[int64]string // each review's commit_id: where its comments were made
	reviews   bool             // whether the reviews were given
	opts      ImportOptions
	// unknown names the comments made on an earlier commit that the
	// import could not tell changed or not, for one note.
	unknown []string
	// unmade names the comments whose review, which says the commit they
	// were made on, is not listed.
	unmade []string
	// moves caches the repository's answer for each commit and path: one
	// git diff per file, however many comments it holds.
	moves map[[2]string]movesOrErr
	// repoErrs are the repository's errors said so far.
	repoErrs map[string]bool
}

type movesOrErr struct {
	moves lineMoves
	err   error
}

// linesSince returns how the lines of path moved from commit made to the
// head, asking the repository once per commit and path.
func (g *giteaImport) linesSince(made, path string) (lineMoves, error) {
	key := [2]string{made, path}
	if m, ok := g.moves[key]; ok {
		return m.moves, m.err
	}
	diff, err := g.opts.Revisions.Diff(made, g.opts.Head, path)
	m := movesOrErr{err: err}
	if err == nil {
		m.moves = parseLineMoves(diff)
	}
	if g.moves == nil {
		g.moves = map[[2]string]movesOrErr{}
	}
	g.moves[key] = m
	return m.moves, m.err
}

// noteUnknown says in one note which comments were made on an earlier
// commit with nothing to tell whether the code under them changed.
func (g *giteaImport) noteUnknown() {
	if n := len(g.unmade); n > 0 {
		why := "their reviews are not in --reviews"
		if !g.reviews {
			why = "import --reviews gives it"
		}
		g.in.notef("%s (%s): the commit each was made on is unknown (%s; the commit_id Gitea lists for a comment is the one git blame gives its line): whether the code under them changed is unknown, so they are kept as they were",
			anchor.Plural(n, "comment", "comments"), andList(g.unmade), why)
	}
	if len(g.unknown) == 0 {
		return
	}
	names := andList(g.unknown)
	g.in.notef("%s made on an earlier commit than the head %s, and the line Gitea quotes reads the same now: whether the code under %s changed is unknown, so %s kept as %s (import --repo DIR maps %s through git)",
		anchor.Plural(len(g.unknown), "comment", "comments")+" ("+names+")", shortSHA(g.opts.Head),
		pick(len(g.unknown), "it", "them"), pick(len(g.unknown), "it is", "they are"), pick(len(g.unknown), "it was", "they were"), pick(len(g.unknown), "it", "them"))
}

// andList joins names, the last two with "and".
func andList(names []string) string {
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return strings.Join(names, "")
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// thread imports the comments on one place, oldest first.
func (g *giteaImport) thread(ids []int) {
	in, comments, dismissed := g.in, g.comments, g.dismissed
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
	g.place(c, t)
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

// place reads whether the code under a thread changed since its comment
// was made, as Gitea means it. Gitea keeps a comment on the line number
// it was made on, in the commit its review was posted on; a later push
// moves neither. So: made on the head (--head), it is current; made on
// an earlier commit, its new-file lines are mapped to the head through
// the repository (opts.Revisions): stale when a commit since changed
// them, moved when lines above them came or went. Without a repository
// the line Gitea quotes (diff_hunk's last) is compared with the patch's:
// stale when it reads otherwise, else kept with a note that it is
// unknown. An old-file line is the base's, which a push to the branch
// does not change.
func (g *giteaImport) place(c *GiteaReviewComment, t *lineThread) {
	head := g.opts.Head
	if head == "" || t.side == anchor.Left {
		return
	}
	made := g.posted[c.ReviewID]
	name := "comment " + strconv.FormatInt(c.ID, 10)
	if made == "" {
		g.unmade = append(g.unmade, name)
		return
	}
	if sameCommit(made, head) {
		return
	}
	since := "made on commit " + shortSHA(made) + ", the head is " + shortSHA(head)
	if g.opts.Revisions != nil {
		moves, err := g.linesSince(made, c.Path)
		if err == nil {
			start, ok1 := moves.mapLine(t.start)
			end, ok2 := moves.mapLine(t.end)
			switch {
			case !ok1 || !ok2:
				t.stale = since + ": a commit since changed its lines (git diff " + shortSHA(made) + " " + shortSHA(head) + ")"
			case end != t.end:
				t.moved = fmt.Sprintf("%s; placed on %s, where its lines are now (they were %s then; git diff %s %s)",
					since, anchor.LineSpan(t.side, start, end), anchor.LineSpan(t.side, t.start, t.end), shortSHA(made), shortSHA(head))
				t.start, t.end = start, end
			}
			return
		}
		// Said once per answer (a commit the clone lacks fails for
		// every comment made on it); the comment is then read as
		// without a repository.
		if msg := err.Error(); !g.repoErrs[msg] {
			if g.repoErrs == nil {
				g.repoErrs = map[string]bool{}
			}
			g.repoErrs[msg] = true
			g.in.notef("the repository cannot map the lines of comments made on commit %s (%v): they are read from the line Gitea quotes (git fetch the pull request's commits to map them)", shortSHA(made), err)
		}
	}
	then, ok := lastHunkLine(c.DiffHunk)
	now, shown := g.in.lineText(c.Path, t.side, t.end)
	switch {
	case !shown:
		// Not in the patch: imported orphaned (importer.finish).
	case ok && then != now:
		t.stale = since + ": its line read otherwise then (import --repo DIR maps it through git)"
	default:
		g.unknown = append(g.unknown, name)
	}
}

// lastHunkLine is the text of a diff_hunk's last line, its +, - or space
// taken off: the line a Gitea comment was made on, as it read then.
func lastHunkLine(hunk string) (string, bool) {
	hunk = strings.TrimRight(hunk, "\n")
	i := strings.LastIndexByte(hunk, '\n')
	if i < 0 {
		return "", false
	}
	last := hunk[i+1:]
	if last == "" || strings.IndexByte("+- ", last[0]) < 0 {
		return "", false
	}
	return last[1:], true
}
