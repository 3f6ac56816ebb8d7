// Package forge turns a review exchange document into the review payloads
// GitHub, GitLab, Gerrit, Forgejo/Gitea, Bitbucket Data Center and Azure
// DevOps accept, and the threads those forges list back into a review
// exchange document. It is pure transforms over bytes and parsed documents: it
// makes no network call and needs no token (gh or glab does the posting
// and the fetching).
//
// Both directions are built on the engine: a comment is exported only
// where internal/anchor resolves it, and an imported comment is orphaned
// where it does not.
package forge

import (
	"strconv"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Replies says what an export does with a comment's replies.
type Replies uint8

const (
	// QuoteReplies quotes them under the comment's body.
	QuoteReplies Replies = iota
	// DropReplies leaves them out.
	DropReplies
	// ThreadReplies posts each as a real reply in the comment's thread,
	// where the forge threads replies in what an export sends (Azure
	// DevOps' thread, Bitbucket's parent): the reply quoted, so that the
	// forge shows whose words the poster posts (replyBody).
	ThreadReplies
)

// Problem is an active comment the forge would refuse: its anchor does
// not resolve, or its snippet is not what the anchor points at.
type Problem struct {
	// Offset is where the diagnostic starts in the document.
	Offset  int
	Comment string // exchange.Comment.Name
	Code    string // orphaned-anchor, snippet-mismatch or schema
	Message string
	// Hint names the fixes the diagnostic offers, "" when it offers none.
	Hint string
}

// LeftOut is a comment an export leaves out, and why.
type LeftOut struct {
	Offset  int // the comment's start in the document
	Comment string
	Why     string
}

// placed is an active comment whose anchor resolves: what every payload is
// built from.
type placed struct {
	c    *exchange.Comment
	file *anchor.FileDiff
	side anchor.Side
	hunk *anchor.Hunk
	// first and last index hunk.Lines: the anchored range's ends, both in
	// side's image.
	first, last int
}

// lines returns the anchored range's first and last diff lines.
func (p *placed) ends() (anchor.DiffLine, anchor.DiffLine) {
	return p.hunk.Lines[p.first], p.hunk.Lines[p.last]
}

// path is the file's path as the forges name it: the new name, or the old
// one of a deleted file.
func (p *placed) path() string { return p.file.DisplayName() }

// lineWidth is the length of line j of pc's hunk in UTF-16 code units,
// the unit of Gerrit's range characters and Azure DevOps' offsets (both
// count as JavaScript does).
func (p *Plan) lineWidth(pc *placed, j int) int {
	n := 0
	for _, r := range pc.file.Content(&p.Doc.Review.Patch, pc.hunk.PatchLine(j)) {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// rangeLines is the visible line a one-line forge's body starts with for
// a range it cannot hold: "Lines 10–14:".
func rangeLines(first, last int) string {
	return "Lines " + strconv.Itoa(first) + "–" + strconv.Itoa(last) + ":"
}

const sideLeft = anchor.Left

func itoa(n int) string { return strconv.Itoa(n) }

// commentName names a placed comment as the notes do.
func commentName(pc *placed) string { return pc.c.Name() }

// HasReplies reports whether a comment to be posted has replies.
func (p *Plan) HasReplies() bool {
	for i := range p.placed {
		if len(p.placed[i].c.Replies) > 0 {
			return true
		}
	}
	return false
}
