package forge

// GerritReview is the ReviewInput of
// POST /changes/{change-id}/revisions/{revision-id}/review: the message
// and the comments by path.
type GerritReview struct {
	Message  string                     `json:"message,omitempty"`
	Comments map[string][]GerritComment `json:"comments"`
}

// GerritComment is a CommentInput: on line, or on range (line is then
// the range's end line), on the side REVISION (the new file) or PARENT
// (the old one).
type GerritComment struct {
	Line       int          `json:"line"`
	Range      *GerritRange `json:"range,omitempty"`
	Side       string       `json:"side"`
	Message    string       `json:"message"`
	Unresolved bool         `json:"unresolved"`
}

// GerritRange is a CommentRange: lines 1-based, characters 0-based, the
// end character exclusive.
type GerritRange struct {
	StartLine      int `json:"start_line"`
	StartCharacter int `json:"start_character"`
	EndLine        int `json:"end_line"`
	EndCharacter   int `json:"end_character"`
}

// Gerrit's sides.
const (
	gerritRevision = "REVISION"
	gerritParent   = "PARENT"
)

// Gerrit returns the ReviewInput: the title and summary as the review's
// message, each comment unresolved (it asks for something), a range as
// whole lines (from the first line's first character to the end of the
// last). Replies are quoted (or dropped): in_reply_to names a comment by
// the id Gerrit gives it when the review is posted, which a ReviewInput
// cannot know for the comments it creates.
func (p *Plan) Gerrit(opts Options) GerritReview {
	rv := GerritReview{
		Message:  reviewBody(p.Title, p.Summary, !opts.NoMarker),
		Comments: map[string][]GerritComment{},
	}
	replies := opts.Replies
	if replies == ThreadReplies {
		replies = QuoteReplies
	}
	for i := range p.placed {
		pc := &p.placed[i]
		first, last := pc.ends()
		gc := GerritComment{
			Line:       last.Number(pc.side),
			Side:       gerritRevision,
			Message:    commentBody(pc.c, replies, !opts.NoMarker),
			Unresolved: true,
		}
		if pc.side == sideLeft {
			gc.Side = gerritParent
		}
		if pc.first != pc.last {
			gc.Range = &GerritRange{
				StartLine: first.Number(pc.side), EndLine: gc.Line,
				EndCharacter: p.lineWidth(pc, last),
			}
		}
		rv.Comments[pc.path()] = append(rv.Comments[pc.path()], gc)
	}
	return rv
}
