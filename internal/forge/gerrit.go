package forge

import (
	"cmp"
)

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
	InReplyTo  string       `json:"in_reply_to,omitempty"`
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
// last). Replies are quoted, dropped, or with ThreadReplies left for a
// second ReviewInput (GerritReplies): in_reply_to names a comment by the
// id Gerrit gives it when the review is posted, which a ReviewInput
// cannot know for the comments it creates.
func (p *Plan) Gerrit(opts Options) GerritReview {
	rv := GerritReview{
		Message:  p.body(!opts.NoMarker),
		Comments: map[string][]GerritComment{},
	}
	replies := opts.Replies
	if replies == ThreadReplies {
		replies = DropReplies // posted by GerritReplies once Gerrit has ids
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

// GerritReplies returns the second ReviewInput of a review whose replies
// are posted as Gerrit's own: each reply in_reply_to the comment it
// answers, found in posted (GET /changes/{id}/comments after the first
// ReviewInput) by the marker its message ends with, on that comment's
// path, side and lines. missing names the comments with replies that
// posted does not hold: the first ReviewInput was not posted, or
// without markers.
func (p *Plan) GerritReplies(posted []GerritCommentInfo, noMarker bool) (rv GerritReview, missing []string) {
	byMarker := map[string]*GerritCommentInfo{}
	for i := range posted {
		if _, id, ok := cutMarker(lfText(posted[i].Message)); ok && byMarker[id] == nil {
			byMarker[id] = &posted[i]
		}
	}
	rv.Comments = map[string][]GerritComment{}
	for i := range p.placed {
		c := p.placed[i].c
		if len(c.Replies) == 0 {
			continue
		}
		parent := byMarker[c.ID]
		if c.ID == "" || parent == nil {
			missing = append(missing, c.Name())
			continue
		}
		for _, r := range c.Replies {
			gc := GerritComment{Line: parent.Line, Range: parent.Range, Side: cmp.Or(parent.Side, gerritRevision),
				InReplyTo: parent.ID, Message: replyBody(r, !noMarker), Unresolved: true}
			rv.Comments[parent.Path] = append(rv.Comments[parent.Path], gc)
		}
	}
	return rv, missing
}
