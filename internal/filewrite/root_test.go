//go:build unix

package filewrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInRootFollowsLinksInsideOnly: ReadIn and CreateIn follow a link
// that stays inside the root (relative, or absolute into it) and replace
// its target, keeping the link; one leading out is refused with
// ErrOutside, and nothing outside is written.
func TestInRootFollowsLinksInsideOnly(t *testing.T) {
	outer := t.TempDir()
	dir := filepath.Join(outer, "root")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sub", "target.json"), "old", 0o644)
	writeFile(t, filepath.Join(outer, "secret.json"), "secret", 0o644)
	for link, to := range map[string]string{
		"rel.json":    "sub/target.json",
		"abs.json":    filepath.Join(dir, "sub", "target.json"),
		"out.json":    "../secret.json",
		"absout.json": filepath.Join(outer, "secret.json"),
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outer, filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, rel := range []string{"rel.json", "abs.json"} {
		o, err := ReadIn(root, rel)
		if err != nil {
			t.Fatalf("ReadIn(%s): %v", rel, err)
		}
		if err := o.Replace([]byte("new " + rel)); err != nil {
			t.Fatalf("Replace(%s): %v", rel, err)
		}
		if got := content(t, filepath.Join(dir, "sub", "target.json")); got != "new "+rel {
			t.Errorf("%s: the target holds %q", rel, got)
		}
		if fi, err := os.Lstat(filepath.Join(dir, rel)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link", rel)
		}
	}
	for _, rel := range []string{"out.json", "absout.json", "up/secret.json", "../secret.json", "sub/../../secret.json"} {
		if _, err := ReadIn(root, rel); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadIn(%s): got %v, want ErrOutside", rel, err)
		}
		if _, err := ReadFileIn(root, rel); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFileIn(%s): got %v, want ErrOutside", rel, err)
		}
	}
	if err := CreateIn(root, "up/new.json", []byte("x")); !errors.Is(err, ErrOutside) {
		t.Errorf("CreateIn(up/new.json): got %v, want ErrOutside", err)
	}
	if err := CreateIn(root, "sub/new.json", []byte("x")); err != nil {
		t.Errorf("CreateIn(sub/new.json): %v", err)
	}
	if got := content(t, filepath.Join(outer, "secret.json")); got != "secret" {
		t.Errorf("the file outside was written: %q", got)
	}
	if _, err := os.Stat(filepath.Join(outer, "new.json")); err == nil {
		t.Error("a file was created outside the root")
	}
}

// TestReadsAreBounded: a file over MaxSize is refused by its size before
// it is read (the file is sparse), by ReadFile, Read and ReadIn alike.
func TestReadsAreBounded(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "huge.diff")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSize + 1); err != nil {
		f.Close()
		t.Skipf("no sparse file: %v", err)
	}
	f.Close()
	writeFile(t, filepath.Join(dir, "ok.diff"), strings.Repeat("x", 100), 0o644)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	want := "huge.diff: 67108865 bytes, over the limit of 67108864 bytes (64 MiB) on a review or a diff; nothing read"
	for what, read := range map[string]func() error{
		"ReadFile":   func() error { _, err := ReadFile(name); return err },
		"ReadFileIn": func() error { _, err := ReadFileIn(root, "huge.diff"); return err },
		"Read":       func() error { _, err := Read(name); return err },
		"ReadIn":     func() error { _, err := ReadIn(root, "huge.diff"); return err },
	} {
		if err := read(); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", what, err, want)
		}
	}
	if data, err := ReadFileIn(root, "ok.diff"); err != nil || len(data) != 100 {
		t.Errorf("ReadFileIn(ok.diff): %d bytes, %v", len(data), err)
	}
}

// TestReplaceRefusesADirectorySwapped: a file read in a directory, then
// found elsewhere because the directory was swapped for another (a link
// or a renamed one) is not the file read: nothing is written.
func TestReplaceRefusesADirectorySwapped(t *testing.T) {
	outer := t.TempDir()
	dir := filepath.Join(outer, "root")
	for _, d := range []string{filepath.Join(outer, "elsewhere"), filepath.Join(dir, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(d, "r.json"), "old", 0o644)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	o, err := ReadIn(root, "sub/r.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "sub.old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sub", "r.json"), "old", 0o644) // same content, another inode
	if err := o.Replace([]byte("new")); !errors.Is(err, ErrChanged) {
		t.Errorf("got %v, want ErrChanged", err)
	}
	for _, name := range []string{filepath.Join(dir, "sub", "r.json"), filepath.Join(dir, "sub.old", "r.json"), filepath.Join(outer, "elsewhere", "r.json")} {
		if got := content(t, name); got != "old" {
			t.Errorf("%s: got %q, want it unchanged", name, got)
		}
	}
}
