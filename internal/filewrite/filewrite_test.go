package filewrite

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func content(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// noTemporaries fails when a temporary file is left in dir.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestReplaceWritesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.review.json")
	writeFile(t, name, "old", 0o640)
	if os.Geteuid() == 0 {
		// setgid on a file needs membership of its group, which root has.
		if err := os.Chmod(name, 0o640|fs.ModeSetgid); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.Stat(name)
	o, err := Read(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(o.Data) != "old" {
		t.Fatalf("got Data %q, want %q", o.Data, "old")
	}
	if err := o.Replace([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, name); got != "new" {
		t.Errorf("got %q, want %q", got, "new")
	}
	after, _ := os.Stat(name)
	if after.Mode() != before.Mode() {
		t.Errorf("got mode %v, want %v", after.Mode(), before.Mode())
	}
	noTemporaries(t, dir)
}

func TestReplaceRefusesAChangedFile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(name string) error
	}{
		{"appended", func(name string) error {
			f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString(" and more")
			return err
		}},
		{"same size, time put back", func(name string) error {
			fi, err := os.Stat(name)
			if err != nil {
				return err
			}
			if err := os.WriteFile(name, []byte("OLD"), 0); err != nil {
				return err
			}
			return os.Chtimes(name, fi.ModTime(), fi.ModTime())
		}},
		{"replaced by a rename", func(name string) error {
			other := name + ".saved"
			if err := os.WriteFile(other, []byte("old"), 0o644); err != nil {
				return err
			}
			return os.Rename(other, name)
		}},
		{"removed", os.Remove},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "r.review.json")
			writeFile(t, name, "old", 0o644)
			o, err := Read(name)
			if err != nil {
				t.Fatal(err)
			}
			var changeErr error
			o.beforeReplace = func() { changeErr = tc.change(name) }
			err = o.Replace([]byte("new"))
			if changeErr != nil {
				t.Fatal(changeErr)
			}
			if !errors.Is(err, ErrChanged) {
				t.Fatalf("got error %v, want ErrChanged", err)
			}
			if want := "r.review.json changed since it was read; nothing written — run again"; !strings.HasSuffix(err.Error(), want) {
				t.Errorf("got message %q, want it to end %q", err, want)
			}
			if got, err := os.ReadFile(name); err == nil && string(got) == "new" {
				t.Errorf("the change was overwritten: file holds %q", got)
			}
			noTemporaries(t, dir)
		})
	}
}

func TestReplaceRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.review.json")
	writeFile(t, name, "old", 0o444)
	o, err := Read(name)
	if err != nil {
		t.Fatal(err)
	}
	err = o.Replace([]byte("new"))
	if err == nil || !strings.Contains(err.Error(), "read-only (mode 0444)") {
		t.Fatalf("got error %v, want a read-only refusal", err)
	}
	if got := content(t, name); got != "old" {
		t.Errorf("got %q, want the file unchanged", got)
	}
	noTemporaries(t, dir)
}

func TestReplaceRefusesHardLinks(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.review.json")
	writeFile(t, name, "old", 0o644)
	if err := os.Link(name, filepath.Join(dir, "other.json")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	o, err := Read(name)
	if err != nil {
		t.Fatal(err)
	}
	err = o.Replace([]byte("new"))
	if err == nil || !strings.Contains(err.Error(), "2 hard links") {
		t.Fatalf("got error %v, want a hard-link refusal", err)
	}
	if got := content(t, filepath.Join(dir, "other.json")); got != "old" {
		t.Errorf("got %q through the other link, want it unchanged", got)
	}
	noTemporaries(t, dir)
}

func TestReplaceThroughSymlinkKeepsTheLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	writeFile(t, target, "old", 0o644)
	link := filepath.Join(dir, "link.review.json")
	if err := os.Symlink("target.json", link); err != nil {
		t.Fatal(err)
	}
	o, err := Read(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Replace([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v %v", fi, err)
	}
	if got := content(t, target); got != "new" {
		t.Errorf("got %q in the target, want %q", got, "new")
	}
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "new.review.json")
	if err := Create(name, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, name); got != "one" {
		t.Errorf("got %q, want %q", got, "one")
	}
	err := Create(name, []byte("two"))
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("got error %v creating over an existing file, want fs.ErrExist", err)
	}
	if got := content(t, name); got != "one" {
		t.Errorf("got %q, want the existing file kept", got)
	}
	noTemporaries(t, dir)
	if err := Create(filepath.Join(dir, "missing", "x.json"), []byte("x")); err == nil {
		t.Error("got no error creating in a missing directory")
	}
}

// BenchmarkUnchangedCheck times the check before a replace on a file the
// size of a large review, beside reading the file once, which the command
// did anyway: the full comparison costs about one more read.
func BenchmarkUnchangedCheck(b *testing.B) {
	name := filepath.Join(b.TempDir(), "big.review.json")
	data := bytes.Repeat([]byte(`    "+ a diff line of a large review, some sixty bytes long",`+"\n"), 8<<20/60)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		b.Fatal(err)
	}
	o, err := Read(name)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, err := os.ReadFile(name); err != nil {
				b.Fatal(err)
			}
		}
	})
	dir, base, err := o.openDir()
	if err != nil {
		b.Fatal(err)
	}
	defer dir.Close()
	b.Run("check", func(b *testing.B) {
		for b.Loop() {
			if err := o.unchanged(dir, base); err != nil {
				b.Fatal(err)
			}
		}
	})
}
