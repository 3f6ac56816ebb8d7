package forge

// Forgejo's and Gitea's review events (CreatePullReviewOptions.event,
// ReviewStateType): GitHub's APPROVE is their APPROVED.
const (
	giteaComment        = "COMMENT"
	giteaRequestChanges = "REQUEST_CHANGES"
	giteaApproved       = "APPROVED"
)

// GiteaReview is the body of
// POST /repos/{owner}/{repo}/pulls/{index}/reviews (CreatePullReviewOptions),
// which Forgejo and Gitea share.
type GiteaReview struct {
	Event    string         `json:"event"`
	Body     string         `json:"body"`
	CommitID string         `json:"commit_id,omitempty"`
	Comments []GiteaComment `json:"comments"`
}

// GiteaComment is one line comment of a review
// (CreatePullReviewComment): new_position is a line of the new file,
// old_position one of the old file, the other 0. It holds one line.
type GiteaComment struct {
	Path        string `json:"path"`
	Body        string `json:"body"`
	OldPosition int    `json:"old_position"`
	NewPosition int    `json:"new_position"`
}

// Narrowed is a comment a forge cannot hold as written, and what the
// export made of it: said on standard error.
type Narrowed struct {
	Comment string
	Why     string
}

// Gitea returns the review payload and the comments narrowed to fit it:
// a range goes on its last line, the range named in the body's first line
// ("Lines 10–14:"), which an import reads back from a body with the
// marker. Replies are quoted, or dropped: Gitea's API takes no reply.
func (p *Plan) Gitea(opts Options) (GiteaReview, []Narrowed) {
	rv := GiteaReview{
		Event:    giteaEvent(opts.Event),
		Body:     p.body(!opts.NoMarker),
		CommitID: opts.CommitID,
		Comments: make([]GiteaComment, 0, len(p.placed)),
	}
	replies := opts.Replies
	if replies == ThreadReplies {
		replies = QuoteReplies
	}
	var narrowed []Narrowed
	for i := range p.placed {
		pc := &p.placed[i]
		first, last := pc.ends()
		body := commentBody(pc.c, replies, !opts.NoMarker)
		if pc.first != pc.last {
			a, b := first.Number(pc.side), last.Number(pc.side)
			body = joinBody(rangeLines(a, b), body)
			narrowed = append(narrowed, Narrowed{Comment: commentName(pc),
				Why: "Gitea holds one line: posted on " + pc.side.String() + " " + itoa(b) + ", the range's last line, the range named in its body"})
		}
		gc := GiteaComment{Path: pc.path(), Body: body}
		if pc.side == sideLeft {
			gc.OldPosition = last.Number(pc.side)
		} else {
			gc.NewPosition = last.Number(pc.side)
		}
		rv.Comments = append(rv.Comments, gc)
	}
	return rv, narrowed
}

// giteaEvent is Gitea's name for a GitHub review event.
func giteaEvent(event string) string {
	switch event {
	case EventApprove:
		return giteaApproved
	case EventRequestChanges:
		return giteaRequestChanges
	}
	return giteaComment
}

func giteaForge() Forge {
	return Forge{
		Name: "gitea", Title: "Forgejo / Gitea",
		Threads: "replies quoted", Ranges: "no: the last line, the range named in the body", Sides: "`old_position`, `new_position`",
		Open: "no `resolver`", Resolved: "a `resolver`", Declined: "its review `dismissed`",
		Stale:       "its review's `commit_id` is not `--head` and its line changed since (`--repo`), or reads otherwise; unknown, said, when neither can tell",
		ExportFlags: []string{"event", "commit"},
		Replies:     []string{"quote", "drop"}, UnthreadedWhy: "Gitea's API takes no reply to a review comment",
		Export: func(p *Plan, opts Options) (any, []string, error) {
			rv, narrowed := p.Gitea(opts)
			var notes []string
			for _, n := range narrowed {
				notes = append(notes, n.Comment+": "+n.Why)
			}
			// Gitea 1.25.4 answers 422 "review event REQUEST_CHANGES
			// requires a body" even with comments, and "review event
			// COMMENT requires a body or a comment" (the recorded
			// answers); APPROVED takes neither.
			if rv.Body == "" && rv.Event != giteaApproved {
				if len(rv.Comments) == 0 {
					return nil, nil, needsBody("Gitea", rv.Event)
				}
				if rv.Event == giteaRequestChanges {
					rv.Body = filledBody(EventRequestChanges, len(rv.Comments), !opts.NoMarker)
					notes = append(notes, filledNote("Gitea", rv.Event))
				}
			}
			return rv, notes, nil
		},
		Listings: []Listing{
			{"comments", "each review's GET …/pulls/N/reviews/ID/comments, concatenated (- for standard input)"},
			{"reviews", "GET …/pulls/N/reviews: the title and summary, dismissals, and the commit each review was made on (without it, whether a comment is stale is unknown)"},
		},
		Head: "the pull request's head commit (GET …/pulls/N: head.sha): a comment made on another commit is mapped to it (--repo), or compared with the line Gitea quotes",
		Repo: true,
		Import: func(l map[string]Input, patch []string, opts ImportOptions) (*Imported, error) {
			comments, err := ReadGiteaComments(l["comments"].Name, l["comments"].Data)
			if err != nil {
				return nil, err
			}
			var reviews []GiteaReviewRecord
			if r, ok := l["reviews"]; ok {
				if reviews, err = ReadGiteaReviews(r.Name, r.Data); err != nil {
					return nil, err
				}
			}
			return importWith(ImportGitea(comments, reviews, patch, opts))
		},
	}
}
