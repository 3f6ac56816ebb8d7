package reviewgen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestGenerateIsValidAndDeterministic(t *testing.T) {
	cfg := Config{Files: 20, DiffLines: 5000, Comments: 300, Seed: 7}
	a, b := Generate(cfg), Generate(cfg)
	if !bytes.Equal(a, b) {
		t.Fatalf("Generate is not deterministic for %+v", cfg)
	}
	var doc struct {
		Version  int               `json:"leanreview_review"`
		Patch    []string          `json:"patch"`
		Comments []json.RawMessage `json:"comments"`
	}
	if err := json.Unmarshal(a, &doc); err != nil {
		t.Fatalf("Generate gives invalid JSON: %v", err)
	}
	if doc.Version != 1 {
		t.Errorf("got version %d, want 1", doc.Version)
	}
	if got := len(doc.Patch); got < cfg.DiffLines*9/10 || got > cfg.DiffLines {
		t.Errorf("got %d patch lines, want about %d", got, cfg.DiffLines)
	}
	if got := len(doc.Comments); got != cfg.Comments {
		t.Errorf("got %d comments, want %d", got, cfg.Comments)
	}
	if got := strings.Count(string(a), "diff --git "); got != cfg.Files {
		t.Errorf("got %d file diffs, want %d", got, cfg.Files)
	}
	if !bytes.HasSuffix(a, []byte("}\n")) {
		t.Errorf("document does not end with a final newline")
	}
	if other := Generate(Config{Files: 20, DiffLines: 5000, Comments: 300, Seed: 8}); bytes.Equal(a, other) {
		t.Errorf("seeds 7 and 8 give the same document")
	}
}

func TestGenerateDefaultSize(t *testing.T) {
	if testing.Short() {
		t.Skip("large document")
	}
	b := Generate(Config{})
	if len(b) < 6<<20 || len(b) > 11<<20 {
		t.Errorf("default document is %d bytes, want about 8 MB", len(b))
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	t.Logf("default: %d bytes, %d patch lines, %d comments", len(b), len(v["patch"].([]any)), len(v["comments"].([]any)))
}
