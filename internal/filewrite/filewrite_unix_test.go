//go:build unix

package filewrite

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.review.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "dir.review.json")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.review.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		fifo:        "is a named pipe (FIFO), not a regular file",
		sub:         "is a directory, not a regular file",
		link:        "is a named pipe (FIFO), not a regular file",
		"/dev/null": "is a device, not a regular file",
	} {
		_, err := Read(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%s): got error %v, want %q", name, err, want)
		}
	}
}

func TestReplaceKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "r.review.json")
	writeFile(t, name, "old", 0o664)
	if err := os.Chown(name, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	o, err := Read(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Replace([]byte("new")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(name)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("got owner %d:%d, want 65534:65534", st.Uid, st.Gid)
	}
}
