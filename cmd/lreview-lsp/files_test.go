package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
)

// TestRefusesHugeFile: a file past the size limit (the language server's)
// is refused by name before it is read (the file here is sparse).
func TestRefusesHugeFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "huge.review.json")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(filewrite.MaxSize + 1); err != nil {
		f.Close()
		t.Skipf("no sparse file: %v", err)
	}
	f.Close()
	for _, args := range [][]string{{"check", name}, {"fmt", name}, {"fmt", "-w", name}, {"new", name}, {"fix", "-w", name}} {
		status, _, stderr := runCLI(args...)
		if status != 2 || !strings.Contains(stderr, "huge.review.json: 67108865 bytes, over the limit of 67108864 bytes (64 MiB) on a review or a diff; nothing read") {
			t.Errorf("%s: status %d, stderr %q", args, status, stderr)
		}
	}
}
