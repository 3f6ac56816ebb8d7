package agent

import (
	"os"
	"path/filepath"

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

// makeDirs creates the missing directories of the file member names, a
// new review, inside the root: through os.Root, which refuses to leave
// the root by ".." or a symbolic link. A path outside the root is left to
// resolve, which refuses it.
func (s *server) makeDirs(member, name string) error {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	rel, err := filepath.Rel(s.root, filepath.Dir(p))
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return nil
	}
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return argError(member, "%v", err)
	}
	defer root.Close()
	if err := root.MkdirAll(rel, 0o755); err != nil {
		return argError(member, "cannot create the directory %s inside the server's root: %v", filepath.ToSlash(rel), unwrapPath(err))
	}
	return nil
}
