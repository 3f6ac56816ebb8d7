//go:build unix

package filewrite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadsRefuseSpecialFilesAtOnce: a FIFO (no writer: opening it
// would wait), a device that never ends and a directory are
// refused at once, with a message naming the file and what it is.
func TestReadsRefuseSpecialFilesAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.diff")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cases := map[string]string{
		fifo:        "is a named pipe (FIFO), not a regular file",
		dir:         "is a directory, not a regular file",
		"/dev/zero": "is a device, not a regular file",
		"/dev/null": "is a device, not a regular file",
	}
	for name, want := range cases {
		start := time.Now()
		_, err := ReadFile(name)
		if err == nil || !strings.Contains(err.Error(), name+" "+want) || !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s): got %v, want %q", name, err, want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("ReadFile(%s) took %v", name, d)
		}
	}
	if _, err := ReadFileIn(root, "fifo.diff"); err == nil || !strings.Contains(err.Error(), "fifo.diff is a named pipe (FIFO)") {
		t.Errorf("ReadFileIn(fifo.diff): got %v", err)
	}
	if _, err := ReadIn(root, "fifo.diff"); err == nil || !strings.Contains(err.Error(), "fifo.diff is a named pipe (FIFO)") {
		t.Errorf("ReadIn(fifo.diff): got %v", err)
	}
}
