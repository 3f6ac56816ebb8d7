package forge

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// TestRoundTrip exports every export golden's review to GitHub, turns
// the payload into what GitHub lists afterwards (the review-comment and
// review response shapes, validated against their schemas, the comments
// in two pages as gh api --paginate prints them), imports that, and
// compares each exported comment with the one it comes back as: id,
// path, side, lines, body, replies; and the title and summary.
func TestRoundTrip(t *testing.T) {
	commentSchema := testschema.Forge(t, "github-review-comment.schema.json")
	reviewSchema := testschema.Forge(t, "github-review.schema.json")
	for _, file := range []string{"export-full", "export-unicode", "export-refused"} {
		for _, mode := range []string{"quote", "forge-replies"} {
			t.Run(file+"/"+mode, func(t *testing.T) {
				ar, err := txtar.ParseFile("testdata/" + file + ".txtar")
				if err != nil {
					t.Fatal(err)
				}
				doc := exchange.Parse(section(t, ar, "review.json"))
				plan, err := NewPlan(doc)
				if err != nil {
					t.Fatal(err)
				}
				opts := Options{}
				if mode == "forge-replies" {
					// The replies are posted as replies on the forge
					// after the review, by their authors.
					opts.Replies = DropReplies
				}
				review := plan.GitHub(opts)
				pr := posted(review, plan, mode == "forge-replies")
				for i, c := range pr.comments {
					validate(t, commentSchema, fmt.Sprintf("response comment %d", i), c)
				}
				validate(t, reviewSchema, "the review response", pr.review)
				comments, err := ReadGitHubComments("comments.json", pages(t, pr.comments))
				if err != nil {
					t.Fatal(err)
				}
				reviews, err := ReadGitHubReviews("reviews.json", pages(t, []map[string]any{pr.review}))
				if err != nil {
					t.Fatal(err)
				}
				im, err := ImportGitHub(comments, reviews, patchLines(doc), ImportOptions{Trust: []string{"poster"}})
				if err != nil {
					t.Fatal(err)
				}
				back := exchange.Parse(im.Data)
				compareRoundTrip(t, plan, back, mode == "forge-replies")
			})
		}
	}
}

func compareRoundTrip(t *testing.T, plan *Plan, back *exchange.Document, forgeReplies bool) {
	t.Helper()
	compareBack(t, plan, back, forgeReplies, exportedAnchor)
}

// anchorOf is where a comment is expected back: path, side and lines.
type anchorOf struct {
	path        string
	side        anchor.Side
	first, last int
}

func (a anchorOf) String() string {
	return a.path + " " + anchor.LineSpan(a.side, a.first, a.last)
}

// exportedAnchor is the comment's own anchor: where GitHub puts it back.
func exportedAnchor(pc *placed) anchorOf {
	c := pc.c
	return anchorOf{c.Path, sideOf(c.SideNorm()), c.StartLine, cmp.Or(c.EndLine, c.StartLine)}
}

// compareBack compares each placed comment with the one it came back as,
// expected at expect's anchor.
func compareBack(t *testing.T, plan *Plan, back *exchange.Document, forgeReplies bool, expect func(*placed) anchorOf) {
	t.Helper()
	if back.Review.Title != plan.Title || back.Review.Summary != plan.Summary {
		t.Errorf("got title %q summary %q, want %q and %q", back.Review.Title, back.Review.Summary, plan.Title, plan.Summary)
	}
	if len(back.Review.Comments) != len(plan.placed) {
		t.Fatalf("got %d comments back, want the %d exported", len(back.Review.Comments), len(plan.placed))
	}
	for i := range plan.placed {
		want, got := plan.placed[i].c, back.Review.Comments[i]
		wantAt := expect(&plan.placed[i])
		gotAt := anchorOf{got.Path, sideOf(got.SideNorm()), got.StartLine, cmp.Or(got.EndLine, got.StartLine)}
		if got.ID != want.ID || gotAt != wantAt {
			t.Errorf("comment %d: got %s %s, want %s %s", i, got.ID, gotAt, want.ID, wantAt)
		}
		if got.Body != want.Body {
			t.Errorf("%s: got body %q, want %q", want.ID, got.Body, want.Body)
		}
		if got.StateNorm() != exchange.StateActive {
			t.Errorf("%s: got state %s, want active", want.ID, got.StateNorm())
		}
		if g, w := replyList(got.Replies, forgeReplies), replyList(want.Replies, forgeReplies); g != w {
			t.Errorf("%s: got replies\n%s\nwant\n%s", want.ID, g, w)
		}
	}
}

// replyList writes replies for comparison. A reply posted on the forge
// without an at gets the forge's time, which is not compared.
func replyList(rs []*exchange.Reply, forgeReplies bool) string {
	var b strings.Builder
	for _, r := range rs {
		at := r.At
		if forgeReplies && !strings.HasPrefix(at, "2026-11-30") {
			at = "(forge time)"
		}
		fmt.Fprintf(&b, "%s @ %s: %q\n", r.Author, at, r.Body)
	}
	return b.String()
}

