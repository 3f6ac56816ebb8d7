package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture is the review most tests start from: c1 holds, c2 drifted, c3
// orphaned, c4 dismissed.
func fixture(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "review.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestCheck(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{
		"pr.review.json":     fixture(t),
		"broken.review.json": `{"leanreview_review": 1, "patch": [`,
	})
	var out CheckOutput
	text := s.ok("lreview_check", map[string]any{"file": "pr.review.json"}, &out)
	want := []Diagnostic{
		{Code: "unknown-field", Severity: "hint", Line: 57, CommentID: "c1", Message: `unknown member "x-rating" in comment c1: tolerated, but leanreview's rewrite drops it`},
		{Code: "snippet-mismatch", Severity: "warning", Line: 69, CommentID: "c2", Fix: "Re-anchor c2 to RIGHT 13"},
		{Code: "orphaned-anchor", Severity: "information", Line: 76, CommentID: "c3"},
	}
	if len(out.Diagnostics) != len(want) {
		t.Fatalf("got %d diagnostics %+v, want %d", len(out.Diagnostics), out.Diagnostics, len(want))
	}
	for i, w := range want {
		g := out.Diagnostics[i]
		if g.Code != w.Code || g.Severity != w.Severity || g.Line != w.Line || g.CommentID != w.CommentID || w.Message != "" && g.Message != w.Message || !strings.HasPrefix(g.Fix, w.Fix) {
			t.Errorf("diagnostic %d: got %+v, want %+v", i, g, w)
		}
	}
	if got := (Counts{Warning: 1, Information: 1, Hint: 1}); out.Counts != got || !out.Clean {
		t.Errorf("got counts %+v clean %v, want %+v clean", out.Counts, out.Clean, got)
	}
	if want := "pr.review.json: 0 errors, 1 warning, 1 information, 1 hint"; text[:len(want)] != want {
		t.Errorf("got text %q, want it to start with %q", text, want)
	}

	// A file that is not valid JSON is checked, not refused: that is what
	// check is for.
	s.ok("lreview_check", map[string]any{"file": "broken.review.json"}, &out)
	if out.Clean || out.Counts.Error != 2 || !slices.ContainsFunc(out.Diagnostics, func(d Diagnostic) bool { return d.Code == "syntax" }) {
		t.Errorf("broken file: got %+v, want a syntax error", out)
	}
}

func TestReadRefusals(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.review.json")
	writeFile(t, outside, fixture(t))
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	if err := os.Symlink(outside, filepath.Join(s.root, "link.review.json")); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"lreview_check", "lreview_comments", "lreview_fix"} {
		s.refused(tool, map[string]any{"file": "../outside.review.json"}, "file: ", "outside the server's root")
		s.refused(tool, map[string]any{"file": "link.review.json"}, "file: link.review.json is outside the server's root")
		s.refused(tool, map[string]any{"file": outside}, "outside the server's root")
		s.refused(tool, map[string]any{"file": "missing.review.json"}, "file: cannot read missing.review.json")
		s.refused(tool, map[string]any{"file": ""}, "file: expected a file path")
		s.refused(tool, map[string]any{}, "file") // the schema requires it
	}
	s.refused("lreview_comments", map[string]any{"file": "pr.review.json", "state": "closed"}, "state")
}

func TestComments(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var out CommentsOutput
	text := s.ok("lreview_comments", map[string]any{"file": "pr.review.json"}, &out)
	for _, want := range []string{
		"pr.review.json: 4 comments\nc1 [active, anchor ok] app/users.py RIGHT 12 by assistant\n  | +    with closing(connect()) as conn:\n  Fetch inside",
		"\n  reply by hduran: Agreed.\n",
		"\n  candidates: app/users.py RIGHT 13 (preferred)",
		"c4 [dismissed, anchor ok] app/test_users.py RIGHT 4",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("got text\n%s\nwant it to hold %q", text, want)
		}
	}
	var ids []string
	for _, c := range out.Comments {
		ids = append(ids, c.ID+":"+c.State+":"+c.Anchor.Status)
	}
	if want := []string{"c1:active:ok", "c2:active:drift", "c3:orphaned:orphaned", "c4:dismissed:ok"}; !slices.Equal(ids, want) {
		t.Fatalf("got %v, want %v", ids, want)
	}
	c1, c2, c3 := out.Comments[0], out.Comments[1], out.Comments[2]
	if want := []string{"+    with closing(connect()) as conn:"}; !slices.Equal(c1.Lines, want) {
		t.Errorf("c1 lines: got %q, want %q", c1.Lines, want)
	}
	if c1.Body != "Fetch inside the `with` block — the connection closes when it ends 🙂" || len(c1.Replies) != 1 || c1.Replies[0] != (Reply{Author: "hduran", Body: "Agreed."}) {
		t.Errorf("c1: got body %q replies %+v", c1.Body, c1.Replies)
	}
	if len(c2.Anchor.Candidates) == 0 || c2.Anchor.Candidates[0] != (Location{Path: "app/users.py", Side: "RIGHT", StartLine: 13, EndLine: 13, Preferred: true}) {
		t.Errorf("c2 candidates: got %+v, want RIGHT 13 preferred first", c2.Anchor.Candidates)
	}
	if want := []string{" "}; !slices.Equal(c2.Lines, want) { // RIGHT 10 is a blank context line
		t.Errorf("c2 lines: got %q, want %q", c2.Lines, want)
	}
	if c3.Anchor.Reason != "line-not-in-image" || len(c3.Lines) != 0 || c3.Anchor.Message == "" {
		t.Errorf("c3 anchor: got %+v lines %q, want orphaned line-not-in-image with a message", c3.Anchor, c3.Lines)
	}

	s.ok("lreview_comments", map[string]any{"file": "pr.review.json", "state": "dismissed"}, &out)
	if len(out.Comments) != 1 || out.Comments[0].ID != "c4" {
		t.Errorf("state dismissed: got %+v, want c4 only", out.Comments)
	}
	s.ok("lreview_comments", map[string]any{"file": "pr.review.json", "path": "app/test_users.py"}, &out)
	if len(out.Comments) != 1 || out.Comments[0].ID != "c4" {
		t.Errorf("path app/test_users.py: got %+v, want c4 only", out.Comments)
	}
}
