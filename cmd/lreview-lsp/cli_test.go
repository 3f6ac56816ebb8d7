package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What goldens cannot see: how -w writes (the file replaced through a
// rename, its permissions kept, no temporary file left behind) and when it
// does not write at all (the file and its modification time untouched).

func writeFile(t *testing.T, name string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, data, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, perm); err != nil { // WriteFile's mode passes through the umask
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// archiveFile returns one section of a golden archive: the inputs of the
// goldens serve these tests too.
func archiveFile(t *testing.T, archive, name string) []byte {
	t.Helper()
	ar := parseArchive(t, filepath.Join("testdata", archive+".txtar"))
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("%s has no section %s", archive, name)
	return nil
}

// runCLI runs the command line in process.
func runCLI(args ...string) (status int, stdout, stderr string) {
	var out, errb bytes.Buffer
	status = run(args, strings.NewReader(""), &out, &errb)
	return status, out.String(), errb.String()
}

// dirNames lists a directory, to catch temporary files left behind.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestWriteReplacesFile: fmt, fix and rebase -w replace the file (a new
// inode through a rename, so that a reader never sees half a file), keep
// its permissions, and leave nothing else in the directory.
func TestWriteReplacesFile(t *testing.T) {
	tests := []struct {
		name    string
		archive string // whose in.review.json (and new.diff) to use
		args    []string
	}{
		{"fmt", "fmt-write", []string{"fmt", "-w"}},
		{"fix", "fix-drift-write", []string{"fix", "-w"}},
		{"rebase", "rebase-write", []string{"rebase", "-w"}},
	}
	for _, tt := range tests {
		for _, perm := range []os.FileMode{0o600, 0o640, 0o755} {
			t.Run(tt.name+"/"+perm.String(), func(t *testing.T) {
				dir := t.TempDir()
				file := filepath.Join(dir, "in.review.json")
				src := archiveFile(t, tt.archive, "in.review.json")
				writeFile(t, file, src, perm)
				args := append(append([]string{}, tt.args...), file)
				if tt.name == "rebase" {
					diff := filepath.Join(dir, "new.diff")
					writeFile(t, diff, archiveFile(t, tt.archive, "new.diff"), 0o644)
					args = append(args, diff)
				}
				before, err := os.Stat(file)
				if err != nil {
					t.Fatal(err)
				}
				names := dirNames(t, dir)

				status, stdout, stderr := runCLI(args...)
				if status != 0 {
					t.Fatalf("exit %d, stderr:\n%s", status, stderr)
				}
				if stdout != "" {
					t.Errorf("-w printed on stdout:\n%s", stdout)
				}
				after, err := os.Stat(file)
				if err != nil {
					t.Fatal(err)
				}
				if got := readFile(t, file); bytes.Equal(got, src) {
					t.Fatalf("the file did not change; the scenario expects a rewrite")
				}
				if after.Mode().Perm() != perm {
					t.Errorf("mode = %v, want %v kept", after.Mode().Perm(), perm)
				}
				if os.SameFile(before, after) {
					t.Errorf("the file was rewritten in place; want it replaced by a rename")
				}
				if got := dirNames(t, dir); strings.Join(got, " ") != strings.Join(names, " ") {
					t.Errorf("directory holds %v after the run, want %v", got, names)
				}
			})
		}
	}
}

// TestWriteUnchangedLeavesFile: -w with nothing to change does not touch
// the file: same bytes, same inode, same modification time. Build tools
// and editors watching the file see no change.
func TestWriteUnchangedLeavesFile(t *testing.T) {
	tests := []struct {
		name    string
		archive string
		args    []string
	}{
		{"fix nothing to fix", "fix-nothing", []string{"fix", "-w"}},
		{"fmt canonical", "fmt-canonical", []string{"fmt", "-w"}},
		{"rebase same diff", "rebase-same-diff", []string{"rebase", "-w"}},
		{"fix refused", "fix-syntax-error", []string{"fix", "-w"}},
		{"fmt refused", "fmt-syntax-error", []string{"fmt", "-w"}},
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "in.review.json")
			src := archiveFile(t, tt.archive, "in.review.json")
			writeFile(t, file, src, 0o644)
			if err := os.Chtimes(file, old, old); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{}, tt.args...), file)
			if strings.HasPrefix(tt.name, "rebase") {
				diff := filepath.Join(dir, "new.diff")
				writeFile(t, diff, archiveFile(t, tt.archive, "new.diff"), 0o644)
				args = append(args, diff)
			}
			before, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			runCLI(args...)
			after, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, file); !bytes.Equal(got, src) {
				t.Errorf("the file changed:\n%s", got)
			}
			if !after.ModTime().Equal(old) {
				t.Errorf("mtime = %v, want %v untouched", after.ModTime(), old)
			}
			if !os.SameFile(before, after) {
				t.Errorf("the file was replaced")
			}
		})
	}
}

// TestWriteThroughSymlink: -w on a symbolic link rewrites the file it
// points to and leaves the link a link (dotfile managers and monorepo
// layouts link review files).
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.review.json")
	link := filepath.Join(dir, "link.review.json")
	writeFile(t, real, archiveFile(t, "fmt-write", "in.review.json"), 0o600)
	if err := os.Symlink("real.review.json", link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if status, _, stderr := runCLI("fmt", "-w", link); status != 0 {
		t.Fatalf("exit %d, stderr:\n%s", status, stderr)
	}
	fi, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a regular file")
	}
	want := archiveFile(t, "fmt-write", "out/in.review.json")
	if got := readFile(t, real); !bytes.Equal(got, want) {
		t.Errorf("the link's target was not rewritten; got:\n%s", got)
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode = %v (%v), want 0600 kept", fi.Mode().Perm(), err)
	}
}

// TestWriteFailureLeavesFile: when the directory cannot take the temporary
// file, -w fails with exit 2, names the file, and the file is as it was.
func TestWriteFailureLeavesFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "in.review.json")
	src := archiveFile(t, "fmt-write", "in.review.json")
	writeFile(t, file, src, 0o644)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	status, _, stderr := runCLI("fmt", "-w", file)
	if status != 2 {
		t.Errorf("exit %d, want 2", status)
	}
	if !strings.Contains(stderr, file) {
		t.Errorf("stderr does not name %s:\n%s", file, stderr)
	}
	if got := readFile(t, file); !bytes.Equal(got, src) {
		t.Errorf("the file changed")
	}
}
