// Package worktree is the working tree a review was written against: the
// directory of the reviewed repository, its files read safely (nothing
// outside the root, nothing binary, huge or not regular) and cached by
// size and modification time, and where the patch's lines are in them now,
// found with the anchoring engine's drift search (anchor.Text).
package worktree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Tree is one working tree: a root directory and the cache of the files
// read under it. Its methods may be called concurrently.
type Tree struct {
	// dir is the root as it was named, absolute: the files are named
	// under it, as the editor names them. root is dir with symbolic links
	// resolved: every path read is checked to resolve inside it.
	dir   string
	root  string
	cache *cache
	// reads, in a tree made by Snapshot, keeps what Read returned for
	// each path, so that one request stats a file once.
	reads *reads
}

// Snapshot returns t as of now: each file is read (stat, and read when
// it changed) the first time the snapshot asks for it, then kept as it
// was. A request or a publish takes one, so that it sees each file once
// and at one moment.
func (t *Tree) Snapshot() *Tree {
	return &Tree{dir: t.dir, root: t.root, cache: t.cache, reads: &reads{m: map[string]readResult{}}}
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
	return &Tree{dir: abs, root: real, cache: newCache()}, nil
}

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
// under the root as it was named.
// A path that is absolute, holds a ".." segment, or resolves outside the
// root (through symbolic links too) is refused: a review is data from
// elsewhere, and must not make an editor open or a command write a file
// that is not the reviewed repository's.
func (t *Tree) Resolve(path string) (string, error) {
	switch {
	case path == "":
		return "", ErrEmpty
	case filepath.IsAbs(path), strings.HasPrefix(path, "/"), strings.HasPrefix(path, "\\"), filepath.VolumeName(path) != "":
		return "", fmt.Errorf("%s: %w", path, ErrAbsolute)
	}
	for _, seg := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return "", fmt.Errorf("%s: %w", path, ErrDotDot)
		}
	}
	name := filepath.Join(t.root, filepath.FromSlash(path))
	if plain, err := t.noLinks(name); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	} else if plain {
		return filepath.Join(t.dir, filepath.FromSlash(path)), nil
	}
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: no such file in %s", path, t.dir)
		}
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if !Within(t.root, real) {
		return "", fmt.Errorf("%s: %w", path, ErrOutside)
	}
	return filepath.Join(t.dir, filepath.FromSlash(path)), nil
}

// noLinks reports whether no part of name below the root (which is
// resolved already) is a symbolic link: name is then the file itself,
// with fewer system calls than EvalSymlinks makes.
func (t *Tree) noLinks(name string) (bool, error) {
	rel, err := filepath.Rel(t.root, name)
	if err != nil {
		return false, err
	}
	at := t.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return false, fmt.Errorf("no such file in %s", t.dir)
			}
			return false, err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return false, nil
		}
	}
	return true, nil
}

// Within reports whether path is dir or below it; both are clean and
// absolute.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
