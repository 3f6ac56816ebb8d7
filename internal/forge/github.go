package forge

// GitHub's review events (the create-review request's event enum).
const (
	EventComment        = "COMMENT"
	EventRequestChanges = "REQUEST_CHANGES"
	EventApprove        = "APPROVE"
)

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
func (p *Plan) GitHub(opts Options) GitHubReview {
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

// githubLimit is GitHub's limit on a body ("is too long (maximum is
// 65536 characters)", its answer to a longer one).
var githubLimit = bodyLimit{forge: "GitHub", max: 65536, where: "its 422 answer says so"}

func githubForge() Forge {
	return Forge{
		Name: "github", Title: "GitHub",
		Threads: "replies quoted", Ranges: "yes", Sides: "LEFT, RIGHT",
		Open: "any thread", Resolved: "— (the REST listing has no resolution)", Declined: "—", Stale: "`line` null (outdated)",
		ExportFlags: []string{"event", "commit"},
		Replies:     []string{"quote", "drop"}, UnthreadedWhy: "the review request takes no reply",
		Export: func(p *Plan, opts Options) (any, []string, error) {
			rv := p.GitHub(opts)
			var notes []string
			// The create-review body is "Required when using
			// REQUEST_CHANGES or COMMENT for the event parameter".
			if rv.Body == "" && rv.Event != EventApprove {
				if len(rv.Comments) == 0 {
					return nil, nil, needsBody("GitHub", rv.Event)
				}
				rv.Body = filledBody(rv.Event, len(rv.Comments), !opts.NoMarker)
				notes = append(notes, filledNote("GitHub", rv.Event))
			}
			if err := githubLimit.check("the review", rv.Body); err != nil {
				return nil, nil, err
			}
			for i, c := range rv.Comments {
				if err := githubLimit.check(p.placed[i].c.Name(), c.Body); err != nil {
					return nil, nil, err
				}
			}
			return rv, notes, nil
		},
		Listings: []Listing{
			{"comments", "gh api repos/OWNER/REPO/pulls/N/comments --paginate (- for standard input)"},
			{"reviews", "optional: gh api repos/OWNER/REPO/pulls/N/reviews --paginate, for the title and summary"},
		},
		HeadlessWhy: "GitHub says itself which comments are outdated (line null)",
		Import: func(l map[string]Input, patch []string, opts ImportOptions) (*Imported, error) {
			comments, err := ReadGitHubComments(l["comments"].Name, l["comments"].Data)
			if err != nil {
				return nil, err
			}
			var reviews []GitHubReviewRecord
			if r, ok := l["reviews"]; ok {
				if reviews, err = ReadGitHubReviews(r.Name, r.Data); err != nil {
					return nil, err
				}
			}
			return importWith(ImportGitHub(comments, reviews, patch, opts))
		},
	}
}
