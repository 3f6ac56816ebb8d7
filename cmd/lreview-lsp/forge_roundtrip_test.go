package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestExportImportCommands runs the two commands as the README's
// pipelines do, with what GitHub would list in between: export a shipped
// example, post it (the test turns each payload comment into a listed
// comment), import the listing with the example's diff, and compare every
// exported comment with the one it comes back as.
func TestExportImportCommands(t *testing.T) {
	for _, name := range []string{"auth", "python-rename", "typescript-string-patch", "unicode-escapes"} {
		t.Run(name, func(t *testing.T) {
			dir, src, payload := exportExample(t, name, "--to", "github")
			comments, reviews := listed(t, payload)
			doc := exchange.Parse(src)
			writeFile(t, filepath.Join(dir, "comments.json"), comments, 0o644)
			writeFile(t, filepath.Join(dir, "reviews.json"), reviews, 0o644)
			writeFile(t, filepath.Join(dir, "pr.diff"), []byte(patchText(doc)), 0o644)
			out := filepath.Join(dir, "back.review.json")
			var stderr bytes.Buffer
			args := []string{"import", "--from", "github", "--comments", filepath.Join(dir, "comments.json"),
				"--reviews", filepath.Join(dir, "reviews.json"), "--patch", filepath.Join(dir, "pr.diff"), "--trust", "poster", "-o", out}
			var stdout bytes.Buffer
			if code := run(args, nil, &stdout, &stderr); code != 0 || stdout.Len() > 0 {
				t.Fatalf("import -o: exit %d, stdout %q: %s", code, stdout.String(), stderr.String())
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			compareCommands(t, doc, exchange.Parse(data))
		})
	}
}

// TestExportImportCommandsGitLab is TestExportImportCommands through
// GitLab: export --to gitlab, each discussion posted (the test lists it
// as GitLab would), import --from gitlab --head with the example's diff.
// A LEFT comment on context lines comes back RIGHT at their new numbers.
func TestExportImportCommandsGitLab(t *testing.T) {
	const sha = "f9ce7e16e56c162edbc9e480108041cf6b0291fe"
	for _, name := range []string{"auth", "python-rename", "typescript-string-patch", "unicode-escapes"} {
		t.Run(name, func(t *testing.T) {
			dir, src, payload := exportExample(t, name, "--to", "gitlab", "--base-sha", sha, "--start-sha", sha, "--head-sha", sha)
			doc := exchange.Parse(src)
			writeFile(t, filepath.Join(dir, "discussions.json"), listedDiscussions(t, payload), 0o644)
			writeFile(t, filepath.Join(dir, "mr.diff"), []byte(patchText(doc)), 0o644)
			var stdout, stderr bytes.Buffer
			args := []string{"import", "--from", "gitlab", "--discussions", filepath.Join(dir, "discussions.json"),
				"--patch", filepath.Join(dir, "mr.diff"), "--head", sha, "--trust", "poster"}
			if code := run(args, nil, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
				t.Fatalf("import: exit %d, stderr %q", code, stderr.String())
			}
			compareCommands(t, onGitLab(doc), exchange.Parse(stdout.Bytes()))
		})
	}
}

// exportExample writes the shipped example name into a new directory and
// runs export with args on it: the directory, the example's text and
// what export printed.
func exportExample(t *testing.T, name string, args ...string) (dir string, src, payload []byte) {
	t.Helper()
	dir = t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", name+".review.json"))
	if err != nil {
		t.Fatal(err)
	}
	review := filepath.Join(dir, "in.review.json")
	writeFile(t, review, src, 0o644)
	var out, stderr bytes.Buffer
	if code := run(append(append([]string{"export"}, args...), review), nil, &out, &stderr); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	return dir, src, out.Bytes()
}

// listedDiscussions turns exported discussions into what glab api lists
// once they are posted: one discussion each, its note the payload's body
// and position, in one page.
func listedDiscussions(t *testing.T, payload []byte) []byte {
	t.Helper()
	var ds []map[string]any
	if err := json.Unmarshal(payload, &ds); err != nil {
		t.Fatalf("export printed no JSON discussions: %v\n%s", err, payload)
	}
	var out []map[string]any
	for i, d := range ds {
		note := map[string]any{"id": 700 + i, "body": d["body"], "author": map[string]any{"username": "poster", "name": "Poster"},
			"created_at": "2026-12-01T09:00:00.000Z", "system": false, "resolved": false, "position": d["position"]}
		out = append(out, map[string]any{"id": fmt.Sprintf("%040x", i+1), "individual_note": d["position"] == nil, "notes": []any{note}})
	}
	data, _ := json.Marshal(out)
	return data
}

// onGitLab returns doc with each active LEFT comment whose ends are
// context lines moved to the RIGHT at their new numbers, where GitLab
// puts it back: GitLab numbers a context line on both sides.
func onGitLab(doc *exchange.Document) *exchange.Document {
	an := anchor.CheckDocument(doc, nil)
	for i, c := range doc.Review.Comments {
		r := an.Anchors.Resolutions[i]
		if c.StateNorm() != exchange.StateActive || r == nil || !r.Resolved || r.Side != anchor.Left {
			continue
		}
		lines := r.File.Hunks[r.Hunk].Lines
		i, j := r.First, r.Last
		for !lines[i].In(anchor.Left) { // the export's ends are the image's lines
			i++
		}
		for !lines[j].In(anchor.Left) {
			j--
		}
		first, last := lines[i], lines[j]
		if first.Kind() != anchor.Context || last.Kind() != anchor.Context {
			continue
		}
		c.Side, c.Path = "RIGHT", r.File.Name(anchor.Right)
		c.StartLine, c.EndLine = int(first.New), int(last.New)
		if c.EndLine == c.StartLine {
			c.EndLine = 0
		}
	}
	return doc
}

// listed turns an exported review into what gh api lists once it is
// posted: its comments (one page) and the review.
func listed(t *testing.T, payload []byte) (comments, reviews []byte) {
	t.Helper()
	var rv struct {
		Body     string           `json:"body"`
		Comments []map[string]any `json:"comments"`
	}
	if err := json.Unmarshal(payload, &rv); err != nil {
		t.Fatalf("export printed no JSON review: %v\n%s", err, payload)
	}
	for i, c := range rv.Comments {
		c["id"] = 500 + i
		c["user"] = map[string]any{"login": "poster"}
		c["created_at"] = "2026-12-01T09:00:00Z"
		c["original_line"] = c["line"]
		c["subject_type"] = "line"
	}
	comments, _ = json.Marshal(rv.Comments)
	reviews, _ = json.Marshal([]map[string]any{{"id": 9, "body": rv.Body, "state": "COMMENTED", "submitted_at": "2026-12-01T09:00:00Z"}})
	return comments, reviews
}

func patchText(doc *exchange.Document) string {
	var b strings.Builder
	for i := range doc.Review.Patch.LineCount() {
		b.WriteString(doc.Review.Patch.LineText(i) + "\n")
	}
	return b.String()
}

// compareCommands checks that every active comment of the example came
// back with its id, path, side, lines, body and replies.
func compareCommands(t *testing.T, want, got *exchange.Document) {
	t.Helper()
	if got.Review.Title != want.Review.Title || got.Review.Summary != want.Review.Summary {
		t.Errorf("got title %q summary %q, want %q and %q", got.Review.Title, got.Review.Summary, want.Review.Title, want.Review.Summary)
	}
	back := map[string]*exchange.Comment{}
	for _, c := range got.Review.Comments {
		back[c.ID] = c
	}
	n := 0
	for _, w := range want.Review.Comments {
		if w.StateNorm() != exchange.StateActive {
			continue
		}
		n++
		g := back[w.ID]
		if g == nil {
			t.Errorf("%s did not come back", w.ID)
			continue
		}
		if got, want := commentKey(g), commentKey(w); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", w.ID, got, want)
		}
	}
	if n != len(got.Review.Comments) {
		t.Errorf("got %d comments back, want the %d active ones", len(got.Review.Comments), n)
	}
}

func commentKey(c *exchange.Comment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %d-%d %q\n", c.Path, c.SideNorm(), c.StartLine, cmp.Or(c.EndLine, c.StartLine), c.Body)
	for _, r := range c.Replies {
		fmt.Fprintf(&b, "  %s @ %s: %q\n", r.Author, r.At, r.Body)
	}
	return b.String()
}
