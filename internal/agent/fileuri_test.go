package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/fileuri"
)

// TestResolveTakesFileURIs: a file named by its file: URI, as MCP clients
// name roots, is the file; outside the root it is refused like a path.
func TestResolveTakesFileURIs(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(root, "a b", "pr.review.json")
	if err := os.MkdirAll(filepath.Dir(inside), 0o755); err != nil {
		t.Fatal(err)
	}
	s := &server{root: root}
	got, err := s.resolve("file", fileuri.FromPath(inside))
	if want := filepath.Join("a b", "pr.review.json"); err != nil || got != want {
		t.Errorf("resolve(%s): got %q, %v; want %q", fileuri.FromPath(inside), got, err, want)
	}
	outside := filepath.Join(filepath.Dir(root), "x.review.json")
	if got, err := s.resolve("file", fileuri.FromPath(outside)); err == nil {
		t.Errorf("resolve(%s): got %q, want refused: outside the root", fileuri.FromPath(outside), got)
	}
}
