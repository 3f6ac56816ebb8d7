package features

import (
	"context"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// TestReviewAxes: the one place the axes are put together opens the
// working tree only when an axis reads it (a Go-only review: never), and
// reads the reviewers' axes from the record it is given over the
// review's own.
func TestReviewAxes(t *testing.T) {
	review := func(path string) *anchor.Analysis {
		diff := "diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n@@ -1 +1 @@\n-a\n+b\n"
		data, err := anchor.NewReview([]byte(diff), "r", "")
		if err != nil {
			t.Fatal(err)
		}
		return analyze(exchange.Parse(data))
	}
	opened := 0
	from := AxesFrom{Tree: func() *worktree.Tree { opened++; return nil }}
	axes, res := ReviewAxes(context.Background(), review("main.go"), from)
	if opened != 0 || res != nil {
		t.Errorf("a Go-only review: the tree opened %d times, contract %v", opened, res)
	}
	if got, want := verdict.Line(axes), "contract: n/a · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	axes, _ = ReviewAxes(context.Background(), review("lib/button.dart"), from)
	if opened != 1 || !strings.Contains(verdict.Line(axes), "visual: n/a") {
		t.Errorf("a Dart review without a tree: opened %d times, got %q", opened, verdict.Line(axes))
	}
	goReview := review("main.go")
	rec := &verdict.Record{By: "lead", Patch: verdict.PatchSum(&goReview.Doc.Review.Patch)}
	for _, name := range verdict.Reviewers {
		*rec.Axes.Axis(name) = verdict.RecordAxis{State: string(verdict.Pass)}
	}
	from.Record = rec
	axes, _ = ReviewAxes(context.Background(), goReview, from)
	if got, want := verdict.Line(axes), "contract: n/a · correctness: pass · security: pass · test gap: pass · visual: n/a · verdict: Ship"; got != want {
		t.Errorf("with a record: got %q, want %q", got, want)
	}
}
