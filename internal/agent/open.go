package agent

import (
	"context"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// openReview is the opening of every tool that may write the review file
// named file: when it writes, it waits for the calls queued on the file
// before it (a preview reads without waiting), then reads the file as a
// tool that edits it must (readReview, strict). The caller defers
// release, which ends the wait; on an error nothing is held.
func (s *server) openReview(ctx context.Context, file string, write bool) (r *review, release func(), err error) {
	release = func() {}
	if write {
		if release, err = s.queued(ctx, "file", file); err != nil {
			return nil, nil, err
		}
	}
	if r, err = s.readReview("file", file, true); err != nil {
		release()
		return nil, nil, err
	}
	return r, release, nil
}

// openComment opens the review ref names to write it (openReview) and
// finds the comment ref names there (findComment).
func (s *server) openComment(ctx context.Context, ref CommentRef) (*review, *exchange.Comment, func(), error) {
	r, release, err := s.openReview(ctx, ref.File, true)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := findComment(r, ref.ID)
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	return r, c, release, nil
}
