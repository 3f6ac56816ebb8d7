package filewrite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// # What no write touches
//
// A review is data from elsewhere: its paths and suggestions may name any
// file. Some files are not the reviewed code but the machinery that runs
// code on this machine when a person next uses a tool: a version-control
// directory (`.git/config` can set fsmonitor or a hook path that `git
// status` runs), the files git reads from the tree (`.gitattributes`
// filters, `.gitmodules`), the commit hooks of hook managers, an
// environment loader (direnv's `.envrc`), an editor's workspace settings
// (`.vscode/tasks.json` runs on folder open, `.helix/languages.toml`
// names the language server to start, Vim's `.exrc` and `.nvim.lua`,
// Emacs's `.dir-locals.el`). No write of the project lands on a path
// with such a component, and no action that would is offered: such a
// change is a person's to make by hand. Build files (Makefile,
// package.json) are not here: they run only when a person runs the
// project, and changing them is ordinary code review.
//
// A name is compared as the most lenient file system would compare it, so
// that no spelling reaches the same file: case-insensitively (macOS,
// Windows), without the trailing dots and spaces Windows drops, without
// an NTFS stream suffix (`.git::$INDEX_ALLOCATION` is the directory),
// without the code points HFS+ ignores (U+200C…), and including the 8.3
// short names Windows gives long ones (`GIT~1`, `GITATT~1`, and the
// hashed `GI7EBA~1`). The path is checked as given and with its symbolic
// links resolved (a link `docs/cfg -> ../.git` is refused too); the file
// is then opened through the root as always. A name swapped for a link
// between the check and the write could still lead there, but only by
// someone who can write the tree, and so its machinery, already.

// ErrMachinery is wrapped by the error of a write refused because its
// path leads into a repository's machinery or to a file that makes a tool
// run code (see Machinery).
var ErrMachinery = errors.New("a repository's machinery or a file that makes a tool run code")

// machinery maps each protected name (lower case) to what it is.
var machinery = map[string]string{
	".git": "git's repository data", ".hg": "Mercurial's repository data", ".svn": "Subversion's repository data",
	".jj": "Jujutsu's repository data", ".bzr": "Bazaar's repository data",
	".gitattributes": "git's attributes (filters and diff drivers run commands)",
	".gitmodules":    "git's submodule list (URLs and update commands git runs)",
	".lfsconfig":     "git LFS's configuration",
	".husky":         "commit hooks (husky)", ".githooks": "commit hooks",
	".pre-commit-config.yaml": "commit hooks (pre-commit)",
	".envrc":                  "direnv's environment script, run on entering the directory",
	".vscode":                 "VS Code's workspace settings and tasks",
	".idea":                   "JetBrains's project settings and run configurations",
	".helix":                  "Helix's workspace settings (language servers it starts)",
	".zed":                    "Zed's workspace settings",
	".nvim.lua":               "Neovim's local configuration (exrc)", ".nvimrc": "Neovim's local configuration (exrc)",
	".exrc":          "Vim's local configuration (exrc)",
	".dir-locals.el": "Emacs's directory-local variables", ".dir-locals-2.el": "Emacs's directory-local variables",
}

// Machinery returns the part of path (relative or absolute, with "/" or
// "\" between parts) that names a protected file or directory, with what
// it is; "" when there is none.
func Machinery(path string) (part, what string) {
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
		if what := protected(part); what != "" {
			return part, what
		}
	}
	return "", ""
}

// protected says what one part of a path is when it is protected.
func protected(part string) string {
	name := fold(part)
	if what, ok := machinery[name]; ok {
		return what
	}
	if base, ext, ok := shortName(name); ok {
		for long, what := range machinery {
			if shortFor(long, base, ext) {
				return what
			}
		}
	}
	return ""
}

// fold is a part of a path as Windows and macOS compare it: lower case,
// without an NTFS stream (":…"), trailing dots and spaces, and the code
// points HFS+ ignores.
func fold(part string) string {
	var b strings.Builder
	for _, r := range part {
		if !ignorable(r) {
			b.WriteRune(r)
		}
	}
	name := b.String()
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	return strings.ToLower(strings.TrimRight(name, ". "))
}

// ignorable reports the code points HFS+ leaves out of a name (git's
// list, from Apple's TN1150).
func ignorable(r rune) bool {
	switch {
	case r == 0x200c, r == 0x200d, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f:
		return true
	}
	return false
}

// shortName reads name (folded) as an 8.3 short name, BASE~N[.EXT]: base
// before the tilde, ext after the dot.
func shortName(name string) (base, ext string, ok bool) {
	stem, ext, _ := strings.Cut(name, ".")
	i := strings.LastIndexByte(stem, '~')
	if i < 1 || i > 6 || i == len(stem)-1 || len(ext) > 3 {
		return "", "", false
	}
	for _, c := range stem[i+1:] {
		if c < '0' || c > '9' {
			return "", "", false
		}
	}
	return stem[:i], ext, true
}

// shortFor reports whether base~N.ext may be the short name Windows gave
// long (a protected name): its first characters without the leading dot,
// or the hashed form of two of them and four hex digits.
func shortFor(long, base, ext string) bool {
	stem, longExt := strings.TrimPrefix(long, "."), ""
	if i := strings.LastIndexByte(stem, '.'); i > 0 {
		stem, longExt = stem[:i], stem[i+1:]
	}
	stem = strings.ReplaceAll(stem, ".", "")
	if !strings.HasPrefix(longExt, ext) {
		return false
	}
	if strings.HasPrefix(stem, base) {
		return true
	}
	if len(base) == 6 && len(stem) >= 2 && base[:2] == stem[:2] {
		for _, c := range base[2:] {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	return false
}

// Guard refuses a write to path (as named, or the absolute path with its
// links resolved) when Machinery finds a protected part in it.
func Guard(path string) error {
	if part, what := Machinery(path); part != "" {
		return fmt.Errorf("%s: %q is %s, %w: no tool writes there; make such a change by hand if you mean it", filepath.ToSlash(path), part, what, ErrMachinery)
	}
	return nil
}

// GuardIn is Guard for the file at rel, a path relative to root: rel as
// given, and the path it leads to with the links under root resolved (of
// its directory, when the file does not exist yet).
func GuardIn(root *os.Root, rel string) error {
	if err := Guard(rel); err != nil {
		return err
	}
	real, ok := resolved(filepath.Join(root.Name(), filepath.FromSlash(rel)))
	if !ok {
		return nil // nothing of it there: the open refuses it
	}
	if part, what := Machinery(real); part != "" {
		return fmt.Errorf("%s leads to %s: %q is %s, %w: no tool writes there; make such a change by hand if you mean it", filepath.ToSlash(rel), real, part, what, ErrMachinery)
	}
	return nil
}

// resolved is name with the symbolic links of its longest existing part
// resolved, the rest (not there yet: a file or directories to create)
// joined as named.
func resolved(name string) (string, bool) {
	rest := ""
	for dir := name; ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest), true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
