package forge

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// newForges are the forges of issue 34, each exported to, listed back as
// the forge would and imported.
var newForges = []string{"gerrit", "gitea", "bitbucket", "azure"}

// forgeTrip runs one round trip through forge: export plan's comments
// (with forgeReplies, the replies as the forge's own replies: Gerrit's
// and Gitea's posted by their authors, Bitbucket's and Azure DevOps'
// threaded by the export), validate every request against the forge's
// request schema, list what the forge would (validated against its
// response schema), read it with the forge's reader and import it, the
// poster trusted to quote others.
func forgeTrip(t *testing.T, forge string, plan *Plan, forgeReplies bool) *Imported {
	t.Helper()
	opts := Options{Replies: QuoteReplies}
	trust := ImportOptions{Trust: []string{"poster"}, Head: ""}
	patch := patchLines(plan.Doc)
	var im *Imported
	var err error
	switch forge {
	case "gerrit":
		if forgeReplies {
			opts.Replies = DropReplies
		}
		rv := plan.Gerrit(opts)
		validate(t, ownSchema(t, "gerrit-review-input.request.schema.json"), "the Gerrit ReviewInput", rv)
		commentsData, messagesData := gerritListing(t, rv, plan, forgeReplies)
		validateJSON(t, ownSchema(t, "gerrit-comments.response.schema.json"), "the Gerrit comments", withoutXSSI(commentsData))
		validateJSON(t, ownSchema(t, "gerrit-messages.response.schema.json"), "the Gerrit messages", withoutXSSI(messagesData))
		comments, rerr := ReadGerritComments("comments.json", commentsData)
		messages, merr := ReadGerritMessages("messages.json", messagesData)
		if rerr != nil || merr != nil {
			t.Fatal(rerr, merr)
		}
		trust.Head = "1"
		im, err = ImportGerrit(comments, messages, patch, trust)
	case "gitea":
		if forgeReplies {
			opts.Replies = DropReplies
		}
		rv, _ := plan.Gitea(opts)
		if forgeReplies {
			sharedPlaceReplies(rv, plan)
		}
		validate(t, ownSchema(t, "gitea-create-review.request.schema.json"), "the Gitea review", rv)
		pages, reviewsData := giteaListing(t, rv, plan, forgeReplies)
		validateJSON(t, ownSchema(t, "gitea-review.response.schema.json"), "the Gitea reviews", reviewsData)
		var commentsData []byte
		for i, p := range pages {
			validateJSON(t, ownSchema(t, "gitea-review-comment.response.schema.json"), fmt.Sprintf("Gitea review %d's comments", i+1), p)
			commentsData = append(append(commentsData, p...), '\n')
		}
		comments, rerr := ReadGiteaComments("comments.json", commentsData)
		reviews, verr := ReadGiteaReviews("reviews.json", reviewsData)
		if rerr != nil || verr != nil {
			t.Fatal(rerr, verr)
		}
		trust.Head = postedSHA
		im, err = ImportGitea(comments, reviews, patch, trust)
	case "bitbucket":
		if forgeReplies {
			opts.Replies = ThreadReplies
		}
		reqs := plan.Bitbucket(opts)
		req := ownSchema(t, "bitbucket-create-comment.request.schema.json")
		for i, r := range reqs {
			validate(t, req, fmt.Sprintf("Bitbucket request %d", i), r)
		}
		activities, rerr := ReadBitbucketActivities("activities.json", bitbucketListing(t, ownSchema(t, "bitbucket-activities.response.schema.json"), reqs))
		if rerr != nil {
			t.Fatal(rerr)
		}
		im, err = ImportBitbucket(activities, patch, trust)
	case "azure":
		if forgeReplies {
			opts.Replies = ThreadReplies
		}
		threads := plan.Azure(opts)
		req := ownSchema(t, "azure-create-thread.request.schema.json")
		for i, th := range threads {
			validate(t, req, fmt.Sprintf("Azure DevOps thread %d", i), th)
		}
		listed := azureListing(t, threads)
		validateJSON(t, ownSchema(t, "azure-threads.response.schema.json"), "the Azure DevOps threads", listed)
		recs, rerr := ReadAzureThreads("threads.json", listed)
		if rerr != nil {
			t.Fatal(rerr)
		}
		im, err = ImportAzure(recs, patch, trust)
	default:
		t.Fatalf("no forge %q", forge)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range im.Notes {
		t.Errorf("unexpected note: %s", n)
	}
	return im
}

// TestRoundTripForges exports the export goldens' reviews to each new
// forge, with the replies quoted and as the forge's replies, and
// compares every comment that comes back: id, path, side, lines, body,
// replies (authors, times, bodies), title and summary.
func TestRoundTripForges(t *testing.T) {
	for _, file := range []string{"export-full", "export-unicode", "export-refused"} {
		ar, err := txtar.ParseFile("testdata/" + file + ".txtar")
		if err != nil {
			t.Fatal(err)
		}
		for _, forge := range newForges {
			for _, mode := range []string{"quote", "forge-replies"} {
				t.Run(forge+"/"+file+"/"+mode, func(t *testing.T) {
					doc := exchange.Parse(section(t, ar, "review.json"))
					plan, err := NewPlan(doc)
					if err != nil {
						t.Fatal(err)
					}
					im := forgeTrip(t, forge, plan, mode == "forge-replies")
					compareBack(t, plan, exchange.Parse(im.Data), mode == "forge-replies" && (forge == "gerrit" || forge == "gitea"), exportedAnchor)
				})
			}
		}
	}
}

// TestRoundTripForgesRealDiffs does the same on every real diff
// (refdata.RealDiffs), with comments on each hunk's first and last lines
// of both images and ranges between them, replies on every third, and a
// title and summary.
func TestRoundTripForgesRealDiffs(t *testing.T) {
	diffs := refdata.RealDiffs(t)
	for _, file := range slices.Sorted(maps.Keys(diffs)) {
		data := diffs[file]
		patch := anchor.SplitDiffFile(data)
		for _, forge := range newForges {
			for _, mode := range []string{"quote", "forge-replies"} {
				t.Run(forge+"/"+file+"/"+mode, func(t *testing.T) {
					doc := repliedReview(t, patch, 120)
					plan, err := NewPlan(doc)
					if err != nil {
						t.Fatal(err)
					}
					if len(plan.Problems) > 0 || len(plan.placed) != len(doc.Review.Comments) {
						t.Fatalf("got %d placed and problems %v, want all %d comments placed", len(plan.placed), plan.Problems, len(doc.Review.Comments))
					}
					im := forgeTrip(t, forge, plan, mode == "forge-replies")
					compareBack(t, plan, exchange.Parse(im.Data), false, exportedAnchor)
				})
			}
		}
	}
}

// repliedReview is commentedReview with a title, a summary and replies
// (one of several paragraphs) on every third comment.
func repliedReview(t *testing.T, patch []string, max int) *exchange.Document {
	t.Helper()
	base := commentedReview(t, patch, max)
	rv := exReview{Version: 1, Title: "Real diff: ünïcode **and** marks", Summary: "Line one.\n\nLine <two> & three.", Patch: patch}
	for i, c := range base.Review.Comments {
		ec := &exComment{ID: c.ID, Path: c.Path, Side: c.SideNorm(), StartLine: c.StartLine, EndLine: c.EndLine, Body: c.Body, State: exchange.StateActive}
		if i%3 == 0 {
			ec.Replies = []exReply{
				{Author: "hduran", Body: "Agreed.", At: "2026-11-30T11:00:00Z"},
				{Author: "Zoë Ångström", Body: fmt.Sprintf("Reply %d:\n\n> quoted\n`code`", i), At: "2026-11-30T12:00:00Z"},
			}
		}
		rv.Comments = append(rv.Comments, ec)
	}
	doc, err := rv.document()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// sharedPlaceReplies drops the replies of the comments Gitea puts on one
// place (a range's last line and a comment on that line): Gitea shows
// the comments on one line as one conversation, so a reply posted there
// cannot say which comment it answers; it joins the latest (the import's
// rule), which the comparison could not tell from a wrong thread.
func sharedPlaceReplies(rv GiteaReview, plan *Plan) {
	type place struct {
		path     string
		old, new int
	}
	count := map[place]int{}
	for _, c := range rv.Comments {
		count[place{c.Path, c.OldPosition, c.NewPosition}]++
	}
	for i, c := range rv.Comments {
		if count[place{c.Path, c.OldPosition, c.NewPosition}] > 1 {
			plan.placed[i].c.Replies = nil
		}
	}
}

// TestRoundTripGerritThreadedReplies posts the replies as Gerrit's own:
// the review without them, then, from the comments Gerrit lists, the
// second review (GerritReplies), each reply in_reply_to its comment,
// both requests validated; the import reads them back by the poster,
// trusted, with their authors and times. On the export goldens and every
// real diff.
func TestRoundTripGerritThreadedReplies(t *testing.T) {
	docs := map[string]func() *exchange.Document{}
	for _, file := range []string{"export-full", "export-unicode"} {
		ar, err := txtar.ParseFile("testdata/" + file + ".txtar")
		if err != nil {
			t.Fatal(err)
		}
		docs[file] = func() *exchange.Document { return exchange.Parse(section(t, ar, "review.json")) }
	}
	for name, data := range refdata.RealDiffs(t) {
		docs[name] = func() *exchange.Document { return repliedReview(t, anchor.SplitDiffFile(data), 60) }
	}
	request := ownSchema(t, "gerrit-review-input.request.schema.json")
	response := ownSchema(t, "gerrit-comments.response.schema.json")
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			plan, err := NewPlan(doc())
			if err != nil {
				t.Fatal(err)
			}
			first := plan.Gerrit(Options{Replies: ThreadReplies})
			validate(t, request, "the first ReviewInput", first)
			listed, _ := gerritListing(t, first, plan, false)
			posted, err := ReadGerritComments("comments.json", listed)
			if err != nil {
				t.Fatal(err)
			}
			second, missing := plan.GerritReplies(posted, false)
			if len(missing) > 0 {
				t.Fatalf("got comments %v missing from the posted ones", missing)
			}
			validate(t, request, "the replies' ReviewInput", second)
			listed = gerritPostReplies(t, listed, second)
			validateJSON(t, response, "the Gerrit comments", withoutXSSI(listed))
			all, err := ReadGerritComments("comments.json", listed)
			if err != nil {
				t.Fatal(err)
			}
			im, err := ImportGerrit(all, nil, patchLines(plan.Doc), ImportOptions{Trust: []string{"poster"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range im.Notes {
				t.Errorf("unexpected note: %s", n)
			}
			plan.Title, plan.Summary = "", ""
			compareBack(t, plan, exchange.Parse(im.Data), false, exportedAnchor)
		})
	}
}

// gerritPostReplies adds to a comments listing what Gerrit lists once the
// replies' ReviewInput is posted: each reply by the poster, after the
// comments, in the order sent.
func gerritPostReplies(t *testing.T, listed []byte, rv GerritReview) []byte {
	t.Helper()
	var byPath map[string][]map[string]any
	if err := json.Unmarshal(withoutXSSI(listed), &byPath); err != nil {
		t.Fatal(err)
	}
	paths := make([]string, 0, len(rv.Comments))
	for p := range rv.Comments {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	n := 0
	for _, p := range paths {
		for _, c := range rv.Comments[p] {
			n++
			m := map[string]any{"id": fmt.Sprintf("r%07d", n), "patch_set": 1, "line": c.Line, "in_reply_to": c.InReplyTo,
				"message": c.Message, "updated": postedAt.Add(time.Duration(n) * time.Second).Format("2006-01-02 15:04:05.000000000"),
				"author": map[string]any{"_account_id": 1006, "username": "poster"}, "unresolved": c.Unresolved}
			if c.Side == gerritParent {
				m["side"] = gerritParent
			}
			if c.Range != nil {
				m["range"] = c.Range
			}
			byPath[p] = append(byPath[p], m)
		}
	}
	out, err := json.Marshal(byPath)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(")]}'\n"), out...)
}
