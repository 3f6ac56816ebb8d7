package branch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
)

// TestHeadStamp: HEAD's stamp, read from the repository's files, changes
// with a commit, a checkout of a detached HEAD and a pack of the refs,
// is the same while nothing moves, is read through a linked worktree's
// .git file, and is "" outside a repository.
func TestHeadStamp(t *testing.T) {
	stamp := func(dir string) string {
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		return HeadStamp(root, dir)
	}
	r := branchtest.NewRepo(t)
	r.Commit("one", map[string]string{"a.txt": "1\n"})
	first := stamp(r.Root)
	if first == "" || stamp(r.Root) != first {
		t.Fatalf("got %q, then %q: want one stamp while nothing moves", first, stamp(r.Root))
	}
	r.Commit("two", map[string]string{"a.txt": "2\n"})
	second := stamp(r.Root)
	if second == first {
		t.Errorf("a commit left the stamp as it was")
	}
	r.Git("pack-refs", "--all")
	if packed := stamp(r.Root); packed == second {
		t.Errorf("packing the refs left the stamp as it was")
	}
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "--detach", wt, "HEAD~1")
	if got := stamp(wt); !strings.HasPrefix(got, strings.TrimSpace(r.Git("rev-parse", "HEAD~1"))) {
		t.Errorf("a detached worktree: got %q, want HEAD~1's id", got)
	}
	if got := stamp(t.TempDir()); got != "" {
		t.Errorf("outside a repository: got %q", got)
	}
}
