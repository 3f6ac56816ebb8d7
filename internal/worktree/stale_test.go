package worktree

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCacheSeesARewriteWithTheSameStat: a file rewritten in place with
// the same size, inode and modification time (set back as `touch -d`
// does) is read again: the change time and, within the racy window, the
// content tell. Before, the old text was served forever.
func TestCacheSeesARewriteWithTheSameStat(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.go")
	old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(text string) {
		t.Helper()
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644) // in place: the same inode
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write("package x // one\n")
	tree, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"package x // two\n", "package x // 333\n", "package x // one\n"} {
		if f, err := tree.Read("x.go"); err != nil || i == 0 && f.Text != "package x // one\n" {
			t.Fatalf("first read: %v %q", err, f.Text)
		}
		before, _ := os.Stat(name)
		write(text)
		after, _ := os.Stat(name)
		if before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) || !os.SameFile(before, after) {
			t.Fatalf("the rewrite changed the size, the time or the inode: the test needs them equal")
		}
		for range 2 {
			f, err := tree.Read("x.go")
			if err != nil || f.Text != text {
				t.Errorf("rewrite %d: read %q (%v), want %q", i+1, f.Text, err, text)
			}
		}
	}
}

// BenchmarkCacheCheck measures what telling a cached file unchanged costs
// on each read: the stat the cache makes anyway, with the change time and
// the inode in the stamp (stamp), against hashing the content each time
// (hash), for a 100 KB source file; once settled (past the racy window)
// and while racy (compared by content).
func BenchmarkCacheCheck(b *testing.B) {
	dir := b.TempDir()
	name := filepath.Join(dir, "big.go")
	text := strings.Repeat("\tresult, err := calculate(input) // a line of source\n", 2000)
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(name, old, old); err != nil {
		b.Fatal(err)
	}
	tree, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	read := func(b *testing.B) {
		for b.Loop() {
			if _, err := tree.Read("big.go"); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("stamp-racy", func(b *testing.B) {
		tree.cache = newCache() // read now: within the window of its change time
		read(b)
	})
	b.Run("stamp", func(b *testing.B) {
		tree.cache = newCache()
		_, _ = tree.Read("big.go")
		for _, e := range tree.cache.files {
			e.racy = false // as after the window
		}
		read(b)
	})
	b.Run("hash", func(b *testing.B) {
		for b.Loop() {
			f, _, err := tree.open("big.go")
			if err != nil {
				b.Fatal(err)
			}
			h := sha256.New()
			buf := make([]byte, 32<<10)
			for {
				n, err := f.Read(buf)
				h.Write(buf[:n])
				if err != nil {
					break
				}
			}
			f.Close()
			_ = h.Sum(nil)
		}
	})
}
