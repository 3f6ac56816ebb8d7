package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestNoToolWritesMachinery: no tool writes into .git or an editor's
// workspace settings, whether a suggestion, a new review or an edit of a
// review kept there names it, directly or through a link; each refusal
// says why.
func TestNoToolWritesMachinery(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{
		".git/HEAD":          "ref: refs/heads/main\n",
		".git/config":        testreviews.MachineryConfig,
		".vscode/tasks.json": testreviews.MachineryTasks,
		"r.review.json":      testreviews.MachineryReview,
		".git/r.review.json": testreviews.MachineryReview,
		"d.diff":             "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
	})
	if err := os.Symlink(".git", filepath.Join(s.root, "cfg")); err != nil {
		t.Fatal(err)
	}
	why := "make such a change by hand"
	s.refused("lreview_apply_suggestion", map[string]any{"file": "r.review.json", "id": "c1"}, `.git/config: ".git" is git's repository data`, why)
	s.refused("lreview_apply_suggestion", map[string]any{"file": "r.review.json", "id": "c2"}, `".vscode" is VS Code's workspace settings`, why)
	s.refused("lreview_preview", map[string]any{"file": "r.review.json", "change": "apply_suggestion", "id": "c1"}, `".git" is git's repository data`)
	s.refused("lreview_new", map[string]any{"diff_file": "d.diff", "file": ".git/hooks/x.review.json"}, `".git" is git's repository data`, why)
	s.refused("lreview_new", map[string]any{"diff_file": "d.diff", "file": "cfg/y.review.json"}, `".git" is git's repository data`, why)
	s.refused("lreview_new", map[string]any{"diff_file": "d.diff", "file": ".Vscode./z.review.json"}, `".Vscode." is VS Code's workspace settings`)
	s.refused("lreview_reply", map[string]any{"file": ".git/r.review.json", "id": "c1", "body": "ok"}, `".git" is git's repository data`, "nothing written")
	s.refused("lreview_reply", map[string]any{"file": "cfg/r.review.json", "id": "c1", "body": "ok"}, `".git" is git's repository data`, "nothing written")
	for name, want := range map[string]string{".git/config": testreviews.MachineryConfig, ".vscode/tasks.json": testreviews.MachineryTasks, ".git/r.review.json": testreviews.MachineryReview} {
		if got := s.read(name); got != want {
			t.Errorf("%s: got %q, want it untouched", name, got)
		}
	}
	for _, name := range []string{".git/hooks", ".git/y.review.json", ".Vscode."} {
		if _, err := os.Lstat(filepath.Join(s.root, name)); err == nil {
			t.Errorf("%s was created", name)
		}
	}
}
