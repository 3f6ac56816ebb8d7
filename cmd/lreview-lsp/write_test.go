package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The careful writer as each command that writes uses it: a file changed
// between reading and writing is not overwritten, and what the file was
// (read-only, hard-linked, not a regular file, its mode and owner) is
// respected. filewrite's own tests cover the cases as another user.

// writeCase is one command that rewrites a file, with what it needs.
type writeCase struct {
	cmd, doing, archive string
}

var writeCases = []writeCase{
	{"fmt", "formatted", "fmt-write"},
	{"fix", "fixed", "fix-drift-write"},
	{"rebase", "rebased", "rebase-write"},
}

// setUp writes the case's review (and diff) into dir and returns the
// arguments that rewrite it in place.
func (c writeCase) setUp(t *testing.T, dir string, perm os.FileMode) (file string, args []string) {
	t.Helper()
	file = filepath.Join(dir, "in.review.json")
	writeFile(t, file, archiveFile(t, c.archive, "in.review.json"), perm)
	args = []string{"-w", file}
	if c.cmd == "rebase" {
		diff := filepath.Join(dir, "new.diff")
		writeFile(t, diff, archiveFile(t, c.archive, "new.diff"), 0o644)
		args = append(args, diff)
	}
	return file, args
}

func (c writeCase) run(rw rewriter, args []string) (int, string) {
	var stderr bytes.Buffer
	stdin, stdout := strings.NewReader(""), io.Discard
	var status int
	switch c.cmd {
	case "fmt":
		status = rw.fmt(args, stdin, stdout, &stderr)
	case "fix":
		status = rw.fix(args, stdin, stdout, &stderr)
	case "rebase":
		status = rw.rebase(args, stdin, stdout, &stderr)
	}
	return status, stderr.String()
}

// TestWriteRefusesAFileChangedMeanwhile: an editor saves the file while
// the command runs; the command writes nothing, says so and exits 1.
func TestWriteRefusesAFileChangedMeanwhile(t *testing.T) {
	for _, c := range writeCases {
		t.Run(c.cmd, func(t *testing.T) {
			dir := t.TempDir()
			file, args := c.setUp(t, dir, 0o644)
			saved := append(readFile(t, file), "\n"...)
			rw := rewriter{beforeWrite: func(string) {
				if err := os.WriteFile(file, saved, 0o644); err != nil {
					t.Error(err)
				}
			}}
			status, stderr := c.run(rw, args)
			if status != 1 {
				t.Errorf("got exit %d, want 1", status)
			}
			want := file + " changed while it was being " + c.doing + "; nothing written — run again"
			if !strings.Contains(stderr, want) {
				t.Errorf("got stderr %q, want it to say %q", stderr, want)
			}
			if got := readFile(t, file); !bytes.Equal(got, saved) {
				t.Errorf("the editor's save was lost; the file holds:\n%s", got)
			}
			if names := dirNames(t, dir); len(names) != len(args)-1 {
				t.Errorf("directory holds %v, want no temporary file", names)
			}
		})
	}
}

// TestWriteRefusesWhatItCannotKeep: a read-only file, a file with another
// hard link and a FIFO are left as they are, with a message and exit 2.
func TestWriteRefusesWhatItCannotKeep(t *testing.T) {
	for _, c := range writeCases {
		t.Run(c.cmd+"/read-only", func(t *testing.T) {
			file, args := c.setUp(t, t.TempDir(), 0o444)
			src := readFile(t, file)
			status, stderr := c.run(rewriter{}, args)
			if status != 2 || !strings.Contains(stderr, "the file is read-only (mode 0444); nothing written") {
				t.Errorf("got exit %d, stderr %q; want 2 and a read-only refusal", status, stderr)
			}
			if !bytes.Equal(readFile(t, file), src) {
				t.Error("the read-only file changed")
			}
		})
		t.Run(c.cmd+"/hard link", func(t *testing.T) {
			dir := t.TempDir()
			file, args := c.setUp(t, dir, 0o644)
			other := filepath.Join(dir, "other.json")
			if err := os.Link(file, other); err != nil {
				t.Skipf("no hard links: %v", err)
			}
			status, stderr := c.run(rewriter{}, args)
			if status != 2 || !strings.Contains(stderr, "it has 2 hard links") {
				t.Errorf("got exit %d, stderr %q; want 2 and a hard-link refusal", status, stderr)
			}
			if fi1, fi2 := stat(t, file), stat(t, other); !os.SameFile(fi1, fi2) {
				t.Error("the two names no longer share the file")
			}
		})
		t.Run(c.cmd+"/fifo", func(t *testing.T) {
			dir := t.TempDir()
			_, args := c.setUp(t, dir, 0o644)
			fifo := filepath.Join(dir, "pipe.review.json")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			args[1] = fifo
			status, stderr := c.run(rewriter{}, args)
			if status != 2 || !strings.Contains(stderr, "is a named pipe (FIFO), not a regular file") {
				t.Errorf("got exit %d, stderr %q; want 2 and a FIFO refusal", status, stderr)
			}
			if fi := lstat(t, fifo); fi.Mode()&os.ModeNamedPipe == 0 {
				t.Error("the FIFO was replaced")
			}
		})
	}
}

// TestWriteKeepsModeAndOwner: setgid and another user's ownership survive
// the rewrite (as root, who may set them).
func TestWriteKeepsModeAndOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("setting another user's ownership needs root; filewrite's tests cover a user's own file")
	}
	for _, c := range writeCases {
		t.Run(c.cmd, func(t *testing.T) {
			file, args := c.setUp(t, t.TempDir(), 0o644)
			if err := os.Chown(file, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(file, 0o664|os.ModeSetgid); err != nil {
				t.Fatal(err)
			}
			src := readFile(t, file)
			if status, stderr := c.run(rewriter{}, args); status != 0 {
				t.Fatalf("got exit %d, stderr %q", status, stderr)
			}
			if bytes.Equal(readFile(t, file), src) {
				t.Fatal("the file was not rewritten; the case expects a change")
			}
			fi := stat(t, file)
			if fi.Mode() != 0o664|os.ModeSetgid {
				t.Errorf("got mode %v, want %v", fi.Mode(), 0o664|os.ModeSetgid)
			}
			if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 {
				t.Errorf("got owner %d:%d, want 65534:65534", st.Uid, st.Gid)
			}
		})
	}
}

func stat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func lstat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	fi, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
