package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestRefusesHugeFile: a file past what the parser's 32-bit offsets hold
// is refused by name before it is read (the file here is sparse).
func TestRefusesHugeFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "huge.review.json")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(exchange.MaxSource + 1); err != nil {
		f.Close()
		t.Skipf("no sparse file: %v", err)
	}
	f.Close()
	for _, cmd := range []string{"check", "fmt"} {
		status, _, stderr := runCLI(cmd, name)
		if status != 2 || !strings.Contains(stderr, "huge.review.json: 2147483648 bytes, more than the 2147483647") {
			t.Errorf("%s: status %d, stderr %q", cmd, status, stderr)
		}
	}
}
