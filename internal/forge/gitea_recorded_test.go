package forge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// The tests of this file read what a real Gitea 1.25.4 answered
// (../shared/forge/gitea-1.25.4/, its README says what was done): the
// review exported and posted, and the pull request read back before and
// after a later push.

const giteaRecorded = "forge/gitea-1.25.4/"

// giteaState imports one recorded state of the pull request: its
// comments, its reviews and its diff, --head the given commit (the
// state's own head when ""), trusting rita, who posted the export.
func giteaState(t *testing.T, state, head string, revs Revisions) (*Imported, map[string]importedComment) {
	t.Helper()
	dir := giteaRecorded + state + "/"
	comments, err := ReadGiteaComments("comments.json", refdata.File(t, dir+"comments.json"))
	if err != nil {
		t.Fatal(err)
	}
	reviews, err := ReadGiteaReviews("reviews.json", refdata.File(t, dir+"reviews.json"))
	if err != nil {
		t.Fatal(err)
	}
	if head == "" {
		head = strings.TrimSpace(string(refdata.File(t, dir+"head")))
	}
	patch := refdata.Lines(refdata.File(t, dir+"pr.diff"))
	im, err := ImportGitea(comments, reviews, patch, ImportOptions{Head: head, Trust: []string{"rita"}, Revisions: revs})
	if err != nil {
		t.Fatal(err)
	}
	checkImported(t, im)
	return im, importedByID(t, im)
}

// importedComment is an imported comment's place and state.
type importedComment struct {
	Path      string    `json:"path"`
	Side      string    `json:"side"`
	StartLine int       `json:"start_line"`
	EndLine   int       `json:"end_line"`
	State     string    `json:"state"`
	Author    string    `json:"author"`
	Body      string    `json:"body"`
	Replies   []exReply `json:"replies"`
}

func importedByID(t *testing.T, im *Imported) map[string]importedComment {
	t.Helper()
	var rv struct {
		Comments []struct {
			ID string `json:"id"`
			importedComment
		} `json:"comments"`
	}
	if err := json.Unmarshal(im.Data, &rv); err != nil {
		t.Fatal(err)
	}
	out := map[string]importedComment{}
	for _, c := range rv.Comments {
		out[c.ID] = c.importedComment
	}
	return out
}

// checkImported fails the test when the imported document has an error
// diagnostic: what `check` would exit 1 on.
func checkImported(t *testing.T, im *Imported) {
	t.Helper()
	doc := exchange.Parse(im.Data)
	for _, d := range anchor.CheckDocument(doc, nil).Diagnostics {
		if d.Severity == exchange.SeverityError {
			line, _ := doc.Mapper().LineCol(d.Range.Start)
			t.Errorf("the imported review does not pass check: %d: %s [%s]", line, d.Message, d.Code)
		}
	}
}

