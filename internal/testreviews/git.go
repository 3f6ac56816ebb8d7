package testreviews

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitRepo is a repository a test makes with git.
type GitRepo struct {
	Dir string
	t   testing.TB
}

// NewGitRepo makes a repository in a new directory whose first commit
// holds files; it skips the test where git is missing.
func NewGitRepo(t testing.TB, files map[string]string) *GitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	r := &GitRepo{Dir: t.TempDir(), t: t}
	r.Git("init", "-q", "-b", "main")
	r.Commit("base", files)
	return r
}

// Git runs git in the repository and returns its output.
func (r *GitRepo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Deleted, as a file's text in Commit, deletes the file.
const Deleted = "\x00deleted"

// Commit writes files (Deleted deletes one) and commits them.
func (r *GitRepo) Commit(msg string, files map[string]string) string {
	r.t.Helper()
	for name, text := range files {
		p := filepath.Join(r.Dir, filepath.FromSlash(name))
		if text == Deleted {
			if err := os.Remove(p); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return strings.TrimSpace(r.Git("rev-parse", "HEAD"))
}

// Diff is git's diff between two revisions.
func (r *GitRepo) Diff(from, to string) string {
	r.t.Helper()
	return r.Git("diff", "--no-color", "--no-ext-diff", from, to)
}
