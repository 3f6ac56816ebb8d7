package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadsFollowTheFile: the versions the tools share (reviewfile.Cache)
// follow the file. A save by rename is seen by the next read; a rewrite
// in place of the same size with the time set back keeps the identity,
// so a read-only tool may still list the version read before, but a tool
// that writes reads the bytes and edits the person's text, never the
// cached one; and what a tool wrote is what the next read lists.
func TestReadsFollowTheFile(t *testing.T) {
	review := fixture(t)
	s := newSession(t, Options{}, map[string]string{"pr.review.json": review})
	name := filepath.Join(s.root, "pr.review.json")
	body := func() string {
		t.Helper()
		var out CommentsOutput
		s.ok("lreview_comments", map[string]any{"file": "pr.review.json", "id": "c2"}, &out)
		if len(out.Comments) != 1 {
			t.Fatalf("lreview_comments listed %d comments for c2, want 1", len(out.Comments))
		}
		return out.Comments[0].Body
	}
	if got, want := body(), "The row is fetched twice."; got != want {
		t.Fatalf("c2's body is %q, want %q", got, want)
	}

	saved := strings.Replace(review, "The row is fetched twice.", "The row is fetched again.", 1)
	if err := os.WriteFile(name+".new", []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(name+".new", name); err != nil {
		t.Fatal(err)
	}
	if got, want := body(), "The row is fetched again."; got != want {
		t.Errorf("after a save by rename: c2's body is %q, want %q", got, want)
	}

	inPlace := strings.Replace(saved, "fetched again", "FETCHED AGAIN", 1)
	before, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(inPlace), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	s.ok("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c1", "body": "Done."}, new(ReplyOutput))
	if got := s.read("pr.review.json"); !strings.Contains(got, "The row is FETCHED AGAIN.") || !strings.Contains(got, "Done.") {
		t.Errorf("the reply was written over the cached version, not the person's:\n%s", got)
	}
	if got, want := body(), "The row is FETCHED AGAIN."; got != want {
		t.Errorf("after the reply: c2's body is %q, want %q", got, want)
	}
	var c1 CommentsOutput
	s.ok("lreview_comments", map[string]any{"file": "pr.review.json", "id": "c1"}, &c1)
	if n := len(c1.Comments); n != 1 || len(c1.Comments[0].Replies) == 0 || c1.Comments[0].Replies[len(c1.Comments[0].Replies)-1].Body != "Done." {
		t.Errorf("lreview_comments after the reply: %+v, want c1 with the reply Done. last", c1.Comments)
	}
}
