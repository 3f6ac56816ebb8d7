// Package branch says whether the working tree's branch has moved past a
// review: whether commits after the state the review's patch describes
// touch its files, or whether that state is no longer in the branch's
// history at all (a force-push). The state is read from the patch's
// `index <old>..<new>` lines, the blobs git wrote for each file, and
// found by walking the branch's first-parent history of those files back
// from HEAD: no commit id needs to be recorded in the review, and one
// recorded there could not be trusted anyway.
//
// git is run read-only (`--no-optional-locks`, no command that writes),
// with the review's paths after `--` (never as options) and taken
// literally (`--literal-pathspecs`: a path of "*" or ":(glob)…" in a
// hostile review matches no other file), a bounded
// history (maxCommits) and the caller's context.
package branch

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// maxCommits bounds the history walked back from HEAD.
const maxCommits = 2000

// maxFiles bounds the paths asked about: a review of more files is
// checked on its first maxFiles.
const maxFiles = 500

// File is one file of the patch and the blobs its index line names, ""
// for an absent side (a new or deleted file).
type File struct {
	Old, New      string // paths
	OldBlob, Blob string // abbreviated blob ids
}

// Files are the patch's files with an index line; none when the patch
// is not a git diff.
func Files(p *exchange.Patch, ix *anchor.Index) []File {
	var out []File
	for _, fd := range ix.Files {
		end := fd.Last
		if len(fd.Hunks) > 0 && len(fd.Hunks[0].Lines) > 0 {
			end = fd.Hunks[0].PatchLine(0) - 1
		}
		for i := fd.First; i <= end && i < p.LineCount(); i++ {
			rest, ok := strings.CutPrefix(p.LineText(i), "index ")
			if !ok {
				continue
			}
			ids, _, _ := strings.Cut(rest, " ")
			oldID, newID, ok := strings.Cut(ids, "..")
			if !ok || !isHex(oldID) || !isHex(newID) {
				break
			}
			out = append(out, File{Old: fd.OldName, New: fd.NewName, OldBlob: blob(oldID), Blob: blob(newID)})
			break
		}
		if len(out) == maxFiles {
			break
		}
	}
	return out
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// blob is id, or "" for git's all-zero id of an absent side.
func blob(id string) string {
	if strings.Trim(id, "0") == "" {
		return ""
	}
	return id
}

// Kind is how the branch stands to the review.
type Kind int

const (
	// Unknown: the patch names no blobs, or blobs this repository does
	// not hold: nothing to say.
	Unknown Kind = iota
	// Current: HEAD holds the reviewed state of every file.
	Current
	// Moved: commits after the reviewed state touch the review's files.
	Moved
	// Diverged: the reviewed state is not in HEAD's history, though the
	// repository holds its blobs: the review was made from a commit that
	// is no longer an ancestor of HEAD (a force-push).
	Diverged
)

// State is how the branch stands to a review.
type State struct {
	Kind Kind
	// Commits after the reviewed state that touch the review's files, and
	// Touched, those files (new paths), for Moved.
	Commits int
	Touched []string
	// Files is how many files the review's state was read from.
	Files int
	// Base is the commit whose files are the patch's old side, when found
	// in HEAD's history: the rebase diffs it with HEAD.
	Base string
	// Head is HEAD's commit.
	Head string
}

// Words is the banner: "the branch moved past this review: 3 commits
// touch 5 of its files — rebase". "" when there is nothing to say.
func (s State) Words() string {
	switch s.Kind {
	case Moved:
		verb := "touch"
		if s.Commits == 1 {
			verb = "touches"
		}
		return fmt.Sprintf("the branch moved past this review: %s %s %d of its files — rebase", anchor.Plural(s.Commits, "commit", "commits"), verb, len(s.Touched))
	case Diverged:
		return "the review was made from a commit that is no longer an ancestor of HEAD (a force-push?) — rebase"
	}
	return ""
}

// Git runs git in a directory and returns its standard output.
type Git func(ctx context.Context, dir string, args ...string) ([]byte, error)

// Run is Git by the git on PATH, read-only.
func Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks", "--literal-pathspecs", "-c", "core.quotePath=false"}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// Head is HEAD's commit in dir, or "" outside a repository.
func Head(ctx context.Context, git Git, dir string) string {
	out, err := git(ctx, dir, "rev-parse", "--verify", "-q", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Examine finds how the branch checked out in dir stands to the review
// whose files are files.
func Examine(ctx context.Context, git Git, dir string, files []File) (State, error) {
	st := State{Files: len(files)}
	if len(files) == 0 {
		return st, nil
	}
	st.Head = Head(ctx, git, dir)
	if st.Head == "" {
		return st, nil
	}
	want, was := map[string]string{}, map[string]string{}
	var paths []string
	for _, f := range files {
		if f.New != "" {
			want[f.New] = f.Blob
			paths = append(paths, f.New)
		}
		if f.Old != "" {
			if f.Old != f.New {
				want[f.Old] = "" // renamed away, or deleted
				paths = append(paths, f.Old)
			}
			was[f.Old] = f.OldBlob
		}
		if f.New != "" && f.New != f.Old {
			was[f.New] = ""
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	cur, err := tree(ctx, git, dir, paths)
	if err != nil {
		return st, err
	}
	if holds(cur, want) {
		st.Kind = Current
		return st, nil
	}
	log, err := git(ctx, dir, append([]string{"log", "--first-parent", "--no-renames", "--raw", "--no-abbrev", "--format=%x00%H",
		fmt.Sprintf("-n%d", maxCommits), "HEAD", "--"}, paths...)...)
	if err != nil {
		return st, err
	}
	found := false
	touched := map[string]bool{}
	for _, c := range commits(log) {
		if !found {
			st.Commits++
			for p := range c.changes {
				touched[p] = true
			}
		}
		for p, old := range c.changes {
			cur[p] = old
		}
		if !found && holds(cur, want) {
			found = true
			continue
		}
		if holds(cur, was) {
			st.Base = c.sha + "^" // the state before c: c's first parent
			if found {
				break
			}
		}
	}
	if found {
		st.Kind = Moved
		if !holds(cur, was) {
			st.Base = "" // a match newer than the reviewed state is no base
		}
		for p := range touched {
			st.Touched = append(st.Touched, p)
		}
		slices.Sort(st.Touched)
		return st, nil
	}
	// Not in HEAD's history: a force-push when the repository still holds
	// the reviewed blobs, else a patch of some other history.
	for _, f := range files {
		if f.Blob == "" {
			continue
		}
		if _, err := git(ctx, dir, "cat-file", "-e", f.Blob+"^{blob}"); err != nil {
			return st, nil
		}
	}
	st.Kind = Diverged
	return st, nil
}

// holds reports whether the blobs of state match those want names (a
// prefix: the patch abbreviates them).
func holds(state, want map[string]string) bool {
	for p, w := range want {
		got := state[p]
		if w == "" || got == "" {
			if w != got {
				return false
			}
			continue
		}
		if !strings.HasPrefix(got, w) {
			return false
		}
	}
	return true
}

// tree is the blobs of paths at HEAD ("" where absent).
func tree(ctx context.Context, git Git, dir string, paths []string) (map[string]string, error) {
	out, err := git(ctx, dir, append([]string{"ls-tree", "-z", "--full-tree", "HEAD", "--"}, paths...)...)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, p := range paths {
		m[p] = ""
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		fields := strings.Fields(string(meta))
		if !ok || len(fields) != 3 || fields[1] != "blob" {
			continue
		}
		if _, asked := m[string(path)]; asked {
			m[string(path)] = fields[2]
		}
	}
	return m, nil
}

// commit is one commit of the log and, per path it changes, the blob
// before it ("" when it adds the file).
type commit struct {
	sha     string
	changes map[string]string
}

// commits reads `git log --raw --no-abbrev --format=%x00%H`.
func commits(log []byte) []commit {
	var out []commit
	for _, chunk := range bytes.Split(log, []byte{0}) {
		lines := strings.Split(strings.TrimSpace(string(chunk)), "\n")
		if len(lines) == 0 || lines[0] == "" {
			continue
		}
		c := commit{sha: strings.TrimSpace(lines[0]), changes: map[string]string{}}
		for _, l := range lines[1:] {
			meta, path, ok := strings.Cut(l, "\t")
			f := strings.Fields(meta)
			if !ok || len(f) < 5 || !strings.HasPrefix(f[0], ":") {
				continue
			}
			c.changes[path] = blob(f[2])
		}
		out = append(out, c)
	}
	return out
}

// Diff is the diff from the review's base to HEAD: what a rebase of the
// review takes as its new patch.
func Diff(ctx context.Context, git Git, dir string, st State) ([]byte, error) {
	if st.Base == "" {
		return nil, fmt.Errorf("the review's base is not in the branch's history: rebase it onto a diff of your own")
	}
	return git(ctx, dir, "diff", "--no-color", "--no-ext-diff", "--full-index", st.Base, "HEAD")
}