// postedReview is what GitHub lists once a review is posted.
type postedReview struct {
	comments []map[string]any
	review   map[string]any
}

// posted turns a review payload into GitHub's responses: each comment
// with its id, author, times and both current and original places; with
// forgeReplies each of the comment's replies as a comment replying to it.
func posted(rv GitHubReview, plan *Plan, forgeReplies bool) postedReview {
	const repo = "https://api.github.com/repos/octo/app"
	const commit = "f9ce7e16e56c162edbc9e480108041cf6b0291fe"
	id := int64(1000)
	var out []map[string]any
	comment := func(c GitHubComment, login, at string, replyTo int64) map[string]any {
		id++
		url := repo + "/pulls/comments/" + strconv.FormatInt(id, 10)
		html := "https://github.com/octo/app/pull/7#discussion_r" + strconv.FormatInt(id, 10)
		links := map[string]any{
			"self":         map[string]any{"href": url},
			"html":         map[string]any{"href": html},
			"pull_request": map[string]any{"href": repo + "/pulls/7"},
		}
		m := map[string]any{
			"url": url, "id": id, "node_id": "PRRC_" + strconv.FormatInt(id, 10),
			"pull_request_review_id": 77, "diff_hunk": "@@ -1,1 +1,1 @@", "path": c.Path,
			"commit_id": commit, "original_commit_id": commit, "user": ghUser(login), "body": c.Body,
			"created_at": at, "updated_at": at, "html_url": html, "pull_request_url": repo + "/pulls/7",
			"author_association": "MEMBER", "_links": links, "subject_type": "line",
			"line": c.Line, "original_line": c.Line, "side": c.Side,
			"start_line": nil, "original_start_line": nil, "start_side": nil,
		}
		if c.StartLine != 0 {
			m["start_line"], m["original_start_line"], m["start_side"] = c.StartLine, c.StartLine, c.StartSide
		}
		if replyTo != 0 {
			m["in_reply_to_id"] = replyTo
		}
		return m
	}
	for i, c := range rv.Comments {
		root := comment(c, "poster", "2026-12-01T09:00:00Z", 0)
		out = append(out, root)
		if !forgeReplies {
			continue
		}
		for j, r := range plan.placed[i].c.Replies {
			at := cmp.Or(r.At, fmt.Sprintf("2026-12-01T10:%02d:00Z", j))
			out = append(out, comment(GitHubComment{Path: c.Path, Body: r.Body, Line: c.Line, Side: c.Side}, r.Author, at, root["id"].(int64)))
		}
	}
	review := map[string]any{
		"id": 77, "node_id": "PRR_77", "user": ghUser("poster"), "body": rv.Body, "state": "COMMENTED",
		"html_url": "https://github.com/octo/app/pull/7#pullrequestreview-77", "pull_request_url": repo + "/pulls/7",
		"_links":       map[string]any{"html": map[string]any{"href": "https://github.com/octo/app/pull/7#pullrequestreview-77"}, "pull_request": map[string]any{"href": repo + "/pulls/7"}},
		"submitted_at": "2026-12-01T09:00:00Z", "commit_id": commit, "author_association": "MEMBER",
	}
	return postedReview{comments: out, review: review}
}

func ghUser(login string) map[string]any {
	u := "https://api.github.com/users/" + login
	return map[string]any{
		"login": login, "id": 1, "node_id": "U_1", "avatar_url": "https://avatars.githubusercontent.com/u/1", "gravatar_id": "",
		"url": u, "html_url": "https://github.com/" + login, "followers_url": u + "/followers",
		"following_url": u + "/following{/other_user}", "gists_url": u + "/gists{/gist_id}", "starred_url": u + "/starred{/owner}{/repo}",
		"subscriptions_url": u + "/subscriptions", "organizations_url": u + "/orgs", "repos_url": u + "/repos",
		"events_url": u + "/events{/privacy}", "received_events_url": u + "/received_events", "type": "User", "site_admin": false,
	}
}

// pages prints items as gh api --paginate does with a page size of 2:
// one JSON array per page, one after the other.
func pages(t *testing.T, items []map[string]any) []byte {
	t.Helper()
	var buf bytes.Buffer
	for start := 0; start == 0 || start < len(items); start += 2 {
		data, err := json.Marshal(items[start:min(start+2, len(items))])
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(data)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// patchLines returns the document's patch, one diff line each.
func patchLines(doc *exchange.Document) []string {
	p := &doc.Review.Patch
	out := make([]string, p.LineCount())
	for i := range out {
		out[i] = p.LineText(i)
	}
	return out
}
