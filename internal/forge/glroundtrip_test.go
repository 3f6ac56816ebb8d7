package forge

import (
	"cmp"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// TestRoundTripGitLab exports every export golden's review to GitLab,
// validates each discussion payload against the request schema, turns
// the payloads into the discussions GitLab lists afterwards (in pages of
// two, as glab api --paginate prints them), imports that, and compares
// each exported comment with the one it comes back as: id, path, side,
// lines, body, replies; and the title and summary. A review with
// comments on every hunk's first and last lines of both images (the
// import golden's diff) makes sure LEFT comments on context lines are
// among them: they come back RIGHT at their new numbers.
func TestRoundTripGitLab(t *testing.T) {
	schema := testschema.Forge(t, "gitlab-create-discussion.request.schema.json")
	docs := map[string]*exchange.Document{}
	for _, file := range []string{"export-full", "export-unicode", "export-refused"} {
		ar, err := txtar.ParseFile("testdata/" + file + ".txtar")
		if err != nil {
			t.Fatal(err)
		}
		docs[file] = exchange.Parse(section(t, ar, "review.json"))
	}
	ar, err := txtar.ParseFile("testdata/import-gitlab.txtar")
	if err != nil {
		t.Fatal(err)
	}
	docs["every-hunk-end"] = commentedReview(t, anchor.SplitDiffFile(section(t, ar, "mr.diff")), 100)
	flipped := 0
	for name, doc := range docs {
		for _, mode := range []string{"quote", "forge-replies"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				flipped += gitlabRoundTrip(t, schema, doc, mode == "forge-replies")
			})
		}
	}
	if flipped == 0 {
		t.Error("no LEFT comment on a context line went through GitLab: the case that comes back RIGHT is not tested")
	}
}

// gitlabRoundTrip exports doc to GitLab and imports it back, and returns
// how many comments were expected back on the other side.
func gitlabRoundTrip(t *testing.T, schema *jsonschema.Schema, doc *exchange.Document, forgeReplies bool) int {
	t.Helper()
	plan, err := NewPlan(doc)
	if err != nil {
		t.Fatal(err)
	}
	opts := goldenGitLab
	if forgeReplies {
		// The replies are posted as replies on the forge after the
		// thread, by their authors.
		opts.Replies = DropReplies
	}
	payloads := plan.GitLab(opts)
	for i, d := range payloads {
		validate(t, schema, fmt.Sprintf("GitLab discussion %d", i), d)
	}
	discussions, err := ReadGitLabDiscussions("discussions.json", pages(t, listedDiscussions(payloads, plan, forgeReplies)))
	if err != nil {
		t.Fatal(err)
	}
	im, err := ImportGitLab(discussions, patchLines(doc), ImportOptions{Head: goldenGitLab.HeadSHA, Trust: []string{"poster"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range im.Notes {
		t.Errorf("unexpected note: %s", n)
	}
	compareBack(t, plan, exchange.Parse(im.Data), forgeReplies, gitlabAnchor)
	flipped := 0
	for i := range plan.placed {
		if gitlabAnchor(&plan.placed[i]).side != plan.placed[i].side {
			flipped++
		}
	}
	return flipped
}

// gitlabAnchor is where a comment comes back from GitLab: its own anchor,
// except that a LEFT comment whose ends are context lines, which GitLab
// numbers on both sides, comes back RIGHT at their new numbers.
func gitlabAnchor(pc *placed) anchorOf {
	first, last := pc.ends()
	if pc.side != anchor.Left || first.Kind() != anchor.Context || last.Kind() != anchor.Context {
		return exportedAnchor(pc)
	}
	return anchorOf{pc.file.Name(anchor.Right), anchor.Right, int(first.New), int(last.New)}
}

// listedDiscussions turns discussion payloads into what GitLab lists once
// they are posted: each a discussion whose first note has the payload's
// body and position, an author and a time; with forgeReplies each reply
// as a later note, after a system note GitLab writes itself.
func listedDiscussions(payloads []GitLabDiscussion, plan *Plan, forgeReplies bool) []map[string]any {
	id := 3000
	note := func(user, body, at string, pos *GitLabPosition, system bool) map[string]any {
		id++
		typ := any(nil)
		if pos != nil {
			typ = "DiffNote"
		} else if !system {
			typ = "DiscussionNote"
		}
		author := any(nil) // a reply without an author: as if its account were gone
		if user != "" {
			author = map[string]any{"id": 1, "username": user, "name": strings.ToUpper(user[:1]) + user[1:], "state": "active"}
		}
		return map[string]any{
			"id": id, "type": typ, "body": body, "attachment": nil, "author": author,
			"created_at": at, "updated_at": at, "system": system, "noteable_id": 88, "noteable_type": "MergeRequest",
			"position": pos, "resolvable": pos != nil && !system, "resolved": false, "noteable_iid": 7,
		}
	}
	var out []map[string]any
	placedAt := 0
	for i, d := range payloads {
		notes := []map[string]any{note("poster", d.Body, "2026-12-01T09:00:00.000Z", d.Position, false)}
		if d.Position != nil {
			pc := plan.placed[placedAt]
			placedAt++
			if forgeReplies {
				notes = append(notes, note("gitlab", "changed this line in version 2 of the diff", "2026-12-01T09:30:00.000Z", d.Position, true))
				for j, r := range pc.c.Replies {
					at := cmp.Or(r.At, fmt.Sprintf("2026-12-01T10:%02d:00Z", j))
					notes = append(notes, note(r.Author, r.Body, at, d.Position, false))
				}
			}
		}
		out = append(out, map[string]any{"id": fmt.Sprintf("%040x", i+1), "individual_note": d.Position == nil, "notes": notes})
	}
	return out
}
