// Package branchtest makes git repositories for the tests of the
// staleness banner: commits, a force-push, reviews of their diffs.
package branchtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
)

// Repo is a git repository a test makes.
type Repo struct {
	t    testing.TB
	Root string
}

// NewRepo makes an empty repository.
func NewRepo(t testing.TB) *Repo {
	t.Helper()
	return NewRepoAt(t, t.TempDir())
}

// NewRepoAt makes an empty repository in the directory dir, made when
// absent.
func NewRepoAt(t testing.TB, dir string) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &Repo{t: t, Root: dir}
	r.Git("init", "-q", "-b", "main")
	return r
}

// Git runs git in the repository and returns its output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = r.Root
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Commit writes files (path → text, "" deletes) and commits them.
func (r *Repo) Commit(msg string, files map[string]string) {
	r.t.Helper()
	for p, text := range files {
		full := filepath.Join(r.Root, p)
		if text == "" {
			r.Git("rm", "-q", p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.Git("add", p)
	}
	r.Git("commit", "-q", "-m", msg)
}

// Review is a review of the diff between two commits.
func (r *Repo) Review(from, to string) []byte {
	r.t.Helper()
	diff := r.Git("diff", from, to)
	data, err := anchor.NewReview([]byte(diff), "review", "")
	if err != nil {
		r.t.Fatal(err)
	}
	return data
}
