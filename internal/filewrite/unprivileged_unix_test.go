//go:build unix

package filewrite

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobody is the unprivileged user the permission tests run as.
const nobody = 65534

// TestAsUnprivilegedUser runs the permission cases as a user who is not
// root, in a child process: root may write any file, so only another user
// shows whether the file's own permissions are honoured.
func TestAsUnprivilegedUser(t *testing.T) {
	if os.Getenv("FILEWRITE_CHILD") != "" {
		t.Skip("in the child")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a child as another user; as a user, the read-only test covers the mode")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil { // the directory allows anything
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil { // the test's own temporary root
		t.Fatal(err)
	}
	for d := filepath.Dir(dir); d != "/"; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
			t.Skipf("%s is not searchable by other users", d)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "filewrite.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	rootsFile := filepath.Join(dir, "roots.review.json")
	writeFile(t, rootsFile, "old", 0o644)
	ownReadOnly := filepath.Join(dir, "own.review.json")
	writeFile(t, ownReadOnly, "old", 0o444)
	own := filepath.Join(dir, "mine.review.json")
	writeFile(t, own, "old", 0o640)
	for _, name := range []string{ownReadOnly, own} {
		if err := os.Chown(name, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-test.run=^TestChildCases$", "-test.v")
	cmd.Env = append(os.Environ(), "FILEWRITE_CHILD="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child as uid %d: %v\n%s", nobody, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestChildCases") {
		t.Fatalf("child did not run its cases:\n%s", out)
	}
	for name, want := range map[string]string{rootsFile: "old", ownReadOnly: "old", own: "new"} {
		if got := content(t, name); got != want {
			t.Errorf("%s: got %q, want %q", filepath.Base(name), got, want)
		}
	}
	noTemporaries(t, dir)
}

// TestChildCases is the child's half of TestAsUnprivilegedUser.
func TestChildCases(t *testing.T) {
	dir := os.Getenv("FILEWRITE_CHILD")
	if dir == "" {
		t.Skip("run by TestAsUnprivilegedUser")
	}
	for name, want := range map[string]string{
		"roots.review.json": "permission denied; nothing written",
		"own.review.json":   "read-only (mode 0444)",
	} {
		o, err := Read(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Replace([]byte("new")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got error %v, want %q", name, err, want)
		}
	}
	o, err := Read(filepath.Join(dir, "mine.review.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Replace([]byte("new")); err != nil {
		t.Errorf("mine.review.json: %v", err)
	}
}
