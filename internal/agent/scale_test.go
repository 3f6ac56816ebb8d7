package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestParallelWritesAllLand issues 20 lreview_add_comment and 10
// lreview_reply calls at once on one review, with reads among them: every
// one lands, the ids are unique, and the file stays valid and formatted.
func TestParallelWritesAllLand(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"v2.diff": rebaseDiff})
	var created NewOutput
	s.ok("lreview_new", map[string]any{"diff_file": "v2.diff", "file": "pr.review.json"}, &created)
	var first Comment
	s.ok("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 11, "body": "first"}, &first)

	var wg sync.WaitGroup
	errs := make(chan string, 40)
	ids := make(chan string, 20)
	for i := range 30 {
		wg.Go(func() {
			args := map[string]any{"file": "pr.review.json", "body": fmt.Sprintf("call %d", i)}
			tool := "lreview_reply"
			if i < 20 {
				tool = "lreview_add_comment"
				args["path"], args["side"], args["start_line"] = "app/users.py", "RIGHT", 9+i%7
			} else {
				args["id"] = first.ID
			}
			res := s.call(tool, args)
			if res.IsError {
				errs <- fmt.Sprintf("%s %d: %s", tool, i, resultText(res))
				return
			}
			if i < 20 {
				ids <- strings.Fields(resultText(res))[1] // "added c7 on …"
			}
		})
	}
	// Reads meanwhile share the cached versions with the writes.
	for i := range 10 {
		wg.Go(func() {
			tool := []string{"lreview_comments", "lreview_check", "lreview_locate"}[i%3]
			if res := s.call(tool, map[string]any{"file": "pr.review.json"}); res.IsError {
				errs <- fmt.Sprintf("%s %d: %s", tool, i, resultText(res))
			}
		})
	}
	wg.Wait()
	close(errs)
	close(ids)
	for e := range errs {
		t.Error(e)
	}
	data := []byte(s.read("pr.review.json"))
	doc := exchange.Parse(data)
	if len(doc.Syntax) > 0 {
		t.Fatalf("the file is not valid JSON: %v", doc.Syntax)
	}
	if got := len(doc.Review.Comments); got != 21 {
		t.Errorf("got %d comments, want 21", got)
	}
	seen := map[string]bool{}
	for _, c := range doc.Review.Comments {
		if seen[c.ID] {
			t.Errorf("id %s twice", c.ID)
		}
		seen[c.ID] = true
	}
	if got := len(doc.Review.Comments[0].Replies); got != 10 {
		t.Errorf("got %d replies to %s, want 10", got, first.ID)
	}
	var got []string
	for id := range ids {
		got = append(got, id)
	}
	if slices.Sort(got); len(slices.Compact(got)) != 20 {
		t.Errorf("the calls answered ids %v, want 20 distinct", got)
	}
	if f, err := exchange.Format(doc); err != nil || !bytes.Equal(f, data) {
		t.Errorf("the file is not formatted (%v):\n%s", err, data)
	}
}

// TestChangeBySomeoneElseInvalidatesCache reads a review, changes it
// behind the server's back, and reads it again: the change is seen.
func TestChangeBySomeoneElseInvalidatesCache(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	var out CommentsOutput
	s.ok("lreview_comments", map[string]any{"file": "pr.review.json"}, &out)
	// Same size, same second: only the content tells.
	changed := strings.Replace(fixture(t), "Log the deletion.", "Log the removals.", 1)
	writeFile(t, s.root+"/pr.review.json", changed)
	s.ok("lreview_comments", map[string]any{"file": "pr.review.json", "id": "c3"}, &out)
	if len(out.Comments) != 1 || out.Comments[0].Body != "Log the removals." {
		t.Errorf("after a change by someone else: got %+v", out.Comments)
	}
}

// bigReview is the generated 8 MB review (2,000 comments).
var bigReview = sync.OnceValue(func() string { return string(reviewgen.Generate(reviewgen.Default())) })

