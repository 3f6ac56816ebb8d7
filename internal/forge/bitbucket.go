package forge

import "github.com/leanreview/lreview-lsp/internal/anchor"

// BitbucketComment is the body of one
// POST /rest/api/latest/projects/{projectKey}/repos/{repositorySlug}/pull-requests/{pullRequestId}/comments
// on Bitbucket Data Center: a comment on the pull request (no anchor), on
// a line (anchor), or a reply (parent).
type BitbucketComment struct {
	Text   string           `json:"text"`
	Parent *BitbucketParent `json:"parent,omitempty"`
	Anchor *BitbucketAnchor `json:"anchor,omitempty"`
}

// BitbucketParent names the comment a reply answers. An export cannot
// know the id Bitbucket gives a comment: its replies carry id 0, which
// the poster sets to the id Bitbucket answered for the comment before
// them (the README's loop does).
type BitbucketParent struct {
	ID int64 `json:"id"`
}

// BitbucketAnchor places a line comment: path (the new name; srcPath the
// old one of a renamed file), line in the file fileType names (FROM the
// old one, TO the new one), lineType the line's kind in the diff. A range
// (Bitbucket 8.x and later) is multilineMarker's start line to line.
type BitbucketAnchor struct {
	Path            string              `json:"path"`
	SrcPath         string              `json:"srcPath,omitempty"`
	Line            int                 `json:"line"`
	LineType        string              `json:"lineType"`
	FileType        string              `json:"fileType"`
	DiffType        string              `json:"diffType"`
	MultilineMarker *BitbucketMultiline `json:"multilineMarker,omitempty"`
}

// BitbucketMultiline is a range's first line, in the anchor's file.
type BitbucketMultiline struct {
	StartLine     int    `json:"startLine"`
	StartLineType string `json:"startLineType"`
}

// Bitbucket returns the comment requests in the order they are posted:
// the title and summary as a comment on the pull request, then each
// comment followed by its replies (real replies by default, with a
// parent to set; quoted or dropped when opts say so).
func (p *Plan) Bitbucket(opts Options) []BitbucketComment {
	out := make([]BitbucketComment, 0, len(p.placed)+1)
	if body := p.body(!opts.NoMarker); body != "" {
		out = append(out, BitbucketComment{Text: body})
	}
	for i := range p.placed {
		pc := &p.placed[i]
		first, last := pc.ends()
		a := &BitbucketAnchor{
			Path:     pc.file.DisplayName(),
			Line:     last.Number(pc.side),
			LineType: bitbucketLineType(last),
			FileType: "TO",
			DiffType: "EFFECTIVE",
		}
		if pc.side == anchor.Left {
			a.FileType = "FROM"
		}
		if pc.file.OldName != "" && pc.file.NewName != "" && pc.file.OldName != pc.file.NewName {
			a.SrcPath = pc.file.OldName
		}
		if pc.first != pc.last {
			a.MultilineMarker = &BitbucketMultiline{StartLine: first.Number(pc.side), StartLineType: bitbucketLineType(first)}
		}
		out = append(out, BitbucketComment{Text: commentBody(pc.c, opts.Replies, !opts.NoMarker), Anchor: a})
		if opts.Replies == ThreadReplies {
			for _, r := range pc.c.Replies {
				out = append(out, BitbucketComment{Text: replyBody(r, !opts.NoMarker), Parent: &BitbucketParent{}})
			}
		}
	}
	return out
}

func bitbucketLineType(l anchor.DiffLine) string {
	switch l.Kind() {
	case anchor.Added:
		return "ADDED"
	case anchor.Removed:
		return "REMOVED"
	}
	return "CONTEXT"
}

func bitbucketForge() Forge {
	return Forge{
		Name: "bitbucket", Title: "Bitbucket DC",
		Threads: "real replies (`parent`)", Ranges: "yes (`multilineMarker`, 8.x and later)", Sides: "`FROM`, `TO`",
		Open: "`OPEN`", Resolved: "`threadResolved`, or a task `RESOLVED`", Declined: "—", Stale: "`commentAnchor.orphaned`",
		Replies: []string{"thread", "quote", "drop"},
		Export: func(p *Plan, opts Options) (any, []string, error) {
			cs := p.Bitbucket(opts)
			if len(cs) == 0 {
				return nil, nil, errNothingToPost
			}
			var notes []string
			if opts.Replies == ThreadReplies && p.HasReplies() {
				notes = append(notes, "each reply's parent.id is 0: set it to the id Bitbucket answers for the comment before it (the README's loop does)")
			}
			return cs, notes, nil
		},
		Listings:    []Listing{{"activities", "the pages of GET …/pull-requests/N/activities, concatenated (- for standard input)"}},
		HeadlessWhy: "Bitbucket says itself which comments are outdated (orphaned anchors)",
		Import: func(l map[string]Input, patch []string, opts ImportOptions) (*Imported, error) {
			as, err := ReadBitbucketActivities(l["activities"].Name, l["activities"].Data)
			if err != nil {
				return nil, err
			}
			return importWith(ImportBitbucket(as, patch, opts))
		},
	}
}
