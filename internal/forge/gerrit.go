package forge

import (
	"cmp"
	"fmt"
	"strings"
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
				EndCharacter: p.lineWidth(pc, pc.last),
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

// gerritLimit is Gerrit's default change.commentSizeLimit (16 KiB,
// counted in characters, roughly); a server may set another.
var gerritLimit = bodyLimit{forge: "Gerrit", max: 16 << 10, where: "its default change.commentSizeLimit"}

// gerritUnthreadedWhy says why Gerrit's replies cannot come in the review
// that creates their comments.
const gerritUnthreadedWhy = "Gerrit's in_reply_to names the id Gerrit gives a comment once posted, which a review's request cannot know (--replies thread, then --replies-to, posts them as Gerrit's own in a second request)"

func gerritForge() Forge {
	return Forge{
		Name: "gerrit", Title: "Gerrit",
		Threads: "replies quoted, or Gerrit's own in a second review (`--replies-to`)", Ranges: "yes (whole lines)", Sides: "`REVISION`, `PARENT`",
		Open: "latest comment `unresolved: true`", Resolved: "latest comment `unresolved: false` (Done, Ack)", Declined: "—",
		Stale:       "`--head` is neither the comment's `patch_set` nor its `commit_id`",
		ExportFlags: []string{"replies-to"},
		Replies:     []string{"quote", "drop", "thread"}, UnthreadedWhy: gerritUnthreadedWhy,
		Export: func(p *Plan, opts Options) (any, []string, error) {
			var rv GerritReview
			var notes []string
			if opts.RepliesTo != nil {
				posted, err := ReadGerritComments(opts.RepliesTo.Name, opts.RepliesTo.Data)
				if err != nil {
					return nil, nil, err
				}
				var missing []string
				if rv, missing = p.GerritReplies(posted, opts.NoMarker); len(missing) > 0 {
					return nil, nil, fmt.Errorf("%s: no posted comment carries the marker of %s: post the review first (export --to gerrit --replies thread), with its markers",
						opts.RepliesTo.Name, strings.Join(missing, ", "))
				}
			} else {
				rv = p.Gerrit(opts)
				switch {
				case opts.Replies == QuoteReplies && p.HasReplies():
					notes = append(notes, "replies quoted under their comments: "+gerritUnthreadedWhy)
				case opts.Replies == ThreadReplies && p.HasReplies():
					notes = append(notes, "the replies are not in this review: once it is posted, export --to gerrit --replies-to with the comments Gerrit lists prints them")
				}
			}
			if rv.Message == "" && len(rv.Comments) == 0 {
				return nil, nil, errNothingToPost
			}
			if err := p.gerritLimits(rv, opts.RepliesTo != nil); err != nil {
				return nil, nil, err
			}
			return rv, notes, nil
		},
		Listings: []Listing{
			{"comments", "GET /changes/ID/comments (- for standard input)"},
			{"messages", "optional: GET /changes/ID/messages, for the title and summary"},
		},
		Head: "the current patch set (number or commit): a comment on another is imported stale",
		Import: func(l map[string]Input, patch []string, opts ImportOptions) (*Imported, error) {
			comments, err := ReadGerritComments(l["comments"].Name, l["comments"].Data)
			if err != nil {
				return nil, err
			}
			var messages []GerritMessage
			if m, ok := l["messages"]; ok {
				if messages, err = ReadGerritMessages(m.Name, m.Data); err != nil {
					return nil, err
				}
			}
			return importWith(ImportGerrit(comments, messages, patch, opts))
		},
	}
}

// gerritLimits refuses a comment over Gerrit's limit, named by its id
// (Gerrit's first review holds the placed comments in order, by path) or,
// in the replies' review, by its path.
func (p *Plan) gerritLimits(rv GerritReview, replies bool) error {
	if !replies {
		next := map[string]int{}
		for i := range p.placed {
			pc := &p.placed[i]
			k := next[pc.path()]
			next[pc.path()]++
			if cs := rv.Comments[pc.path()]; k < len(cs) {
				if err := gerritLimit.check(pc.c.Name(), cs[k].Message); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for path, cs := range rv.Comments {
		for k, c := range cs {
			if err := gerritLimit.check(fmt.Sprintf("%s's reply %d", path, k+1), c.Message); err != nil {
				return err
			}
		}
	}
	return nil
}
