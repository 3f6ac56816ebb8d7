package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
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
