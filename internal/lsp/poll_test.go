package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestPollNoticesASourceSaved: a client that registers no file watchers
// (Neovim on Linux) is told of a source file saved outside the review
// all the same: the server looks at the reviewed files itself, and
// source-changed follows within two seconds of the save, without any
// message from the client.
func TestPollNoticesASourceSaved(t *testing.T) {
	s := openWatchless(t, 50*time.Millisecond)
	// The first publish reads the files on the side; wait until the
	// server polls them, then save the source as an editor would.
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.c.srv.wt.mu.Lock()
		n := len(s.c.srv.wt.polled[s.uri])
		s.c.srv.wt.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the review's files were never polled")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(2 * pollSlices * 50 * time.Millisecond) // two cycles: the file's first stamp is seen
	saved := time.Now()
	later := saved.Add(time.Hour)
	if err := os.WriteFile(s.source, []byte(testreviews.WorktreeSource(0, "    result, err := calculate(input, opts)")), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(s.source, later, later)
	s.waitCodes(features.CodeSourceChanged)
	if took := time.Since(saved); took > 2*time.Second {
		t.Errorf("source-changed came %v after the save, want within 2s", took)
	}
}

// TestPollCycleWork: idle, the poller looks at each of 2,000 reviewed
// files once per cycle, a part of them each round, opening each
// directory once per round rather than walking every file's path from
// the root; what it costs is BenchmarkPollCycle's.
func TestPollCycleWork(t *testing.T) {
	root := t.TempDir()
	names := pollTree(t, root, maxPolled)
	s := NewServer(Options{})
	s.wt.folders = []string{root}
	review := protocol.DocumentURI(uri.File(filepath.Join(root, "x.review.json")))
	s.wt.polled[review] = names
	p := &patchPoll{seen: map[pollKey]fileStamp{}}
	for round := range pollSlices {
		before, seen := p.lookups, len(p.seen)
		s.pollRound(p)
		if got, most := len(p.seen)-seen, (maxPolled+pollSlices-1)/pollSlices; got > most || got == 0 {
			t.Errorf("round %d looked at %d new files, want 1 to %d (a part)", round, got, most)
		}
		// pollTree puts ten files in a directory: a part's directories
		// are a tenth of its files, give or take the part's edges, and
		// their parents a few more (each opened once, from its parent).
		// Walking each file's path from the root was four opens a file.
		if got, most := p.lookups-before, (maxPolled/pollSlices+1)*11/10+10; got > most {
			t.Errorf("round %d: %d lookups, want at most %d (a file each, a directory each)", round, got, most)
		}
	}
	if len(p.seen) != maxPolled {
		t.Errorf("a cycle looked at %d files, want %d", len(p.seen), maxPolled)
	}
	// Idle: a second cycle sees no change.
	for range pollSlices {
		if changed := s.pollRound(p); len(changed) > 0 {
			t.Errorf("idle round: got changes in %v", changed)
		}
	}
	// A file changed is seen within the cycle.
	changed := filepath.Join(root, filepath.FromSlash(names[1234]))
	if err := os.WriteFile(changed, []byte("package p // changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var hits []string
	for range pollSlices {
		hits = append(hits, s.pollRound(p)...)
	}
	if len(hits) != 1 || hits[0] != changed {
		t.Errorf("a cycle after %s changed: got %v, want [%s]", names[1234], hits, changed)
	}
}

// pollTree writes n files under root, ten to a directory three levels
// down (internal/pkgNN/subNN/file_N.go, as a Go module's tree is), and
// returns their paths relative to root in slash form.
func pollTree(tb testing.TB, root string, n int) []string {
	tb.Helper()
	var names []string
	for i := range n {
		rel := fmt.Sprintf("internal/pkg%02d/sub%02d/file_%d.go", i/100, i/10%10, i)
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte("package p\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
		names = append(names, rel)
	}
	return names
}

// TestSaveNoticesASourceSaved: a client that registers no file watchers
// tells of a source file it saved by didSave, and source-changed follows
// at once, without the poller (off here).
func TestSaveNoticesASourceSaved(t *testing.T) {
	s := openWatchless(t, -1)
	text := testreviews.WorktreeSource(0, "    result, err := calculate(input, opts)")
	source := protocol.DocumentURI(uri.File(s.source))
	s.c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": source, "languageId": "go", "version": 1, "text": text}})
	later := time.Now().Add(time.Hour)
	if err := os.WriteFile(s.source, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(s.source, later, later)
	s.c.notifyServer("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": source}})
	s.waitCodes(features.CodeSourceChanged)
}

// openWatchless opens the working-tree review in a server whose client
// registers no file watchers, polling every poll (-1: never), and waits
// for its first diagnostics.
func openWatchless(t *testing.T, poll time.Duration) *wtSession {
	t.Helper()
	root, review := testreviews.WorktreeRepo(t, 0, "")
	c := newTestClient(t, Options{Poll: poll})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	initializeIn(c, root, caps, nil)
	s := &wtSession{t: t, c: c, root: root, uri: protocol.DocumentURI(uri.File(review)), source: filepath.Join(root, "internal", "api", "handler.go")}
	c.open(s.uri, testreviews.WorktreeReview)
	s.waitCodes()
	return s
}
