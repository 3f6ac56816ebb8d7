package forge

// GitHub's review events (the create-review request's event enum).
const (
	EventComment        = "COMMENT"
	EventRequestChanges = "REQUEST_CHANGES"
	EventApprove        = "APPROVE"
)

// GitHubOptions tunes the GitHub payload.
type GitHubOptions struct {
	Event    string // EventComment when empty
	CommitID string // left out when empty: GitHub takes the pull request's head
	Replies  Replies
	NoMarker bool
}

// GitHubReview is the body of POST /repos/{owner}/{repo}/pulls/{n}/reviews.
// Fields are in the order of GitHub's request schema.
type GitHubReview struct {
	CommitID string          `json:"commit_id,omitempty"`
	Body     string          `json:"body,omitempty"`
	Event    string          `json:"event"`
	Comments []GitHubComment `json:"comments"`
}

// GitHubComment is one entry of a review's comments: a line comment when
// StartLine is 0, else a multi-line one from StartLine on StartSide to
// Line on Side.
type GitHubComment struct {
	Path      string `json:"path"`
	Body      string `json:"body"`
	Line      int    `json:"line"`
	Side      string `json:"side"`
	StartLine int    `json:"start_line,omitempty"`
	StartSide string `json:"start_side,omitempty"`
}

// GitHub returns the review payload: every placed comment on its image's
// line numbers, which are GitHub's (side picks the image, line is
// 1-based in it).
func (p *Plan) GitHub(opts GitHubOptions) GitHubReview {
	rv := GitHubReview{
		CommitID: opts.CommitID,
		Body:     p.body(!opts.NoMarker),
		Event:    opts.Event,
		Comments: make([]GitHubComment, 0, len(p.placed)),
	}
	if rv.Event == "" {
		rv.Event = EventComment
	}
	for i := range p.placed {
		pc := &p.placed[i]
		first, last := pc.ends()
		gc := GitHubComment{
			Path: pc.path(),
			Body: commentBody(pc.c, opts.Replies, !opts.NoMarker),
			Line: last.Number(pc.side),
			Side: pc.side.String(),
		}
		if pc.first != pc.last {
			gc.StartLine, gc.StartSide = first.Number(pc.side), pc.side.String()
		}
		rv.Comments = append(rv.Comments, gc)
	}
	return rv
}
