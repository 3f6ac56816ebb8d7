//go:build linux || darwin

package filewrite

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestConcurrentReplacesLoseNothing: goroutines each read the file, add a
// line of their own and replace it, all at once, round after round. A
// replace that succeeds is never undone by another: the file holds every
// line whose replace returned nil, and every other replace said the file
// changed.
func TestConcurrentReplacesLoseNothing(t *testing.T) {
	name := filepath.Join(t.TempDir(), "r.review.json")
	writeFile(t, name, "", 0o644)
	const writers, rounds = 8, 30
	var ok []string
	for round := range rounds {
		var wg sync.WaitGroup
		var mu sync.Mutex
		start := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				<-start
				line := fmt.Sprintf("r%d w%d\n", round, w)
				o, err := Read(name)
				if err != nil {
					t.Error(err)
					return
				}
				err = o.Replace(append(o.Data, line...))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok = append(ok, line)
				case !errors.Is(err, ErrChanged):
					t.Errorf("a replace failed without saying the file changed: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
	}
	got := content(t, name)
	for _, line := range ok {
		if !strings.Contains(got, line) {
			t.Errorf("%q was replaced without error but is not in the file", line)
		}
	}
	if n := strings.Count(got, "\n"); n != len(ok) {
		t.Errorf("the file has %d lines, %d replaces succeeded", n, len(ok))
	}
	noTemporaries(t, filepath.Dir(name))
	t.Logf("%d replaces, %d succeeded, the others refused", writers*rounds, len(ok))
}

// TestLockIsHeldAndNeverStale: while another process holds the writers'
// lock on the directory, Replace waits; when that process dies (killed,
// never unlocking), the kernel drops the lock and Replace goes on.
func TestLockIsHeldAndNeverStale(t *testing.T) {
	if dir := os.Getenv("FILEWRITE_LOCK_CHILD"); dir != "" {
		// The child: lock the directory, say so, and wait to be killed.
		d, err := os.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		fmt.Println("locked")
		time.Sleep(time.Hour)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "r.review.json")
	writeFile(t, name, "old", 0o644)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(exe, "-test.run=^TestLockIsHeldAndNeverStale$")
	child.Env = append(os.Environ(), "FILEWRITE_LOCK_CHILD="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "locked" {
		t.Fatalf("the child did not lock: %q %v", buf, err)
	}
	o, err := Read(name)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	entered := make(chan struct{})
	o.beforeReplace = func() { close(entered) }
	go func() { done <- o.Replace([]byte("new")) }()
	<-entered
	// The replace is now waiting for the lock (it cannot have written:
	// the child holds it). Killing the child releases it.
	if got := content(t, name); got != "old" {
		t.Fatalf("written while another process held the lock: %q", got)
	}
	child.Process.Kill()
	child.Wait()
	if err := <-done; err != nil {
		t.Fatalf("after the holder died: %v", err)
	}
	if got := content(t, name); got != "new" {
		t.Errorf("got %q, want %q", got, "new")
	}
}
