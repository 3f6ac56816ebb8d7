// Package worktree is the working tree a review was written against: the
// directory of the reviewed repository, its files read safely (nothing
// outside the root, nothing binary, huge or not regular) and cached by
// size and modification time, and where the patch's lines are in them now,
// found with the anchoring engine's drift search (anchor.Text).
//
// Every file is opened through the tree's os.Root (filewrite.OpenIn), a
// descriptor of the root directory held for the tree's life: a path is
// never checked and then opened again by name, so a directory swapped for
// a link to elsewhere while the tree is read leads nowhere outside it.
package worktree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// Tree is one working tree: a root directory and the cache of the files
// read under it. Its methods may be called concurrently.
type Tree struct {
	// dir is the root as it was named, absolute: the files are named
	// under it, as the editor names them. root is dir with symbolic links
	// resolved, and files the directory itself, held open: every file is
	// opened through it.
	dir   string
	root  string
	files *os.Root
	cache *cache
	// reads, in a tree made by Pinned, keeps what Read returned for
	// each path, so that one request stats a file once.
	reads *reads
}

// Pinned returns t as of now: each file is read (stat, and read when
// it changed) the first time the pinned tree is asked for it, then kept as it
// was. A request or a publish takes one, so that it sees each file once
// and at one moment.
func (t *Tree) Pinned() *Tree {
	return &Tree{dir: t.dir, root: t.root, files: t.files, cache: t.cache, reads: &reads{m: map[string]readResult{}}}
}

type reads struct {
	mu sync.Mutex
	m  map[string]readResult
}

type readResult struct {
	f   *File
	err error
}

// Open returns the tree rooted at dir, which must be a directory.
func Open(dir string) (*Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", dir, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("working tree %s: not a directory", dir)
	}
	files, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("working tree %s: %w", dir, err)
	}
	return &Tree{dir: abs, root: real, files: files, cache: newCache()}, nil
}

// OpenIn returns the tree of files, a directory already open (a root
// opened inside another one: nothing is looked up again by name), whose
// files are named under dir.
func OpenIn(dir string, files *os.Root) *Tree {
	return &Tree{dir: dir, root: dir, files: files, cache: newCache()}
}

// Files is the tree's root directory, held open: what reads and writes
// files of the tree, through filewrite's root-relative functions.
func (t *Tree) Files() *os.Root { return t.files }

// Root is the tree's directory, absolute, as it was named.
func (t *Tree) Root() string { return t.dir }

// FindRoot returns the nearest directory holding `.git` among the
// directories of file and their ancestors, or "" when there is none.
func FindRoot(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

// Errors of Resolve: a path the review names that is not read.
var (
	ErrAbsolute = errors.New("an absolute path")
	ErrDotDot   = errors.New("a path with \"..\"")
	ErrOutside  = errors.New("resolves outside the working tree")
	ErrEmpty    = errors.New("an empty path")
)

// Resolve returns the file of the tree a review's path names, absolute,
// under the root as it was named: the name a link or a location gives an
// editor. A path that is absolute, holds a ".." segment, or leads outside
// the root (through symbolic links too) is refused: a review is data from
// elsewhere, and must not make an editor open or a command write a file
// that is not the reviewed repository's. The file is opened through the
// tree's root to tell; what the project reads is read by Read, which
// opens it again the same way.
func (t *Tree) Resolve(path string) (string, error) {
	f, _, err := t.open(path)
	if err != nil {
		return "", err
	}
	f.Close()
	return t.name(path), nil
}

// name is the absolute name of the tree's file at path.
func (t *Tree) name(path string) string { return filepath.Join(t.dir, filepath.FromSlash(path)) }

// open opens the file a review's path names through the tree's root.
func (t *Tree) open(path string) (*os.File, os.FileInfo, error) {
	if err := checkPath(path); err != nil {
		return nil, nil, err
	}
	f, fi, err := filewrite.OpenIn(t.files, path)
	switch {
	case err == nil:
		return f, fi, nil
	case errors.Is(err, filewrite.ErrOutside):
		return nil, nil, fmt.Errorf("%s: %w", path, ErrOutside)
	case errors.Is(err, os.ErrNotExist):
		return nil, nil, fmt.Errorf("%s: no such file in %s", path, t.dir)
	case errors.Is(err, ErrNotRegular):
		return nil, nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return nil, nil, err
}

// checkPath refuses a path that names no file of the tree in its words:
// absolute, with "..", empty.
func checkPath(path string) error {
	switch {
	case path == "":
		return ErrEmpty
	case filepath.IsAbs(path), strings.HasPrefix(path, "/"), strings.HasPrefix(path, "\\"), filepath.VolumeName(path) != "":
		return fmt.Errorf("%s: %w", path, ErrAbsolute)
	}
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return fmt.Errorf("%s: %w", path, ErrDotDot)
		}
	}
	return nil
}

// Within reports whether path is dir or below it; both are clean and
// absolute.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
