package agent

import (
	"path/filepath"

	"github.com/leanreview/lreview-lsp/internal/filewrite"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// notReview refuses a file that is not a review exchange file at all (not
// a JSON object, or an object with none of the format's members): one
// error saying so and how to start one, where a check would list a
// hundred syntax errors of a file that was never meant to be a review.
func notReview(r *review) error {
	root := r.doc.Root
	if root != nil && root.Kind == exchange.KindObject {
		for _, key := range []string{"leanreview_review", "patch", "comments"} {
			if root.Member(key) != nil {
				return nil
			}
		}
	}
	return argError("file", "%s is not a review exchange file (a JSON object with leanreview_review, patch and comments): to start a review of a diff, use lreview_new", r.name)
}

// makeDirs creates the missing directories of rel, a new review's path
// relative to the root, through the root: os.Root refuses to leave it by
// ".." or a symbolic link.
func (s *server) makeDirs(member, rel string) error {
	dir := filepath.Dir(rel)
	if dir == "." {
		return nil
	}
	if err := filewrite.MkdirAllIn(s.files, dir); err != nil {
		return s.fileError(member, rel, err)
	}
	return nil
}
