// Package forge turns a review exchange document into the review payloads
// GitHub and GitLab accept, and a GitHub pull request's review threads or
// a GitLab merge request's discussions back into a review exchange
// document. It is pure transforms over bytes and parsed documents: it
// makes no network call and needs no token (gh or glab does the posting
// and the fetching).
//
// Both directions are built on the engine: a comment is exported only
// where internal/anchor resolves it, and an imported comment is orphaned
// where it does not.
package forge

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Replies says what an export does with a comment's replies, which no
// forge takes in a review payload.
type Replies uint8

const (
	// QuoteReplies quotes them under the comment's body.
	QuoteReplies Replies = iota
	// DropReplies leaves them out.
	DropReplies
)

// Problem is an active comment the forge would refuse: its anchor does
// not resolve, or its snippet is not what the anchor points at.
type Problem struct {
	// Offset is where the diagnostic starts in the document.
	Offset  int
	Comment string // anchor.CommentName
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
