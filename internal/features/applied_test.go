package features

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// c1's suggestion (testreviews.WorktreeReview) in place of its lines.
const (
	c1Lines   = "    result, err := calculate(input)\n    _ = err // 🚀 later\n"
	c1Applied = "    result, err := calculate(input)\n    if err != nil {\n        return Output{}, err\n    }\n"
)

// appliedTree is the worktree repository with handler.go's text edited by
// edit.
func appliedTree(t *testing.T, shift int, edit func(string) string) (*anchor.Analysis, *worktree.Tree) {
	t.Helper()
	an, tree := wtAnalysis(t, shift, "")
	path := filepath.Join(tree.Root(), "internal/api/handler.go")
	if err := os.WriteFile(path, []byte(edit(testreviews.WorktreeSource(shift, ""))), 0o644); err != nil {
		t.Fatal(err)
	}
	return an, tree
}

func TestSuggestionApplied(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shift int
		edit  func(string) string
		want  string // the place, "" when not applied
	}{
		{"applied", 0, func(s string) string { return strings.Replace(s, c1Lines, c1Applied, 1) }, "internal/api/handler.go:72–75"},
		{"applied and moved", 4, func(s string) string { return strings.Replace(s, c1Lines, c1Applied, 1) }, "internal/api/handler.go:76–79"},
		{"applied, then the next line changed", 0, func(s string) string {
			return strings.Replace(s, c1Lines+"    return result, nil", c1Applied+"    return result, err", 1)
		}, "internal/api/handler.go:72–75"},
		{"as reviewed", 0, func(s string) string { return s }, ""},
		{"changed otherwise", 0, func(s string) string { return strings.Replace(s, "    _ = err // 🚀 later\n", "    log(err)\n", 1) }, ""},
		{"the block elsewhere", 0, func(s string) string {
			return strings.Replace(s, "// line 10\n", c1Applied, 1)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			an, tree := appliedTree(t, tc.shift, tc.edit)
			a, ok := AppliedSuggestion(an, tree, 0)
			if got := map[bool]string{true: a.Place()}[ok]; got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			ds := WorktreeDiagnostics(an, tree)
			hover := SourceHover(an, tree, at(t, `"Return the error`, 0))
			_, err := SuggestionOf(an, tree, 0)
			if tc.want == "" {
				if IsApplied(err) || strings.Contains(hover, "it is applied") {
					t.Errorf("not applied, yet Suggestion says %v and the hover %q", err, hover)
				}
				return
			}
			if len(ds) != 1 || ds[0].Code != CodeSuggestionApplied || ds[0].Severity != exchange.SeverityInformation {
				t.Fatalf("diagnostics: got %v, want one suggestion-applied, no source-changed", ds)
			}
			if want := "c1's suggestion is applied: " + tc.want + " holds it"; ds[0].Message != want {
				t.Errorf("message: got %q, want %q", ds[0].Message, want)
			}
			if want := "**Working tree:** `" + tc.want + "` holds c1's suggestion: it is applied."; hover != want {
				t.Errorf("hover: got %q, want %q", hover, want)
			}
			if !IsApplied(err) {
				t.Errorf("Suggestion: got %v, want already applied", err)
			}
		})
	}
}

// TestSuggestionAppliedNextToAnother: c3's lines follow c1's; once both
// are applied, c3's neighbour before is gone (c1's suggestion replaced
// it), and c3 is still seen as applied.
func TestSuggestionAppliedNextToAnother(t *testing.T) {
	review := strings.Replace(testreviews.WorktreeReview, `"state": "dismissed",`, "", 1)
	_, tree := wtAnalysis(t, 0, "")
	an := anchor.CheckDocument(exchange.Parse([]byte(review)), nil)
	src := strings.Replace(testreviews.WorktreeSource(0, ""), c1Lines+"    return result, nil", c1Applied+"    return result, err", 1)
	if err := os.WriteFile(filepath.Join(tree.Root(), "internal/api/handler.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for ci, want := range map[int]string{0: "internal/api/handler.go:72–75", 2: "internal/api/handler.go:76"} {
		if a, ok := AppliedSuggestion(an, tree, ci); !ok || a.Place() != want {
			t.Errorf("comment %d: got %q, %v, want %q", ci, a.Place(), ok, want)
		}
	}
}

func TestAppliedActions(t *testing.T) {
	an, tree := appliedTree(t, 0, func(s string) string { return strings.Replace(s, c1Lines, c1Applied, 1) })
	acts := appliedActions(an, tree, at(t, `"Return the error`, 0), at(t, `"Return the error`, 0), ActionOptions{Author: "ana"})
	if len(acts) != 2 {
		t.Fatalf("got %d actions, want dismiss and reply", len(acts))
	}
	for i, want := range []struct{ title, after string }{
		{"Dismiss c1: its suggestion is applied", `"state": "dismissed"`},
		{"Reply “Applied.” to c1", `"body": "Applied."`},
	} {
		a := acts[i]
		if a.Title != want.title || a.Resolves == nil || a.Resolves.Code != CodeSuggestionApplied {
			t.Errorf("action %d: got %q resolving %v, want %q resolving suggestion-applied", i, a.Title, a.Resolves, want.title)
		}
		b, err := exchange.ApplyEdits([]byte(testreviews.WorktreeReview), a.Edits)
		if err != nil {
			t.Fatal(err)
		}
		after := string(b)
		if !strings.Contains(after, want.after) {
			t.Errorf("%s: the review lacks %s:\n%s", a.Title, want.after, after)
		}
		if d := anchor.CheckDocument(exchange.Parse([]byte(after)), nil); len(d.Doc.Syntax) > 0 {
			t.Errorf("%s: not JSON any more: %v", a.Title, d.Doc.Syntax)
		}
	}
	if got := appliedActions(an, tree, at(t, `"c2"`, 0), at(t, `"c2"`, 0), ActionOptions{}); len(got) != 0 {
		t.Errorf("c2 (no suggestion): got %d actions, want none", len(got))
	}
}
