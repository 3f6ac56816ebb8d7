//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

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
