package filewrite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMachineryNamesEverySpelling(t *testing.T) {
	for _, tc := range []struct {
		path, part string // part "" : not protected
	}{
		{".git/config", ".git"},
		{"a/b/.git/hooks/pre-commit", ".git"},
		{".GIT/config", ".GIT"},
		{".Git./config", ".Git."},
		{".git . ./config", ".git . ."},
		{".git::$INDEX_ALLOCATION/config", ".git::$INDEX_ALLOCATION"},
		{".git:stream", ".git:stream"},
		{"GIT~1/config", "GIT~1"},
		{"git~12/config", "git~12"},
		{"GI7EBA~1/config", "GI7EBA~1"},
		{`sub\.git\config`, ".git"},
		{".g\u200cit/config", ".g\u200cit"},
		{"\ufeff.git/config", "\ufeff.git"},
		{".hg/hgrc", ".hg"},
		{".svn/wc.db", ".svn"},
		{".jj/repo/config.toml", ".jj"},
		{"lib/.gitattributes", ".gitattributes"},
		{"GITATT~1", "GITATT~1"},
		{".gitmodules", ".gitmodules"},
		{".envrc", ".envrc"},
		{".ENVRC ", ".ENVRC "},
		{".vscode/tasks.json", ".vscode"},
		{".idea/workspace.xml", ".idea"},
		{".helix/languages.toml", ".helix"},
		{".nvim.lua", ".nvim.lua"},
		{"NVIM~1.LUA", "NVIM~1.LUA"},
		{".exrc", ".exrc"},
		{"src/.dir-locals.el", ".dir-locals.el"},
		{"DIR-LO~1.EL", "DIR-LO~1.EL"},
		{".husky/pre-commit", ".husky"},
		// Not protected.
		{"src/main.go", ""},
		{".github/workflows/ci.yml", ""},
		{"repo.git/config", ""},
		{".gitignore", ""},
		{"git/config", ""},
		{".git2/x", ""},
		{"docs/.gitkeep", ""},
		{"main.go~", ""},
		{"file~1.txt", ""},
		{"Makefile", ""},
	} {
		part, what := Machinery(tc.path)
		if part != tc.part {
			t.Errorf("Machinery(%q): got %q (%s), want %q", tc.path, part, what, tc.part)
		}
		if part != "" && what == "" {
			t.Errorf("Machinery(%q): no word for what %q is", tc.path, part)
		}
	}
}

// machineryTree is a working tree with a .git directory holding config,
// and a link docs/cfg to it.
func machineryTree(t *testing.T) (string, *os.Root) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".git", "config"), "[core]\n", 0o644)
	writeFile(t, filepath.Join(dir, "main.go"), "package main\n", 0o644)
	if err := os.Mkdir(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.git", filepath.Join(dir, "docs", "cfg")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return dir, root
}

func wantMachinery(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrMachinery) {
		t.Fatalf("%s: got %v, want a refusal wrapping ErrMachinery", what, err)
	}
	if !strings.Contains(err.Error(), "nothing written") && !strings.Contains(err.Error(), "cannot create") {
		t.Errorf("%s: the refusal %q does not say nothing was written", what, err)
	}
}

func TestNoWriteReachesMachinery(t *testing.T) {
	dir, root := machineryTree(t)
	for _, rel := range []string{".git/config", "docs/cfg/config", ".GIT/config"} {
		o, err := ReadIn(root, rel)
		if errors.Is(err, os.ErrNotExist) {
			continue // .GIT on a case-sensitive file system: nothing to read
		}
		if err != nil {
			t.Fatalf("ReadIn %s: %v", rel, err)
		}
		wantMachinery(t, "Replace "+rel, o.Replace([]byte("[core]\n\tfsmonitor = touch PWNED\n")))
	}
	o, err := Read(filepath.Join(dir, "docs", "cfg", "config"))
	if err != nil {
		t.Fatal(err)
	}
	wantMachinery(t, "Replace through a link, by absolute name", o.Replace([]byte("x")))
	for _, rel := range []string{".git/hooks/post-checkout", "docs/cfg/hooks/pre-commit", ".vscode/tasks.json", "src/.envrc"} {
		wantMachinery(t, "CreateIn "+rel, CreateIn(root, rel, []byte("#!/bin/sh\n")))
	}
	wantMachinery(t, "Create", Create(filepath.Join(dir, "docs", "cfg", "hooks-new"), []byte("x")))
	wantMachinery(t, "MkdirAllIn", MkdirAllIn(root, "docs/cfg/hooks/a/b"))
	if got := content(t, filepath.Join(dir, ".git", "config")); got != "[core]\n" {
		t.Errorf(".git/config: got %q, want it untouched", got)
	}
	for _, p := range []string{".git/hooks", ".vscode", "src"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	// The tree's own files are still written.
	o, err = ReadIn(root, "main.go")
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Replace([]byte("package main // ok\n")); err != nil {
		t.Errorf("Replace main.go: %v", err)
	}
	if err := CreateIn(root, "docs/new.review.json", []byte("{}")); err != nil {
		t.Errorf("CreateIn docs/new.review.json: %v", err)
	}
}
