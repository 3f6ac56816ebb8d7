package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

var testMembers = []member{
	{name: "lreview-lsp", data: []byte("\x7fELF not really"), exec: true},
	{name: "LICENSE", data: []byte("MIT License\n")},
}

// TestArchivesAreReproducible: written twice, at different moments and
// under another umask, an archive is the same bytes.
func TestArchivesAreReproducible(t *testing.T) {
	mtime := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	for _, write := range []func(string, string, []member, time.Time) error{writeTarGz, writeZip} {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if err := write(a, "x_1.0_linux_amd64", testMembers, mtime); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1100 * time.Millisecond) // a second later, as a second build would be
		if err := write(b, "x_1.0_linux_amd64", testMembers, mtime); err != nil {
			t.Fatal(err)
		}
		da, _ := os.ReadFile(a)
		db, _ := os.ReadFile(b)
		if !bytes.Equal(da, db) {
			t.Errorf("two archives of the same files differ (%d and %d bytes)", len(da), len(db))
		}
	}
}

func TestTarGzHolds(t *testing.T) {
	mtime := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "a.tar.gz")
	if err := writeTarGz(path, "x", testMembers, mtime); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header: got name %q, time %v; want neither", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		got = append(got, h.Name)
		if !h.ModTime.Equal(mtime) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: got time %v, owner %d:%d %q; want the commit's time and 0:0", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		if h.Name == "x/lreview-lsp" && (h.Mode != 0o755 || string(data) != string(testMembers[0].data)) {
			t.Errorf("%s: got mode %o, content %q; want 755 and the binary", h.Name, h.Mode, data)
		}
	}
	if want := []string{"x/", "x/lreview-lsp", "x/LICENSE"}; !slices.Equal(got, want) {
		t.Errorf("got members %q, want %q", got, want)
	}
}

func TestZipHolds(t *testing.T) {
	mtime := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "a.zip")
	if err := writeZip(path, "x", testMembers, mtime); err != nil {
		t.Fatal(err)
	}
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for _, f := range r.File {
		got = append(got, f.Name)
		if !f.Modified.Equal(mtime) {
			t.Errorf("%s: got time %v, want %v", f.Name, f.Modified, mtime)
		}
	}
	if want := []string{"x/", "x/lreview-lsp", "x/LICENSE"}; !slices.Equal(got, want) {
		t.Errorf("got members %q, want %q", got, want)
	}
	if m := r.File[1].Mode(); m.Perm() != 0o755 {
		t.Errorf("the binary's mode: got %v, want 0755", m)
	}
}
