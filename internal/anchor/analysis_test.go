package anchor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

func reportShape(an *Analysis) string {
	var b strings.Builder
	for _, d := range an.Diagnostics {
		fmt.Fprintf(&b, "%s %d-%d %s %s %v %v|", d.Code, d.Range.Start, d.Range.End, d.Message, d.Reason, d.Related, d.Fixes)
	}
	for _, res := range an.Anchors.Resolutions {
		fmt.Fprintf(&b, "%d %v %v %d %d %d %s %v|", res.Comment.Node.Start, res.Skipped, res.Resolved, res.Side, res.First, res.Last, res.Reason, res.Candidates)
	}
	return b.String()
}

// TestCheckDocumentReusesOnlyWhatHolds edits a generated review at random
// (comment bodies, anchors, ids, text before the patch, the patch itself)
// and checks that the report built from the previous one is the report a
// fresh check gives.
func TestCheckDocumentReusesOnlyWhatHolds(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 4, DiffLines: 400, Comments: 40, DriftedFraction: 0.3, Seed: 5}))
	r := rand.New(rand.NewPCG(9, 9))
	prev := CheckDocument(exchange.Parse([]byte(src)), nil)
	edits := []func(string) string{
		func(s string) string { return strings.Replace(s, `"body": "`, `"body": "x`, 1+r.IntN(3)) },
		func(s string) string { return strings.Replace(s, `"start_line": 1`, `"start_line": 2`, 1) },
		func(s string) string { return strings.Replace(s, `"id": "c1`, `"id": "k1`, 1) },
		func(s string) string {
			return strings.Replace(s, `"leanreview_review": 1,`, `"leanreview_review": 1, "title": "t",`, 1)
		},
		func(s string) string { return strings.Replace(s, `"side": "RIGHT"`, `"side": "LEFT"`, 1) },
		func(s string) string {
			i := strings.Index(s, `"comments": [`) + len(`"comments": [`)
			return s[:i] + `{"path": "nowhere.go", "side": "RIGHT", "start_line": 3, "body": "new"}, ` + s[i:]
		},
		func(s string) string { return strings.Replace(s, `"+`, `"+ `, 1) }, // inside the patch
	}
	for step := 0; step < 60; step++ {
		next := edits[r.IntN(len(edits))](src)
		doc := parseAfter([]byte(next), prev.Doc)
		got := CheckDocument(doc, prev)
		want := CheckDocument(exchange.Parse([]byte(next)), nil)
		if reportShape(got) != reportShape(want) {
			t.Fatalf("step %d: the report built on the previous one differs from a fresh check", step)
		}
		src, prev = next, got
	}
}

// TestReusedIndexReadsTheLatestPatch checks that an index moved to a new
// version reads the same lines' texts as that version's patch.
func TestReusedIndexReadsTheLatestPatch(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 2, DiffLines: 50, Comments: 4, Seed: 3}))
	prev := CheckDocument(exchange.Parse([]byte(src)), nil)
	next := "  " + src // the patch moves by two bytes, spelt alike
	doc := parseAfter([]byte(next), prev.Doc)
	got := CheckDocument(doc, prev)
	if got.Index.Files[0] != prev.Index.Files[0] {
		t.Fatal("the index was not reused")
	}
	for _, f := range got.Index.Files {
		for _, h := range f.Hunks {
			for j := range h.Lines {
				pl := h.PatchLine(j)
				if want := strings.TrimSuffix(doc.Review.Patch.LineText(pl), "\r"); f.Content(&doc.Review.Patch, pl) != want[min(1, len(want)):] {
					t.Fatalf("line %d: content %q, want %q", pl, f.Content(&doc.Review.Patch, pl), want)
				}
			}
		}
	}
}

// parseAfter parses next as an edit of prev, the change found by
// comparing the texts, as the server does when a client sends the whole
// text.
func parseAfter(next []byte, prev *exchange.Document) *exchange.Document {
	t := exchange.NewText(next)
	return exchange.ParseEdited(t, prev, exchange.ChangeBetween(prev.Text, t))
}

// patchCarried reports whether doc's patch was carried over from prev's
// (the same PatchOrigin) rather than read again, and how many bytes it
// moved.
func patchCarried(doc, prev *exchange.Document) (delta int, carried bool) {
	p, q := &doc.Review.Patch, &prev.Review.Patch
	if p.Origin() == nil || p.Origin() != q.Origin() {
		return 0, false
	}
	return p.Node.Start - q.Node.Start, true
}
