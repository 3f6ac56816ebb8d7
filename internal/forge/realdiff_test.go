package forge

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/refdata"
	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// TestRoundTripRealDiffs puts comments on the real diffs
// (refdata.RealDiffs: renames, copies, quoted non-ASCII paths, deleted and
// new files, CRLF and control characters): on each hunk's first and last
// line of each image, and a range between them. Every one must export
// to payloads the forges' schemas accept and come back from GitHub's
// response shape on the same path, side and lines, and from GitLab's
// discussions on the same path and lines (a LEFT comment on context lines
// on the RIGHT).
func TestRoundTripRealDiffs(t *testing.T) {
	diffs := refdata.RealDiffs(t)
	ghSchema := testschema.Forge(t, "github-create-review.request.schema.json")
	glSchema := testschema.Forge(t, "gitlab-create-discussion.request.schema.json")
	for _, file := range slices.Sorted(maps.Keys(diffs)) {
		t.Run(file, func(t *testing.T) {
			data := diffs[file]
			patch := anchor.SplitDiffFile(data)
			doc := commentedReview(t, patch, 150)
			plan, err := NewPlan(doc)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Problems) > 0 || len(plan.placed) != len(doc.Review.Comments) {
				t.Fatalf("got %d placed and problems %v, want all %d comments placed", len(plan.placed), plan.Problems, len(doc.Review.Comments))
			}
			review := plan.GitHub(Options{})
			validate(t, ghSchema, "the GitHub review", review)
			pr := posted(review, plan, false)
			comments, err := ReadGitHubComments("comments.json", pages(t, pr.comments))
			if err != nil {
				t.Fatal(err)
			}
			im, err := ImportGitHub(comments, nil, patch, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			plan.Title, plan.Summary = "", ""
			compareRoundTrip(t, plan, exchange.Parse(im.Data), false)
			// And from GitLab's listing: the same, but for LEFT comments
			// on context lines, which come back RIGHT.
			gitlabRoundTrip(t, glSchema, doc, false)
		})
	}
}

// commentedReview makes a review of patch with up to max comments on the
// first and last line of each hunk's images, and ranges between them.
func commentedReview(t *testing.T, patch []string, max int) *exchange.Document {
	t.Helper()
	ix, _, err := patchIndex(patch, "gh pr diff")
	if err != nil {
		t.Fatal(err)
	}
	rv := exReview{Version: 1, Patch: patch, Comments: []*exComment{}}
	add := func(f *anchor.FileDiff, s anchor.Side, start, end int) {
		if len(rv.Comments) >= max {
			return
		}
		c := &exComment{ID: fmt.Sprintf("r%d", len(rv.Comments)+1), Path: f.Name(s), Side: s.String(), StartLine: start,
			Body: fmt.Sprintf("On %s of %s.", anchor.LineSpan(s, start, end), f.Name(s)), State: exchange.StateActive}
		if end > start {
			c.EndLine = end
		}
		rv.Comments = append(rv.Comments, c)
	}
	for _, f := range ix.Files {
		for h := range f.Hunks {
			for _, s := range []anchor.Side{anchor.Left, anchor.Right} {
				first, last := f.Hunks[h].Span(s)
				if last < first || f.Name(s) == "" {
					continue
				}
				add(f, s, first, first)
				if last > first {
					add(f, s, last, last)
					add(f, s, first, last)
				}
			}
		}
	}
	doc, err := rv.document()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
