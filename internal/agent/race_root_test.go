package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/testrace"
)

// TestToolsRaceNeverLeaveTheRoot: while the folder of the review is
// swapped for a link to a folder outside the root that holds a review of
// the same name, the tools read and write the review inside or refuse;
// the one outside is never read (its marker never shows) nor written,
// hundreds of races over.
func TestToolsRaceNeverLeaveTheRoot(t *testing.T) {
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	s := newSession(t, Options{}, map[string]string{"sub/pr.review.json": fixture(t)})
	outside := t.TempDir()
	outsideText := strings.Replace(fixture(t), `"body": "`, `"body": "OUTSIDE-MARKER `, 1)
	writeFile(t, filepath.Join(outside, "pr.review.json"), outsideText)
	stop := testrace.SwapDir(t, filepath.Join(s.root, "sub"), outside)
	written, read := 0, 0
	for i := range rounds {
		res := s.call("lreview_reply", map[string]any{"file": "sub/pr.review.json", "id": "c1", "body": "race"})
		if !res.IsError {
			written++
		} else if text := resultText(res); !strings.HasPrefix(text, "file: ") {
			t.Fatalf("race %d: reply refused without naming the file: %s", i, text)
		}
		res = s.call("lreview_comments", map[string]any{"file": "sub/pr.review.json"})
		if text := resultText(res); strings.Contains(text, "OUTSIDE-MARKER") {
			t.Fatalf("race %d: lreview_comments read the review outside the root:\n%s", i, text)
		} else if !res.IsError {
			read++
		}
	}
	swaps := stop()
	data, err := os.ReadFile(filepath.Join(outside, "pr.review.json"))
	if err != nil || string(data) != outsideText {
		t.Fatalf("the review outside the root was written (%v):\n%s", err, data)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Fatalf("files appeared outside the root: %v", entries)
	}
	if got := strings.Count(s.read("sub/pr.review.json"), `"race"`); got != written {
		t.Errorf("%d replies answered OK, %d in the review", written, got)
	}
	t.Logf("%d races (the folder a link %d times): %d replies written inside, %d reads inside; nothing outside read or written", rounds, swaps, written, read)
}
