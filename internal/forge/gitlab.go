package forge

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// GitLabDiscussion is the body of one
// POST /projects/:id/merge_requests/:iid/discussions: a diff thread, or
// with no position a thread on the merge request itself (the summary).
type GitLabDiscussion struct {
	Body     string          `json:"body"`
	Position *GitLabPosition `json:"position,omitempty"`
}

// GitLabPosition places a diff thread. A removed line has OldLine only,
// an added one NewLine only, a context line both.
type GitLabPosition struct {
	BaseSHA      string           `json:"base_sha"`
	HeadSHA      string           `json:"head_sha"`
	StartSHA     string           `json:"start_sha"`
	PositionType string           `json:"position_type"`
	NewPath      string           `json:"new_path"`
	OldPath      string           `json:"old_path"`
	NewLine      int              `json:"new_line,omitempty"`
	OldLine      int              `json:"old_line,omitempty"`
	LineRange    *GitLabLineRange `json:"line_range,omitempty"`
}

// GitLabLineRange is a multi-line thread's first and last lines.
type GitLabLineRange struct {
	Start GitLabRangeEnd `json:"start"`
	End   GitLabRangeEnd `json:"end"`
}

// GitLabRangeEnd is one end of a line range: its line code, its type
// ("new" for an added line, else "old") and its numbers.
type GitLabRangeEnd struct {
	LineCode string `json:"line_code"`
	Type     string `json:"type"`
	OldLine  int    `json:"old_line,omitempty"`
	NewLine  int    `json:"new_line,omitempty"`
}

// GitLab returns the discussion payloads: the review's title and summary
// as a thread of their own first, when it has either, then one diff
// thread per placed comment.
func (p *Plan) GitLab(opts Options) []GitLabDiscussion {
	out := make([]GitLabDiscussion, 0, len(p.placed)+1)
	if body := p.body(!opts.NoMarker); body != "" {
		out = append(out, GitLabDiscussion{Body: body})
	}
	for i := range p.placed {
		pc := &p.placed[i]
		first, last := pc.ends()
		pos := &GitLabPosition{
			BaseSHA: opts.BaseSHA, HeadSHA: opts.HeadSHA, StartSHA: opts.StartSHA,
			PositionType: "text",
			// An added or deleted file has one name; GitLab wants it in both.
			NewPath: pc.file.DisplayName(),
			OldPath: pc.file.OldName,
		}
		if pos.OldPath == "" {
			pos.OldPath = pos.NewPath
		}
		// A range's own numbers are its last line's, as GitHub's line is.
		pos.OldLine, pos.NewLine = gitlabLines(last)
		if pc.first != pc.last {
			codes := lineCodes(pc.file.DisplayName(), pc.hunk)
			pos.LineRange = &GitLabLineRange{
				Start: rangeEnd(first, codes[pc.first]),
				End:   rangeEnd(last, codes[pc.last]),
			}
		}
		out = append(out, GitLabDiscussion{Body: commentBody(pc.c, opts.Replies, !opts.NoMarker), Position: pos})
	}
	return out
}

// gitlabLines returns the numbers GitLab wants for a line: old for a
// removed line, new for an added one, both for context.
func gitlabLines(l anchor.DiffLine) (old, new int) {
	switch l.Kind() {
	case anchor.Removed:
		return int(l.Old), 0
	case anchor.Added:
		return 0, int(l.New)
	}
	return int(l.Old), int(l.New)
}

func rangeEnd(l anchor.DiffLine, code string) GitLabRangeEnd {
	e := GitLabRangeEnd{LineCode: code, Type: "old"}
	if l.Kind() == anchor.Added {
		e.Type = "new"
	}
	e.OldLine, e.NewLine = gitlabLines(l)
	return e
}

// lineCodes returns the line code of each line of h, as GitLab's diff
// parser numbers it: "<sha1 of path>_<old>_<new>", where a line of one
// image carries the other image's counter, the number of that image's
// next line (a removed line at old 33 before new 34 is "…_33_34").
func lineCodes(path string, h *anchor.Hunk) []string {
	sum := sha1.Sum([]byte(path))
	prefix := hex.EncodeToString(sum[:])
	codes := make([]string, len(h.Lines))
	old, new := h.OldStart, h.NewStart
	for i, l := range h.Lines {
		codes[i] = fmt.Sprintf("%s_%d_%d", prefix, old, new)
		switch l.Kind() {
		case anchor.Context:
			old, new = old+1, new+1
		case anchor.Added:
			new++
		case anchor.Removed:
			old++
		}
	}
	return codes
}

// gitlabLimit is GitLab's limit on a note (its documented maximum).
var gitlabLimit = bodyLimit{forge: "GitLab", max: 1_000_000, where: "a note's documented maximum"}

func gitlabForge() Forge {
	return Forge{
		Name: "gitlab", Title: "GitLab",
		Threads: "replies quoted", Ranges: "yes (`line_range`)", Sides: "old, new, both",
		Open: "`resolved: false`", Resolved: "`resolved: true`", Declined: "—", Stale: "`--head` differs from the position's `head_sha`",
		ExportFlags: []string{"base-sha", "start-sha", "head-sha"},
		Replies:     []string{"quote", "drop"}, UnthreadedWhy: "a discussion's first note is all a request holds",
		Export: func(p *Plan, opts Options) (any, []string, error) {
			for _, n := range []string{opts.BaseSHA, opts.StartSHA, opts.HeadSHA} {
				if n == "" {
					return nil, nil, errors.New("GitLab needs --base-sha, --start-sha and --head-sha (the merge request's latest version)")
				}
			}
			ds := p.GitLab(opts)
			if len(ds) == 0 {
				return nil, nil, errNothingToPost
			}
			placed := 0 // the placed comment the next diff thread is
			for _, d := range ds {
				what := "the summary's discussion"
				if d.Position != nil {
					what = p.placed[placed].c.Name()
					placed++
				}
				if err := gitlabLimit.check(what, d.Body); err != nil {
					return nil, nil, err
				}
			}
			return ds, nil, nil
		},
		Listings: []Listing{{"discussions", "glab api projects/:id/merge_requests/N/discussions --paginate (- for standard input)"}},
		Head:     "the merge request's head commit: a thread placed on another version is imported stale",
		Import: func(l map[string]Input, patch []string, opts ImportOptions) (*Imported, error) {
			ds, err := ReadGitLabDiscussions(l["discussions"].Name, l["discussions"].Data)
			if err != nil {
				return nil, err
			}
			return importWith(ImportGitLab(ds, patch, opts))
		},
	}
}