// TestPagesFit reads the 8 MB review's comments and diagnostics a page at
// a time: each reply's text stays under 16 KB, the totals are given on
// every page, and the cursors walk every item once.
func TestPagesFit(t *testing.T) {
	if testing.Short() {
		t.Skip("the 8 MB review")
	}
	s := newSession(t, Options{}, map[string]string{"big.review.json": bigReview()})
	var out CommentsOutput
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		args := map[string]any{"file": "big.review.json"}
		if cursor != "" {
			args["cursor"] = cursor
		}
		text := s.ok("lreview_comments", args, &out)
		if pages == 0 {
			data, _ := json.Marshal(out)
			t.Logf("lreview_comments, first page: %d bytes of text, %d of structured content", len(text), len(data))
		}
		pages++
		if len(text) > maxPageText {
			t.Fatalf("page %d: text of %d bytes, want at most 16 KB", pages, len(text))
		}
		if out.Totals.Comments != 2000 || out.Total != 2000 || len(out.Comments) == 0 || len(out.Comments) > defaultLimit {
			t.Fatalf("page %d: got totals %+v, total %d, %d comments", pages, out.Totals, out.Total, len(out.Comments))
		}
		for _, c := range out.Comments {
			if seen[c.ID] {
				t.Fatalf("page %d: %s again", pages, c.ID)
			}
			seen[c.ID] = true
		}
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != 2000 {
		t.Errorf("the pages held %d comments, want 2000", len(seen))
	}
	t.Logf("lreview_comments: 2000 comments in %d pages", pages)

	s.ok("lreview_comments", map[string]any{"file": "big.review.json", "problems": true, "limit": 500}, &out)
	if out.Total != out.Totals.Problems || out.Total == 0 || out.Total == 2000 {
		t.Errorf("problems: got total %d of totals %+v", out.Total, out.Totals)
	}
	for _, c := range out.Comments {
		if c.Anchor.Status == "ok" {
			t.Logf("%s: a problem with its anchor ok (a diagnostic)", c.ID)
			break
		}
	}

	var chk CheckOutput
	text := s.ok("lreview_check", map[string]any{"file": "big.review.json"}, &chk)
	data, _ := json.Marshal(chk)
	t.Logf("lreview_check, first page: %d bytes of text, %d of structured content", len(text), len(data))
	all := chk.Counts.Error + chk.Counts.Warning + chk.Counts.Information + chk.Counts.Hint
	if len(text) > maxPageText || chk.Total != all || len(chk.Diagnostics) > defaultLimit || chk.NextCursor == "" {
		t.Errorf("check: %d bytes of text, total %d of %d, %d on the page, next %q", len(text), chk.Total, all, len(chk.Diagnostics), chk.NextCursor)
	}
	s.ok("lreview_check", map[string]any{"file": "big.review.json", "min_severity": "warning", "limit": 5}, &chk)
	if chk.Total != chk.Counts.Error+chk.Counts.Warning || len(chk.Diagnostics) != min(5, chk.Total) {
		t.Errorf("check min_severity warning: got total %d, %d on the page, counts %+v", chk.Total, len(chk.Diagnostics), chk.Counts)
	}
	// A cursor of other filters, or of another version of the file, is refused.
	s.refused("lreview_check", map[string]any{"file": "big.review.json", "cursor": chk.NextCursor}, "cursor: ", "call again without cursor")
	s.refused("lreview_comments", map[string]any{"file": "big.review.json", "limit": 501}, "limit: expected 1 to 500")
}

// TestArgumentWords: a wrong argument is answered in the server's words,
// naming the argument, the values allowed and what to do.
func TestArgumentWords(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t), "notes.txt": "# not JSON\n\nsome notes\n", "data.json": `[1, 2]`})
	base := map[string]any{"file": "pr.review.json", "path": "app/users.py", "body": "x", "start_line": 12}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range base {
			m[a] = b
		}
		m[k] = v
		return m
	}
	s.refused("lreview_add_comment", with("side", "right"), `side: expected RIGHT or LEFT (exactly so), got "right"`)
	s.refused("lreview_add_comment", with("start_line", "12"), `start_line: expected a whole number, got "12"`)
	s.refused("lreview_add_comment", with("start_line", 0), `start_line: expected 1 or more, got 0`)
	s.refused("lreview_add_comment", with("line", 3), `line: lreview_add_comment takes no argument "line"; its arguments are file, path, side, body`)
	s.refused("lreview_add_comment", map[string]any{"file": "pr.review.json", "side": "RIGHT", "body": "x"}, `path: missing: the file of the patch`)
	s.refused("lreview_comments", map[string]any{"file": "pr.review.json", "problems": "yes"}, `problems: expected true or false, got "yes"`)
	s.refused("lreview_preview", map[string]any{"file": "pr.review.json", "change": "merge"}, `change: expected fix, rebase or apply_suggestion (exactly so), got "merge"`)
	for _, f := range []string{"notes.txt", "data.json"} {
		text := s.refused("lreview_check", map[string]any{"file": f}, "file: "+f+" is not a review exchange file", "lreview_new")
		if strings.Count(text, "\n") > 0 {
			t.Errorf("%s: got %q, want one error", f, text)
		}
		s.refused("lreview_comments", map[string]any{"file": f}, "is not a review exchange file")
	}
}

// TestLongCommentCut: a comment whose text alone passes the page's bound
// is cut in the text, whole in the structured content.
func TestLongCommentCut(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	long := strings.Repeat("é", 20_000)
	var ed EditCommentOutput
	s.ok("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c2", "body": long}, &ed)
	var out CommentsOutput
	text := s.ok("lreview_comments", map[string]any{"file": "pr.review.json", "id": "c2"}, &out)
	if len(text) > maxPageText || !strings.Contains(text, "bytes more; the structured content holds it whole)") || !utf8.ValidString(text) {
		t.Errorf("got %d bytes of text ending %q", len(text), text[max(0, len(text)-120):])
	}
	if len(out.Comments) != 1 || out.Comments[0].Body != long {
		t.Errorf("the structured content lost the body")
	}
}
