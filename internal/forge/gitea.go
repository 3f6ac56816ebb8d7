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
