package anchor

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// FuzzAnalyze feeds arbitrary patches and anchors through BuildIndex and
// Resolve and applies every fix alone: nothing panics, every range and
// edit lies inside the document, and each fix leaves a document without
// syntax errors that still holds every comment.
func FuzzAnalyze(f *testing.F) {
	f.Add(strings.Join(handlerPatch, "\n"), "internal/api/handler.go", "RIGHT", 72, 72, "result, err := calculate(input)", "active", false)
	f.Add(strings.Join(handlerPatch, "\n"), "internal/api/handler.go", "RIGHT", 75, 77, "return result, nil", "", true)
	f.Add(strings.Join(handlerPatch, "\n"), "b/internal/api/handler.go", "left", 72, 70, "-    result := calculate(input)", "orphaned", false)
	f.Add(strings.Join(handlerPatch, "\n"), "docs/new.md", "LEFT", 1, 2, "# Title\nbody text", "stale", true)
	f.Add(strings.Join(tiePatch, "\n"), "t.go", "RIGHT", 12, 12, "x := 1", "", false)
	f.Add(strings.Join(blankPatch, "\n"), "b.go", "RIGHT", 9, 9, "first := 1\n\n\nsecond := 2", "stale", true)
	f.Add("@@ -1 +1 @@\n-a\n+b", "", "RIGHT", 0, -1, "\r\n", "dismissed", false)
	f.Fuzz(func(t *testing.T, patch, path, side string, start, end int, snippet, state string, oneLine bool) {
		var fields []string
		add := func(k, v string) { fields = append(fields, jsontext.Quote(k)+": "+v) }
		add("id", `"fz"`)
		add("path", jsontext.Quote(path))
		add("side", jsontext.Quote(side))
		add("start_line", strconv.Itoa(start))
		if end != start {
			add("end_line", strconv.Itoa(end))
		}
		add("body", `"b"`)
		if state != "" {
			add("state", jsontext.Quote(state))
		}
		if snippet != "" {
			add("snippet", jsontext.Quote(snippet))
		}
		sep := ", "
		if !oneLine {
			sep = ",\n      "
		}
		comment := "{" + strings.Join(fields, sep) + "}"
		src := reviewJSON(strings.Split(patch, "\n"), comment, cm(`"id": "other", "path": "x", "side": "RIGHT", "start_line": 1`))
		doc := exchange.Parse(src)
		if len(doc.Syntax) > 0 {
			t.Skip("not a valid document")
		}
		ix := BuildIndex(&doc.Review.Patch)
		a := Resolve(doc, ix, Options{})
		if len(a.Resolutions) != len(doc.Review.Comments) {
			t.Fatalf("got %d resolutions for %d comments", len(a.Resolutions), len(doc.Review.Comments))
		}
		for _, r := range a.Resolutions {
			_ = r.Lines()
			if len(r.Candidates) > maxCandidates {
				t.Fatalf("got %d candidates, want at most %d", len(r.Candidates), maxCandidates)
			}
		}
		for i := range doc.Review.Patch.LineCount() {
			_ = a.CommentsOn(i)
		}
		checkEveryFix(t, doc, a)
	})
}

// A stale comment whose snippet is elsewhere gets snippet-mismatch and
// stale-anchor, both offering the move; fixAll applies neither, whatever
// the members' order: no automatic fix changes a comment's state, and a
// move that kept "stale" would leave it saying something false. fix says
// why it left the comment.
func TestFixAllLeavesAStaleComment(t *testing.T) {
	for _, order := range []string{
		`"snippet": "return result, nil", "state": "stale"`,
		`"state": "stale", "snippet": "return result, nil"`,
	} {
		src := reviewJSON(handlerPatch, cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 71, `+order))
		f, err := FixDocument(src)
		if err != nil {
			t.Fatalf("%s: FixDocument: %v", order, err)
		}
		out, applied := f.Src, f.Applied
		var got []string
		for _, a := range applied {
			got = append(got, fmt.Sprint(a.Declined)+" "+a.Code+": "+a.Done)
		}
		if want := []string{`true snippet-mismatch: left c1 at RIGHT 71: it is stale, and fix never changes a comment's state (its snippet is at RIGHT 74)`}; !slices.Equal(got, want) {
			t.Errorf("%s: got applied %q, want %q", order, got, want)
		}
		if !bytes.Equal(out, src) {
			t.Errorf("%s: got a changed document:\n%s", order, out)
		}
	}
}

// A comment on a blank line whose snippet is nowhere is offered no
// "update snippet" fix: it would write an empty snippet.
func TestNoEmptySnippetUpdate(t *testing.T) {
	patch := []string{"--- a/x.go", "+++ b/x.go", "@@ -1,2 +1,3 @@", " a()", "+", " b()"}
	_, a := analyze(t, reviewJSON(patch, cm(`"id": "c1", "path": "x.go", "side": "RIGHT", "start_line": 2, "snippet": "c()"`)), Options{})
	if len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != exchange.CodeSnippetMismatch {
		t.Fatalf("got %v, want one snippet-mismatch", a.Diagnostics)
	}
	for _, f := range a.Diagnostics[0].Fixes {
		if strings.HasPrefix(f.Title, "Update") {
			t.Errorf("got fix %q, want no snippet update from a blank line", f.Title)
		}
	}
}
