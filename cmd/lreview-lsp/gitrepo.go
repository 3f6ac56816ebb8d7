package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

// gitRepo is the repository --repo names, read with git: where import
// maps a Gitea comment's lines from the commit it was made on to the
// head (forge.Revisions), and export checks the commit a review is posted
// on. It only reads: the names it passes come from forge listings and
// reviews, so each commit must look like one and each path is literal.
type gitRepo struct{ dir string }

// commitName is what a commit given to git may look like: hex, abbreviated
// or whole (SHA-1 or SHA-256), never an option or a revision expression.
var commitName = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

func (g gitRepo) git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"--literal-pathspecs", "-C", g.dir, "-c", "core.fsmonitor=false"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git in %s: %s", g.dir, msg)
	}
	return out, nil
}

// Diff is git diff -U0 FROM TO -- PATH.
func (g gitRepo) Diff(from, to, path string) ([]byte, error) {
	for _, c := range []string{from, to} {
		if !commitName.MatchString(c) {
			return nil, fmt.Errorf("%q is not a commit's name", c)
		}
	}
	return g.git("diff", "--no-ext-diff", "--no-textconv", "--no-color", "--no-renames", "-U0", from, to, "--", path)
}

// hasCommit reports whether the repository has the commit.
func (g gitRepo) hasCommit(c string) bool {
	if !commitName.MatchString(c) {
		return false
	}
	_, err := g.git("cat-file", "-e", c+"^{commit}")
	return err == nil
}

// blobs returns the blob each path is at commit c (git ls-tree), by path.
func (g gitRepo) blobs(c string, paths []string) (map[string]string, error) {
	if !commitName.MatchString(c) {
		return nil, fmt.Errorf("%q is not a commit's name", c)
	}
	out, err := g.git(append([]string{"ls-tree", "-z", "--full-tree", c, "--"}, paths...)...)
	if err != nil {
		return nil, err
	}
	got := map[string]string{}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 {
			got[path] = f[2]
		}
	}
	return got, nil
}

// patchBlobs reads the new blob a git patch names for each file it keeps
// (its index line), by new path.
func patchBlobs(lines func(yield func(string) bool)) map[string]string {
	out := map[string]string{}
	var blob string
	for l := range lines {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			blob = ""
		case strings.HasPrefix(l, "index "):
			if _, after, ok := strings.Cut(l, ".."); ok {
				blob, _, _ = strings.Cut(after, " ")
			}
		case strings.HasPrefix(l, "+++ b/") && blob != "" && strings.Trim(blob, "0") != "":
			out[strings.TrimPrefix(l, "+++ b/")] = blob
			blob = ""
		}
	}
	return out
}

// commitWarnings says what is wrong with posting a review of a patch on
// commit c, as far as the repository tells: a commit it does not have
// (Gitea answers 500 and keeps a pending review), or files the patch
// shows otherwise than c holds them.
func (g gitRepo) commitWarnings(c string, lines func(yield func(string) bool)) []string {
	if !g.hasCommit(c) {
		return []string{fmt.Sprintf("commit %s is not in %s: if the forge does not have it either, it refuses the review (Gitea answers 500 and leaves a pending review that blocks the next ones until it is deleted; see the README)", c, g.dir)}
	}
	want := patchBlobs(lines)
	if len(want) == 0 {
		return nil
	}
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	got, err := g.blobs(c, paths)
	if err != nil {
		return []string{err.Error()}
	}
	var differ []string
	for _, p := range paths {
		if !strings.HasPrefix(got[p], want[p]) {
			differ = append(differ, p)
		}
	}
	if len(differ) == 0 {
		return nil
	}
	slices.Sort(differ)
	return []string{fmt.Sprintf("commit %s is not the patch's head: at it, %s %s not what the patch shows (post on the pull request's head, or rebase the review onto its diff)",
		c, strings.Join(differ, ", "), isAre(len(differ)))}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