// TestGiteaRecordedImport reads the pull request right after the export
// was posted (state1): every comment comes back on the place the review
// meant (pr.review.json), none stale though Gitea gives c01, c03 and c08
// the commit git blame gives their lines; the dismissed review's comment
// dismissed, ana's posts replies.
func TestGiteaRecordedImport(t *testing.T) {
	_, got := giteaState(t, "state1", "", nil)
	var want struct {
		Comments []struct {
			ID string `json:"id"`
			importedComment
		} `json:"comments"`
	}
	if err := json.Unmarshal(refdata.File(t, giteaRecorded+"pr.review.json"), &want); err != nil {
		t.Fatal(err)
	}
	for _, w := range want.Comments {
		g, ok := got[w.ID]
		if w.State == exchange.StateDismissed {
			if ok {
				t.Errorf("%s: dismissed in the review, so not posted; got it imported", w.ID)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: not imported", w.ID)
			continue
		}
		if g.Path != w.Path || g.Side != w.Side || g.StartLine != w.StartLine || g.EndLine != w.EndLine {
			t.Errorf("%s: got %s %s %d–%d, want %s %s %d–%d", w.ID, g.Path, g.Side, g.StartLine, g.EndLine, w.Path, w.Side, w.StartLine, w.EndLine)
		}
		if g.State != exchange.StateActive || g.Author != "rita" {
			t.Errorf("%s: got state %q by %q, want active by rita", w.ID, g.State, g.Author)
		}
	}
	if x := got["x01"]; x.State != exchange.StateDismissed {
		t.Errorf("x01 (its review dismissed through the API): got state %q, want dismissed", x.State)
	}
	if c := got["c01"]; len(c.Replies) != 3 || c.Replies[2].Author != "ana" {
		t.Errorf("c01: got replies %+v, want bo's and rita's quoted ones, then ana's from the web interface", c.Replies)
	}
	if c := got["c02"]; len(c.Replies) != 1 || c.Replies[0].Author != "ana" {
		t.Errorf("c02: got replies %+v, want ana's review comment at its place", c.Replies)
	}
}

// TestGiteaRecordedPush reads the pull request after a third commit
// (state3) without the repository: c03's line moved up one, so what
// Gitea quotes for it no longer reads there: stale. c01's line reads as
// it did (the push deleted the line after it): kept active, said
// unknown. The comments a client placed outside the diff (Gitea took them
// with 200) are orphaned, each said; cache.go's c08, which the push did
// not touch, stays active.
func TestGiteaRecordedPush(t *testing.T) {
	im, got := giteaState(t, "state3", "", nil)
	for id, want := range map[string]string{"c01": exchange.StateActive, "c03": exchange.StateStale, "c08": exchange.StateActive,
		"c02": exchange.StateActive, "gitea-20": exchange.StateOrphaned, "gitea-24": exchange.StateOrphaned, "gitea-26": exchange.StateOrphaned} {
		if g := got[id]; g.State != want {
			t.Errorf("%s: got state %q, want %q", id, g.State, want)
		}
	}
	notes := strings.Join(im.Notes, "\n")
	for _, want := range []string{"c03: made on commit 8b521b0a04e0, the head is 42119f859f8b: its line read otherwise then", "(comment 2, comment 5, comment 6, comment 9 and comment 10)", "gitea-20: RIGHT 20 of \"internal/store/store.go\" is not in the patch"} {
		if !strings.Contains(notes, want) {
			t.Errorf("got notes\n%s\nwant one with %q", notes, want)
		}
	}
}

// giteaMoves is a Revisions answering one diff, as git diff -U0 would for
// store.go between 8b521b0 and 42119f8 (the push of state3).
type giteaMoves map[string]string

func (m giteaMoves) Diff(from, to, path string) ([]byte, error) {
	return []byte(m[path]), nil
}

// TestGiteaRecordedPushMapped is the same read with the lines mapped
// through the push's diff: c03 moves up to RIGHT 60 and stays active; c01
// stays on RIGHT 29, which the push did not touch; nothing is unknown.
func TestGiteaRecordedPushMapped(t *testing.T) {
	revs := giteaMoves{"internal/store/store.go": "@@ -30 +29,0 @@\n@@ -38,2 +37,2 @@\n"}
	im, got := giteaState(t, "state3", "", revs)
	if c := got["c03"]; c.State != exchange.StateActive || c.StartLine != 60 {
		t.Errorf("c03: got %s at RIGHT %d, want active at RIGHT 60\nnotes:\n%s", c.State, c.StartLine, strings.Join(im.Notes, "\n"))
	}
	if c := got["c01"]; c.State != exchange.StateActive || c.StartLine != 29 {
		t.Errorf("c01: got %s at RIGHT %d, want active at RIGHT 29", c.State, c.StartLine)
	}
	if notes := strings.Join(im.Notes, "\n"); strings.Contains(notes, "unknown") || !strings.Contains(notes, "c03") {
		t.Errorf("got notes\n%s\nwant c03's move said and nothing unknown", notes)
	}
}

// TestGiteaRecordedNoReviews reads state1 without the reviews: the commit
// each comment was made on is then unknown (the one Gitea lists for a
// comment is git blame's), so none is stale, and one note says so.
func TestGiteaRecordedNoReviews(t *testing.T) {
	dir := giteaRecorded + "state1/"
	comments, err := ReadGiteaComments("comments.json", refdata.File(t, dir+"comments.json"))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(string(refdata.File(t, dir+"head")))
	im, err := ImportGitea(comments, nil, refdata.Lines(refdata.File(t, dir+"pr.diff")), ImportOptions{Head: head, Trust: []string{"rita"}})
	if err != nil {
		t.Fatal(err)
	}
	checkImported(t, im)
	for id, c := range importedByID(t, im) {
		if c.State == exchange.StateStale {
			t.Errorf("%s: got stale, want no comment stale when the commit it was made on is unknown", id)
		}
	}
	var unknown []string
	for _, n := range im.Notes {
		if strings.Contains(n, "the commit each was made on is unknown (import --reviews gives it") {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) != 1 {
		t.Errorf("got notes\n%s\nwant one saying the commits are unknown", strings.Join(im.Notes, "\n"))
	}
}

// failingRevisions is a repository that does not have the commits.
type failingRevisions struct{}

func (failingRevisions) Diff(from, to, path string) ([]byte, error) {
	return nil, errors.New("fatal: bad object " + from)
}

// TestGiteaRecordedPushRepoLacksCommit: when the clone lacks the commit
// the comments were made on, the import says so once and reads them as
// without a repository (c03 stale by what Gitea quotes).
func TestGiteaRecordedPushRepoLacksCommit(t *testing.T) {
	im, got := giteaState(t, "state3", "", failingRevisions{})
	if c := got["c03"]; c.State != exchange.StateStale {
		t.Errorf("c03: got %s, want stale (read from the line Gitea quotes)", c.State)
	}
	n := 0
	for _, note := range im.Notes {
		if strings.Contains(note, "the repository cannot map") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("got %d notes on the repository's failure, want 1:\n%s", n, strings.Join(im.Notes, "\n"))
	}
}
