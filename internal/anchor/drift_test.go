package anchor

import (
	"slices"
	"sync"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 3, 0},
		{"abc", "abc", 3, 0},
		{"handler.go", "handlr.go", 3, 1},
		{"handler.go", "hnadler.go", 3, 2},
		{"abc", "xyz", 3, 3},
		{"abc", "abcdefgh", 3, 4},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3},
		{"internal/api/handler.go", "internal/app/handler.go", 3, 1},
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			if got := editDistance(tc.a, tc.b, tc.limit); got != tc.want {
				t.Errorf("editDistance(%q, %q, %d): got %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
			}
		})
	}
}

func TestNearPaths(t *testing.T) {
	patch := []string{
		"diff --git a/internal/api/handler.go b/internal/api/handler.go",
		"--- a/internal/api/handler.go",
		"+++ b/internal/api/handler.go",
		"@@ -1 +1 @@",
		"-a",
		"+b",
		"diff --git a/internal/api/handler_test.go b/internal/api/handler_test.go",
		"--- a/internal/api/handler_test.go",
		"+++ b/internal/api/handler_test.go",
		"@@ -1 +1 @@",
		"-a",
		"+b",
		"diff --git a/cmd/a.go b/cmd/a.go",
		"--- a/cmd/a.go",
		"+++ b/cmd/a.go",
		"@@ -1 +1 @@",
		"-a",
		"+b",
		"diff --git a/cmd/b.go b/cmd/b.go",
		"--- a/cmd/b.go",
		"+++ b/cmd/b.go",
		"@@ -1 +1 @@",
		"-a",
		"+b",
	}
	doc := exchange.Parse(reviewJSON(patch))
	an := newResolver(doc, BuildIndex(&doc.Review.Patch), Options{})
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"a/internal/api/handler.go", []string{"internal/api/handler.go"}},
		{"b/internal/api/handler.go", []string{"internal/api/handler.go"}},
		{"./internal/api/handler.go", []string{"internal/api/handler.go"}},
		{"INTERNAL/api/Handler.go", []string{"internal/api/handler.go"}},
		{"handler.go", []string{"internal/api/handler.go"}},
		{"repo/internal/api/handler.go", []string{"internal/api/handler.go"}},
		{"internal/api/handlr.go", []string{"internal/api/handler.go"}},
		{"internal/api/handler_tset.go", []string{"internal/api/handler_test.go"}},
		{"cmd/c.go", []string{"cmd/a.go", "cmd/b.go"}}, // a tie: both offered
		{"docs/readme.md", nil},
		{"x", nil},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if got := an.nearPaths(tc.path); !slices.Equal(got, tc.want) {
				t.Errorf("nearPaths(%q): got %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}

// Candidates are capped at five, nearest first.
func TestCandidatesCapped(t *testing.T) {
	patch := []string{"diff --git a/m.go b/m.go", "--- a/m.go", "+++ b/m.go", "@@ -1,12 +1,12 @@"}
	for i := 0; i < 12; i++ {
		patch = append(patch, " same()")
	}
	src := reviewJSON(patch, cm(`"id": "c1", "path": "m.go", "side": "RIGHT", "start_line": 40, "snippet": "same()"`))
	_, a := analyze(t, src, Options{})
	got := describeCandidates(a.Resolutions[0])
	want := []string{"RIGHT 12-12 d28*", "RIGHT 11-11 d29", "RIGHT 10-10 d30", "RIGHT 9-9 d31", "RIGHT 8-8 d32"}
	if !slices.Equal(got, want) {
		t.Errorf("candidates: got %q, want %q", got, want)
	}
}

var (
	benchOnce sync.Once
	benchSrc  []byte
)

func benchDocument() []byte {
	benchOnce.Do(func() { benchSrc = reviewgen.Generate(reviewgen.Default()) })
	return benchSrc
}

// BenchmarkAnalyze measures anchoring on the default generated review: a
// 100,000-line patch, 2,000 comments, a third of them drifted. parse is
// the reference; index+analyze is what anchoring adds to it.
func BenchmarkAnalyze(b *testing.B) {
	src := benchDocument()
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			exchange.Parse(src)
		}
	})
	doc := exchange.Parse(src)
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			BuildIndex(&doc.Review.Patch)
		}
	})
	ix := BuildIndex(&doc.Review.Patch)
	b.Run("analyze", func(b *testing.B) {
		for b.Loop() {
			Resolve(doc, ix, Options{})
		}
	})
	b.Run("index+analyze", func(b *testing.B) {
		for b.Loop() {
			Resolve(doc, BuildIndex(&doc.Review.Patch), Options{})
		}
	})
}

// The generated review's drifted comments all find their place back.
func TestGeneratedDriftIsFound(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 30, DiffLines: 6000, Comments: 300, DriftedFraction: 0.5, Seed: 3})
	doc, a := analyze(t, src, Options{})
	drifted, found := 0, 0
	for i, r := range a.Resolutions {
		c := doc.Review.Comments[i]
		if c.StateNorm() == exchange.StateDismissed || c.Snippet == "" || r.Resolved && SnippetMatches(c.Snippet, r.Side, &doc.Review.Patch, r.File, r.Lines()) {
			continue
		}
		drifted++
		if len(r.Candidates) > 0 {
			found++
		}
	}
	if drifted < 100 {
		t.Errorf("only %d drifted comments detected, want about 150", drifted)
	}
	// Weak snippets ("}") have no candidates; everything else should.
	if found < drifted*8/10 {
		t.Errorf("candidates found for %d of %d drifted comments, want most", found, drifted)
	}

	// Applying every safe fix at once (what fixAll does) leaves only the
	// comments without a unique nearest candidate.
	var edits []exchange.Edit
	safe := 0
	for _, d := range a.Diagnostics {
		for _, f := range d.Fixes {
			if f.Safe {
				edits = append(edits, f.Edits...)
				safe++
			}
		}
	}
	out, err := exchange.ApplyEdits(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	doc2, a2 := analyze(t, out, Options{})
	if len(doc2.Review.Comments) != len(doc.Review.Comments) {
		t.Fatalf("fixAll changed the number of comments from %d to %d", len(doc.Review.Comments), len(doc2.Review.Comments))
	}
	for _, d := range a2.Diagnostics {
		for _, f := range d.Fixes {
			if f.Safe {
				t.Errorf("a safe fix is left after applying them all: %s %q", d.Code, f.Title)
			}
		}
	}
	t.Logf("%d drifted, %d with candidates, %d safe fixes; diagnostics %d → %d", drifted, found, safe, len(a.Diagnostics), len(a2.Diagnostics))
}
