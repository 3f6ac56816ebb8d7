package worktree

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResolveNeverLeavesTheRoot: every way a review's path can name a file
// outside the working tree is refused before anything is read.
func TestResolveNeverLeavesTheRoot(t *testing.T) {
	outer := t.TempDir()
	root := filepath.Join(outer, "repo")
	write(t, filepath.Join(root, "a", "x.go"), "package a\n")
	write(t, filepath.Join(outer, "x"), "secret\n")
	if err := os.Symlink(filepath.Join(outer, "x"), filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a", "x.go"), filepath.Join(root, "in")); err != nil {
		t.Fatal(err)
	}
	tree, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{
		{"../../etc/passwd", ErrDotDot},
		{"/etc/passwd", ErrAbsolute},
		{"out", ErrOutside},
		{"a/../../x", ErrDotDot},
		{`a\..\..\x`, ErrDotDot},
		{"", ErrEmpty},
	} {
		_, err := tree.Resolve(tc.path)
		if !errors.Is(err, tc.want) {
			t.Errorf("Resolve(%q): got %v, want %v", tc.path, err, tc.want)
		}
		if _, err := tree.Read(tc.path); !errors.Is(err, tc.want) {
			t.Errorf("Read(%q): got %v, want %v", tc.path, err, tc.want)
		}
	}
	// Inside the root, a file is named as the review names it, a link too.
	for path, want := range map[string]string{"a/x.go": "a/x.go", "./a/x.go": "a/x.go", "in": "in"} {
		got, err := tree.Resolve(path)
		if err != nil || got != filepath.Join(root, want) {
			t.Errorf("Resolve(%q): got %q, %v, want %q", path, got, err, filepath.Join(root, want))
		}
	}
}

// TestRootThroughALink: a root named through a symbolic link names its
// files under that name, as the editor does.
func TestRootThroughALink(t *testing.T) {
	outer := t.TempDir()
	write(t, filepath.Join(outer, "real", "a.go"), "package a\n")
	if err := os.Symlink(filepath.Join(outer, "real"), filepath.Join(outer, "link")); err != nil {
		t.Fatal(err)
	}
	tree, err := Open(filepath.Join(outer, "link"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tree.Resolve("a.go"); err != nil || got != filepath.Join(outer, "link", "a.go") {
		t.Errorf("got %q, %v, want %q", got, err, filepath.Join(outer, "link", "a.go"))
	}
}

func TestReadIgnoresWhatIsNotSource(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "bin"), "ab\x00cd")
	write(t, filepath.Join(root, "big"), strings.Repeat("x", MaxFileSize+1))
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tree, _ := Open(root)
	for path, want := range map[string]error{"bin": ErrBinary, "big": ErrTooLarge, "dir": ErrNotRegular} {
		if _, err := tree.Read(path); !errors.Is(err, want) {
			t.Errorf("Read(%q): got %v, want %v", path, err, want)
		}
	}
}

func TestReadIsFreshAndCached(t *testing.T) {
	root := t.TempDir()
	name := filepath.Join(root, "f.go")
	write(t, name, "one\r\ntwo\r\n")
	tree, _ := Open(root)
	a, err := tree.Read("f.go")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Lines(), 2; got != want || a.Line(2) != "two" || !a.CRLF {
		t.Fatalf("got %d lines, line 2 %q, CRLF %v; want %d, \"two\", true", got, a.Line(2), a.CRLF, want)
	}
	if b, _ := tree.Read("f.go"); b != a {
		t.Errorf("an unchanged file was read again")
	}
	write(t, name, "one\ntwo\nthree\n")
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(name, later, later); err != nil {
		t.Fatal(err)
	}
	c, err := tree.Read("f.go")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Lines(), 3; got != want || c.CRLF {
		t.Errorf("after the change: got %d lines (CRLF %v), want %d", got, c.CRLF, want)
	}
}

func TestFindRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	review := filepath.Join(root, "reviews", "x.review.json")
	write(t, review, "{}")
	if got := FindRoot(review); got != root {
		t.Errorf("FindRoot: got %q, want %q", got, root)
	}
}
