package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/testrace"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestWorktreeRaceNeverReadsOutside: while the source file's folder is
// swapped for a link to a folder outside the working tree, whose
// handler.go has the lines seven lower, definition and hover read the
// file inside or nothing: never line 79, never "moved 7 lines down".
func TestWorktreeRaceNeverReadsOutside(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	s := newWTSession(t, nil)
	s.waitCodes()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "handler.go"), []byte(testreviews.WorktreeSource(7, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	source := protocol.DocumentURI(uri.File(s.source))
	added, body := s.pos(`"+    _ = err`, 0), s.pos(`Return the error`, 0)
	stop := testrace.SwapDir(t, filepath.Join(s.root, "internal", "api"), outside)
	inside := 0
	for i := range rounds {
		for _, loc := range s.locations("textDocument/definition", added) {
			if loc.URI != source {
				continue
			}
			if loc.Range.Start.Line != 72 { // 0-based; the file outside has it at 79
				stop()
				t.Fatalf("race %d: definition read the file outside the root: %v", i, loc)
			}
			inside++
		}
		var h *protocol.Hover
		s.c.mustCall("textDocument/hover", s.textPos(body), &h)
		if h != nil && strings.Contains(h.Contents.Value, "lines down") {
			stop()
			t.Fatalf("race %d: hover read the file outside the root: %q", i, h.Contents.Value)
		}
	}
	swaps := stop()
	t.Logf("%d races (the folder a link %d times): definition reached the file inside %d times; nothing outside read", rounds, swaps, inside)
}
