package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// The tests of this file drive export and import as a person posting to
// a self-hosted Gitea does, against what a real Gitea 1.25.4 answered
// (../shared/forge/gitea-1.25.4/, read through refdata).

const giteaDir = "forge/gitea-1.25.4/"

// giteaFile is a recorded file, copied where the CLI reads it.
func giteaFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), filepath.Base(rel))
	writeFile(t, p, refdata.File(t, giteaDir+rel), 0o644)
	return p
}

// giteaClone clones the recorded repository (inventory.bundle).
func giteaClone(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	bundle := giteaFile(t, "inventory.bundle")
	dir := filepath.Join(t.TempDir(), "inventory")
	if out, err := exec.Command("git", "clone", "-q", bundle, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	if out, err := exec.Command("git", "-C", dir, "fetch", "-q", "origin", "feature:feature").CombinedOutput(); err != nil {
		t.Fatalf("git fetch: %v\n%s", err, out)
	}
	return dir
}

// TestExportGiteaPlacesAsPosted exports the recorded review as it was
// posted: the payload is the one Gitea took with 200 and placed every
// comment of on the intended file, side and line (posted-review.json).
func TestExportGiteaPlacesAsPosted(t *testing.T) {
	var posted map[string]any
	if err := json.Unmarshal(refdata.File(t, giteaDir+"posted-review.json"), &posted); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("export", "--to", "gitea", "--cohorts=false", "--commit", posted["commit_id"].(string), giteaFile(t, "pr.review.json"))
	if code != 0 {
		t.Fatalf("got exit %d, want 0:\n%s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, posted) {
		t.Errorf("got the payload\n%s\nwant the one Gitea took (posted-review.json)", stdout)
	}
	if !strings.Contains(stderr, "c04: Gitea holds one line") || !strings.Contains(stderr, "left out c10: dismissed") {
		t.Errorf("got stderr\n%s\nwant c04's range narrowed and c10 left out, each said", stderr)
	}
}

// giteaReview is the recorded review with its title, summary and all but
// its first comment taken out, the first dismissed when dismissFirst.
func giteaReview(t *testing.T, dismissFirst bool) string {
	t.Helper()
	var rv map[string]any
	if err := json.Unmarshal(refdata.File(t, giteaDir+"pr.review.json"), &rv); err != nil {
		t.Fatal(err)
	}
	delete(rv, "title")
	delete(rv, "summary")
	c := rv["comments"].([]any)[0].(map[string]any)
	delete(c, "replies")
	if dismissFirst {
		c["state"] = "dismissed"
	}
	rv["comments"] = []any{c}
	data, err := json.Marshal(rv)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.review.json")
	writeFile(t, p, data, 0o644)
	return p
}

// TestExportGiteaNoRefusedPayload: Gitea refused REQUEST_CHANGES with an
// empty body even with comments (422, recorded), and COMMENT with neither
// body nor comment. The first now carries a body that says what it holds;
// the second prints nothing and exits 1, naming what is missing.
func TestExportGiteaNoRefusedPayload(t *testing.T) {
	var refused struct {
		Body string `json:"body"`
	}
	if err := json.Unmarshal(refdata.File(t, giteaDir+"event-request-changes-empty-body.request.json"), &refused); err != nil {
		t.Fatal(err)
	}
	if status := strings.TrimSpace(string(refdata.File(t, giteaDir+"event-request-changes-empty-body.status"))); status != "422" || refused.Body != "" {
		t.Fatalf("the recorded refusal is %s with body %q; this test reads a 422 of an empty body", status, refused.Body)
	}
	code, stdout, stderr := runCLI("export", "--to", "gitea", "--event", "REQUEST_CHANGES", giteaReview(t, false))
	var rv struct {
		Event, Body string
		Comments    []any
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &rv) != nil {
		t.Fatalf("got exit %d, stdout %q, stderr\n%s\nwant a payload", code, stdout, stderr)
	}
	if rv.Event != "REQUEST_CHANGES" || !strings.HasPrefix(rv.Body, "Changes requested: 1 comment.") || len(rv.Comments) != 1 {
		t.Errorf("got event %q, body %q, %d comments; want REQUEST_CHANGES with a body saying 1 comment", rv.Event, rv.Body, len(rv.Comments))
	}
	if !strings.Contains(stderr, "takes a REQUEST_CHANGES review only with a body") {
		t.Errorf("got stderr\n%s\nwant the filled body said", stderr)
	}

	for _, event := range []string{"COMMENT", "REQUEST_CHANGES"} {
		code, stdout, stderr = runCLI("export", "--to", "gitea", "--event", event, giteaReview(t, true))
		if code != 1 || stdout != "" || !strings.Contains(stderr, "Gitea refuses a "+event+" review without a body") {
			t.Errorf("%s with nothing to post: got exit %d, stdout %q, stderr\n%s\nwant exit 1, nothing printed, the refusal named", event, code, stdout, stderr)
		}
	}
	code, stdout, stderr = runCLI("export", "--to", "gitea", "--event", "APPROVE", giteaReview(t, true))
	if code != 0 || !strings.Contains(stdout, `"event": "APPROVED"`) {
		t.Errorf("APPROVE with nothing else: got exit %d, stdout %q, stderr\n%s\nwant the approval (Gitea takes it without a body)", code, stdout, stderr)
	}
}

// TestExportGiteaCommit: a commit_id Gitea does not have got 500 and left
// a pending review behind (recorded). A short name is refused; with
// --repo, a commit the clone does not have, or one whose files are not the
// patch's, is warned about; the head the patch is of passes quietly.
func TestExportGiteaCommit(t *testing.T) {
	review := giteaFile(t, "pr.review.json")
	code, _, stderr := runCLI("export", "--to", "gitea", "--commit", "8b521b0", review)
	if code != 2 || !strings.Contains(stderr, "whole SHA") {
		t.Errorf("a short --commit: got exit %d, stderr\n%s\nwant 2 and why", code, stderr)
	}
	repo := giteaClone(t)
	var unknown struct {
		CommitID string `json:"commit_id"`
	}
	if err := json.Unmarshal(refdata.File(t, giteaDir+"unknown-commit.request.json"), &unknown); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ commit, want string }{
		{unknown.CommitID, "is not in " + repo + ": if the forge does not have it either, it refuses the review (Gitea answers 500"},
		{"48bbaa8" + strings.Repeat("0", 33), "is not in"},
		{revParse(t, repo, "48bbaa8"), "is not the patch's head: at it, README.md, cmd/server/main.go"},
		{revParse(t, repo, "8b521b0"), ""},
	} {
		code, stdout, stderr := runCLI("export", "--to", "gitea", "--repo", repo, "--commit", c.commit, review)
		if code != 0 || stdout == "" {
			t.Errorf("--commit %s: got exit %d, want the payload printed (a warning does not refuse)\n%s", c.commit, code, stderr)
		}
		warned := strings.Contains(stderr, "warning:")
		if c.want == "" && warned || c.want != "" && !strings.Contains(stderr, c.want) {
			t.Errorf("--commit %s: got stderr\n%s\nwant %q", c.commit, stderr, cmpOr(c.want, "no warning"))
		}
	}
}

func revParse(t *testing.T, repo, rev string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "rev-parse", rev).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestImportGiteaRecorded imports the pull request as read after the
// third push (state3), with and without the clone: with it, c03's line is
// followed to where the push moved it; without, c03 is stale and what is
// unknown is said. Either file passes check (exit 0); the places Gitea
// took outside the diff are orphaned.
func TestImportGiteaRecorded(t *testing.T) {
	repo := giteaClone(t)
	head := strings.TrimSpace(string(refdata.File(t, giteaDir+"state3/head")))
	args := []string{"import", "--from", "gitea", "--comments", giteaFile(t, "state3/comments.json"), "--reviews", giteaFile(t, "state3/reviews.json"),
		"--patch", giteaFile(t, "state3/pr.diff"), "--head", head, "--trust", "rita"}
	for _, withRepo := range []bool{false, true} {
		a := args
		if withRepo {
			a = append(append([]string(nil), args...), "--repo", repo)
		}
		out := filepath.Join(t.TempDir(), "pr.review.json")
		code, _, stderr := runCLI(append(a, "-o", out)...)
		if code != 0 {
			t.Fatalf("--repo %v: got exit %d:\n%s", withRepo, code, stderr)
		}
		var rv struct {
			Comments []struct {
				ID, State string
				StartLine int `json:"start_line"`
			}
		}
		if err := json.Unmarshal(readFile(t, out), &rv); err != nil {
			t.Fatal(err)
		}
		states := map[string]string{}
		for _, c := range rv.Comments {
			states[c.ID] = c.State
			if c.ID == "c03" && withRepo && (c.State != "active" || c.StartLine != 60) {
				t.Errorf("--repo: c03 got %s at RIGHT %d, want active at RIGHT 60 (the push moved it up one)", c.State, c.StartLine)
			}
		}
		if !withRepo && states["c03"] != "stale" {
			t.Errorf("no --repo: c03 got %q, want stale (its line reads otherwise at the head)", states["c03"])
		}
		if states["gitea-20"] != "orphaned" || states["gitea-26"] != "orphaned" {
			t.Errorf("--repo %v: the places outside the diff got %q, %q, want orphaned", withRepo, states["gitea-20"], states["gitea-26"])
		}
		if code, stdout, _ := runCLI("check", out); code != 0 {
			t.Errorf("--repo %v: check on the imported file exits %d, want 0:\n%s", withRepo, code, stdout)
		}
		if _, err := os.Stat(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImportRefusesNonListings: a listing that is null, or no listing,
// is refused with exit 1 naming its file, on every forge (it imported as
// an empty review with exit 0).
func TestImportRefusesNonListings(t *testing.T) {
	dir := t.TempDir()
	patch := filepath.Join(dir, "pr.diff")
	writeFile(t, patch, []byte("diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-x\n+y\n"), 0o644)
	for _, f := range []struct{ from, flag string }{
		{"github", "--comments"}, {"gitlab", "--discussions"}, {"gerrit", "--comments"},
		{"gitea", "--comments"}, {"bitbucket", "--activities"}, {"azure", "--threads"},
	} {
		for _, body := range []string{"null", "null\n", `{"values": null}`, "42"} {
			listing := filepath.Join(dir, f.from+".json")
			writeFile(t, listing, []byte(body), 0o644)
			code, stdout, stderr := runCLI("import", "--from", f.from, f.flag, listing, "--patch", patch)
			if code != 1 || stdout != "" || !strings.Contains(stderr, listing) {
				t.Errorf("%s %s %q: got exit %d, stdout %q, stderr %q; want exit 1 naming the file", f.from, f.flag, body, code, stdout, stderr)
			}
		}
	}
}
