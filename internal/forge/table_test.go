package forge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// tableReview is a review of identityPatch with one comment on RIGHT 2,
// its body body and its state state, and the title given.
func tableReview(t *testing.T, title, body, state string) *Plan {
	t.Helper()
	rv := map[string]any{"leanreview_review": 1, "patch": identityPatch, "comments": []any{map[string]any{
		"id": "c1", "author": "hduran", "path": "main.go", "side": "RIGHT", "start_line": 2, "body": body, "state": state}}}
	if title != "" {
		rv["title"] = title
	}
	data, err := json.Marshal(rv)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := NewPlan(exchange.Parse(data))
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// gitlabOpts are the three SHAs of a merge request version, as GitLab's
// versions example lists them.
var gitlabOpts = Options{BaseSHA: "33e2ee8579fda5bc36accc9c6fbd0b4fefda9e30", StartSHA: "33e2ee8579fda5bc36accc9c6fbd0b4fefda9e30", HeadSHA: "aaf1eba0c3ab4b7e1e0b2e9b2fb8f0e9e6b3b1b5"}

// TestExportRefusesWhatForgesRefuse exports, with every forge of the
// table, the reviews each forge's API reference says it refuses: nothing
// to post, a body past its limit, a body its event requires. Each is an
// error naming what is missing, or a body filled with what the review
// carries.
func TestExportRefusesWhatForgesRefuse(t *testing.T) {
	nothing := tableReview(t, "", "Fine.", exchange.StateDismissed)
	for _, f := range Forges() {
		opts := gitlabOpts
		_, _, err := f.Export(nothing, opts)
		if err == nil {
			t.Errorf("%s: a review with nothing to post: got a payload, want a refusal", f.Name)
		}
		if f.Name == "github" || f.Name == "gitea" {
			opts.Event = EventApprove
			if _, _, err := f.Export(nothing, opts); err != nil {
				t.Errorf("%s: an approval with nothing else: got %v, want it (an approval needs no body)", f.Name, err)
			}
		}
	}
	long := func(n int) string { return strings.Repeat("é", n) }
	for _, c := range []struct {
		forge string
		max   int
	}{{"github", 65536}, {"gitlab", 1_000_000}, {"gerrit", 16 << 10}} {
		f, _ := ForgeNamed(c.forge)
		// The marker and quoted lines come on top of the body: well
		// under the limit it is taken, one character over it is not.
		if _, _, err := f.Export(tableReview(t, "T", long(c.max-100), exchange.StateActive), gitlabOpts); err != nil {
			t.Errorf("%s: a body under the limit: got %v", c.forge, err)
		}
		_, _, err := f.Export(tableReview(t, "T", long(c.max+1), exchange.StateActive), gitlabOpts)
		if err == nil || !strings.Contains(err.Error(), "c1's body") || !strings.Contains(err.Error(), "at most") {
			t.Errorf("%s: a body over the limit: got %v, want a refusal naming c1 and the limit", c.forge, err)
		}
	}
	for _, c := range []struct{ forge, event, want string }{
		{"github", EventComment, "1 comment."},
		{"github", EventRequestChanges, "Changes requested: 1 comment."},
		{"gitea", EventRequestChanges, "Changes requested: 1 comment."},
		{"gitea", EventComment, ""}, // Gitea takes a comment without a body
	} {
		f, _ := ForgeNamed(c.forge)
		v, notes, err := f.Export(tableReview(t, "", "Fine.", exchange.StateActive), Options{Event: c.event, NoMarker: true})
		if err != nil {
			t.Fatalf("%s %s: %v", c.forge, c.event, err)
		}
		var rv struct{ Body string }
		if err := json.Unmarshal(mustJSON(t, v), &rv); err != nil {
			t.Fatal(err)
		}
		if rv.Body != c.want || (c.want != "") != (len(notes) > 0) {
			t.Errorf("%s %s with no title or summary: got body %q and notes %q, want %q, said", c.forge, c.event, rv.Body, notes, c.want)
		}
	}
}

// TestFilledBodyImportsAsNoSummary: the body an export filled is not the
// review's summary when it comes back.
func TestFilledBodyImportsAsNoSummary(t *testing.T) {
	for _, event := range []string{EventComment, EventRequestChanges} {
		for _, n := range []int{1, 3} {
			title, summary := splitReviewBody(filledBody(event, n, true))
			if title != "" || summary != "" {
				t.Errorf("%s, %d comments: got title %q, summary %q, want neither", event, n, title, summary)
			}
		}
	}
	if _, summary := splitReviewBody(reviewBody("", "3 comments. Mostly nits.", true)); summary != "3 comments. Mostly nits." {
		t.Errorf("a person's summary: got %q, want it kept", summary)
	}
}

// TestForgesTable checks each row is whole: a name, a title, what it
// holds and its states, an export, an import with a first listing, and
// either --head or why not.
func TestForgesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Forges() {
		if f.Name == "" || seen[f.Name] || f.Title == "" || f.Threads == "" || f.Ranges == "" || f.Sides == "" ||
			f.Open == "" || f.Resolved == "" || f.Declined == "" || f.Stale == "" || f.Export == nil || f.Import == nil || len(f.Listings) == 0 || len(f.Replies) == 0 {
			t.Errorf("%q: the row is not whole: %+v", f.Name, f)
		}
		if (f.Head == "") == (f.HeadlessWhy == "") {
			t.Errorf("%s: want either Head or HeadlessWhy", f.Name)
		}
		if f.Replies[0] != "thread" && f.UnthreadedWhy == "" && !contains(f.Replies, "thread") {
			t.Errorf("%s: takes no --replies thread and says not why", f.Name)
		}
		seen[f.Name] = true
		if g, ok := ForgeNamed(f.Name); !ok || g.Title != f.Title {
			t.Errorf("ForgeNamed(%q) does not find its row", f.Name)
		}
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
