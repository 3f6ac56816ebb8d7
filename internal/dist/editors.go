package main

import (
	"io/fs"
	"os"
	"path"
	"strings"
)

// The editors' files the install table's rows name (README.md, "Install"):
// Helix's languages.toml and queries, Emacs's lreview-mode.el, the
// JetBrains template. A person who downloads the archive for the server
// finds them beside it under editors/, as the rows say. Neovim and Vim
// take the plugin from the repository (vim.pack, lazy.nvim), VS Code
// from its .vsix: neither is here.
var editorDirs = []string{"editors/helix", "editors/emacs", "editors/jetbrains"}

// shipped reports whether the file at p (slash-separated, under an
// editor's folder) goes into the archive: not the editor's tests.
func shipped(p string) bool {
	return !strings.Contains(p, "/test/") && !strings.HasSuffix(p, "_test.go") && !strings.HasSuffix(p, ".go")
}

// editorMembers reads the editors' files under the repository at root,
// in lexical order.
func editorMembers(root string) ([]member, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []member
	for _, dir := range editorDirs {
		err := fs.WalkDir(r.FS(), dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() || !shipped(p) {
				return err
			}
			data, err := r.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, member{name: path.Clean(p), data: data})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
