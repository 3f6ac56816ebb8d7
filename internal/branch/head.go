package branch

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxRefFile bounds a ref file read: a commit id and a newline.
const maxRefFile = 4096

// HeadStamp is what HEAD is now in the repository whose working tree is
// files (dir, its absolute name), read from the repository's files
// without running git: HEAD's text, the text of the ref it names, and
// packed-refs' size and time (where a ref that has no file of its own
// is). It changes when HEAD moves: a commit, a reset, a checkout, a
// fetch of the ref. "" when dir holds no repository.
func HeadStamp(files *os.Root, dir string) string {
	gitdir, err := gitDir(files, dir)
	if err != nil {
		return ""
	}
	defer gitdir.Close()
	head := readSmall(gitdir, "HEAD")
	if head == "" {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(head), "ref: ")
	if !ok {
		return head // detached
	}
	common := gitdir
	if c := strings.TrimSpace(readSmall(gitdir, "commondir")); c != "" {
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir.Name(), c)
		}
		if r, err := os.OpenRoot(c); err == nil {
			defer r.Close()
			common = r
		}
	}
	stamp := head
	if fs.ValidPath(ref) {
		stamp += "\x00" + readSmall(common, ref)
	}
	if fi, err := common.Stat("packed-refs"); err == nil {
		stamp += fmt.Sprintf("\x00%d %d", fi.Size(), fi.ModTime().UnixNano())
	}
	return stamp
}

// gitDir opens the repository's directory: .git, or the directory a
// .git file names (a worktree's, a submodule's).
func gitDir(files *os.Root, dir string) (*os.Root, error) {
	fi, err := files.Lstat(".git")
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return files.OpenRoot(".git")
	}
	p, ok := strings.CutPrefix(strings.TrimSpace(readSmall(files, ".git")), "gitdir:")
	if !ok {
		return nil, fmt.Errorf("%s/.git: not a gitdir link", dir)
	}
	p = strings.TrimSpace(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return os.OpenRoot(p)
}

// readSmall is the file name of root as text, "" when it cannot be read
// or is larger than a ref file may be.
func readSmall(root *os.Root, name string) string {
	f, err := root.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRefFile+1))
	if err != nil || len(data) > maxRefFile {
		return ""
	}
	return string(data)
}
