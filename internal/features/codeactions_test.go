package features

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

var fixedNow = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

const fixedAt = "2026-12-02T10:00:00Z"

// applyChecked applies edit to src and checks that the result is still JSON.
func applyChecked(t *testing.T, src string, edits ...exchange.Edit) string {
	t.Helper()
	out, err := exchange.ApplyEdits([]byte(src), edits)
	if err != nil {
		t.Fatalf("applying %+v: %v", edits, err)
	}
	if doc := exchange.Parse(out); len(doc.Syntax) > 0 {
		t.Fatalf("the result has syntax errors %v:\n%s", doc.Syntax, out)
	}
	return string(out)
}

// smallPatch is a small patch: RIGHT 1–3 / LEFT 1–3 with a change in line 2.
const smallPatch = `[
    "diff --git a/a.go b/a.go",
    "--- a/a.go",
    "+++ b/a.go",
    "@@ -1,3 +1,3 @@",
    " package a",
    "-var x = 1",
    "+var x = 2",
    " // end"
  ]`

func TestStamp(t *testing.T) {
	tests := []struct {
		in   time.Time
		want string
	}{
		{fixedNow, fixedAt},
		{time.Date(2026, 12, 2, 11, 0, 0, 999_999_999, time.FixedZone("CET", 3600)), fixedAt},
		{time.Date(2027, 1, 1, 0, 0, 5, 0, time.UTC), "2027-01-01T00:00:05Z"},
	}
	for _, tt := range tests {
		t.Run(tt.in.String(), func(t *testing.T) {
			if got := Stamp(tt.in); got != tt.want {
				t.Errorf("Stamp(%v): got %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestReplyEdit(t *testing.T) {
	tests := []struct {
		name    string
		comment string // the comment object as it stands in the comments array
		want    string // the same after the edit; "" when no edit is possible
	}{
		{
			name: "after a one-line reply",
			comment: `{
      "id": "c1",
      "body": "b",
      "replies": [
        { "author": "hduran", "body": "ok" }
      ]
    }`,
			want: `{
      "id": "c1",
      "body": "b",
      "replies": [
        { "author": "hduran", "body": "ok" },
        { "author": "user", "body": "", "at": "` + fixedAt + `" }
      ]
    }`,
		},
		{
			name: "after a multi-line reply",
			comment: `{
      "id": "c1",
      "body": "b",
      "replies": [
        {
          "author": "hduran",
          "body": "ok"
        }
      ]
    }`,
			want: `{
      "id": "c1",
      "body": "b",
      "replies": [
        {
          "author": "hduran",
          "body": "ok"
        },
        {
          "author": "user",
          "body": "",
          "at": "` + fixedAt + `"
        }
      ]
    }`,
		},
		{
			name: "first reply, after the known members and before unknown ones",
			comment: `{
      "id": "c1",
      "body": "b",
      "at": "2026-01-01T00:00:00Z",
      "x-note": 1
    }`,
			want: `{
      "id": "c1",
      "body": "b",
      "at": "2026-01-01T00:00:00Z",
      "replies": [
        {
          "author": "user",
          "body": "",
          "at": "` + fixedAt + `"
        }
      ],
      "x-note": 1
    }`,
		},
		{
			name:    "empty replies",
			comment: "{\n      \"id\": \"c1\",\n      \"body\": \"b\",\n      \"replies\": []\n    }",
			want: `{
      "id": "c1",
      "body": "b",
      "replies": [
        {
          "author": "user",
          "body": "",
          "at": "` + fixedAt + `"
        }
      ]
    }`,
		},
		{
			name:    "one-line comment stays on one line",
			comment: `{ "id": "c1", "body": "b" }`,
			want:    `{ "id": "c1", "body": "b", "replies": [{ "author": "user", "body": "", "at": "` + fixedAt + `" }] }`,
		},
		{
			name:    "one-line comment, one-line replies",
			comment: `{"id": "c1", "body": "b", "replies": [{"author": "a", "body": "x"}]}`,
			want:    `{"id": "c1", "body": "b", "replies": [{"author": "a", "body": "x"}, {"author": "user", "body": "", "at": "` + fixedAt + `"}]}`,
		},
		{
			name:    "tabs",
			comment: "{\n\t\t\t\"id\": \"c1\",\n\t\t\t\"body\": \"b\"\n\t\t}",
			want:    "{\n\t\t\t\"id\": \"c1\",\n\t\t\t\"body\": \"b\",\n\t\t\t\"replies\": [\n\t\t\t\t{\n\t\t\t\t\t\"author\": \"user\",\n\t\t\t\t\t\"body\": \"\",\n\t\t\t\t\t\"at\": \"" + fixedAt + "\"\n\t\t\t\t}\n\t\t\t]\n\t\t}",
		},
		{
			name:    "replies is not an array",
			comment: `{ "id": "c1", "body": "b", "replies": "none" }`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "{\n  \"leanreview_review\": 1,\n  \"patch\": [],\n  \"comments\": [\n    " + tt.comment + "\n  ]\n}\n"
			doc := exchange.Parse([]byte(src))
			if len(doc.Syntax) > 0 || len(doc.Review.Comments) != 1 {
				t.Fatalf("bad test document: %v", doc.Syntax)
			}
			e, ok := exchange.ReplyEdit(doc.Text, doc.Review.Comments[0], DefaultAuthor, "", fixedAt)
			if tt.want == "" {
				if ok {
					t.Errorf("got edit %+v, want none", e)
				}
				return
			}
			if !ok {
				t.Fatalf("got no edit, want one")
			}
			want := strings.Replace(src, tt.comment, tt.want, 1)
			if got := applyChecked(t, src, e); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestReplyEditCRLF(t *testing.T) {
	src := strings.ReplaceAll("{\n  \"leanreview_review\": 1,\n  \"patch\": [],\n  \"comments\": [\n    {\n      \"id\": \"c1\",\n      \"body\": \"b\"\n    }\n  ]\n}\n", "\n", "\r\n")
	doc := exchange.Parse([]byte(src))
	e, ok := exchange.ReplyEdit(doc.Text, doc.Review.Comments[0], "ana", "", fixedAt)
	if !ok {
		t.Fatal("got no edit, want one")
	}
	got := applyChecked(t, src, e)
	want := strings.ReplaceAll("{\n  \"leanreview_review\": 1,\n  \"patch\": [],\n  \"comments\": [\n    {\n      \"id\": \"c1\",\n      \"body\": \"b\",\n      \"replies\": [\n        {\n          \"author\": \"ana\",\n          \"body\": \"\",\n          \"at\": \""+fixedAt+"\"\n        }\n      ]\n    }\n  ]\n}\n", "\n", "\r\n")
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestNewCommentEdit(t *testing.T) {
	nc := exchange.NewComment{ID: "c2", Author: "ana", Path: "a.go", Side: "RIGHT", Start: 2, End: 2, Snippet: "var x = 2", At: fixedAt}
	const members = `"id": "c2", "author": "ana", "path": "a.go", "side": "RIGHT", "start_line": 2, "body": "", "state": "active", "snippet": "var x = 2", "at": "` + fixedAt + `"`
	multi := func(indent, close string) string {
		return "{\n" + indent + strings.ReplaceAll(members, `, "`, ",\n"+indent+`"`) + "\n" + close + "}"
	}
	tests := []struct {
		name      string
		src, want string
		nc        exchange.NewComment
	}{
		{
			name: "after a multi-line comment, copying its layout",
			src:  "{\n    \"leanreview_review\": 1,\n    \"patch\": " + smallPatch + ",\n    \"comments\": [\n        {\n            \"id\": \"c1\",\n            \"body\": \"b\"\n        }\n    ]\n}\n",
			want: "{\n    \"leanreview_review\": 1,\n    \"patch\": " + smallPatch + ",\n    \"comments\": [\n        {\n            \"id\": \"c1\",\n            \"body\": \"b\"\n        },\n        " +
				multi("            ", "        ") + "\n    ]\n}\n",
		},
		{
			name: "after one-line comments, one per line",
			src:  "{\n  \"leanreview_review\": 1,\n  \"patch\": " + smallPatch + ",\n  \"comments\": [\n    { \"id\": \"c1\", \"body\": \"b\" }\n  ]\n}\n",
			want: "{\n  \"leanreview_review\": 1,\n  \"patch\": " + smallPatch + ",\n  \"comments\": [\n    { \"id\": \"c1\", \"body\": \"b\" },\n    { " + members + " }\n  ]\n}\n",
		},
		{
			name: "empty comments in a pretty-printed document",
			src:  "{\n  \"leanreview_review\": 1,\n  \"patch\": " + smallPatch + ",\n  \"comments\": []\n}\n",
			want: "{\n  \"leanreview_review\": 1,\n  \"patch\": " + smallPatch + ",\n  \"comments\": [\n    " + multi("      ", "    ") + "\n  ]\n}\n",
		},
		{
			name: "empty comments in a one-line document",
			src:  `{"leanreview_review": 1, "patch": ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -1,2 +1,2 @@", " package a", "-var x = 1", "+var x = 2"], "comments": []}`,
			want: `{"leanreview_review": 1, "patch": ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -1,2 +1,2 @@", " package a", "-var x = 1", "+var x = 2"], "comments": [{` + members + `}]}`,
		},
		{
			name: "no comments member: after the patch",
			src:  "{\n  \"leanreview_review\": 1,\n  \"patch\": " + smallPatch + ",\n  \"x-gen\": \"llm\"\n}\n",
			want: "{\n  \"leanreview_review\": 1,\n  \"patch\": " + smallPatch + ",\n  \"comments\": [\n    " + multi("      ", "    ") + "\n  ],\n  \"x-gen\": \"llm\"\n}\n",
		},
		{
			name: "a range without a snippet",
			src:  "{\"leanreview_review\": 1, \"patch\": " + smallPatch + ", \"comments\": []}",
			nc:   exchange.NewComment{ID: "c1", Author: "user", Path: "a.go", Side: "LEFT", Start: 1, End: 2, At: fixedAt},
			want: "{\"leanreview_review\": 1, \"patch\": " + smallPatch + `, "comments": [{"id": "c1", "author": "user", "path": "a.go", "side": "LEFT", "start_line": 1, "end_line": 2, "body": "", "state": "active", "at": "` + fixedAt + `"}]}`,
		},
		{
			name: "comments is not an array",
			src:  "{\"leanreview_review\": 1, \"patch\": " + smallPatch + ", \"comments\": {}}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := exchange.Parse([]byte(tt.src))
			if len(doc.Syntax) > 0 {
				t.Fatalf("bad test document: %v", doc.Syntax)
			}
			c := nc
			if tt.nc.ID != "" {
				c = tt.nc
			}
			e, ok := exchange.NewCommentEdit(doc, c)
			if tt.want == "" {
				if ok {
					t.Errorf("got edit %+v, want none", e)
				}
				return
			}
			if !ok {
				t.Fatal("got no edit, want one")
			}
			got := applyChecked(t, tt.src, e)
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			// The new comment resolves where it was put.
			after := exchange.Parse([]byte(got))
			an := analyze(after)
			last := an.Anchors.Resolutions[len(an.Anchors.Resolutions)-1]
			if last.Comment.ID != c.ID || !last.Resolved {
				t.Errorf("the new comment %s: got resolved=%v (%s), want resolved", last.Comment.ID, last.Resolved, last.Reason)
			}
		})
	}
}

func TestNewCommentEditCRLF(t *testing.T) {
	src := strings.ReplaceAll("{\n  \"leanreview_review\": 1,\n  \"patch\": "+smallPatch+",\n  \"comments\": []\n}\n", "\n", "\r\n")
	doc := exchange.Parse([]byte(src))
	e, ok := exchange.NewCommentEdit(doc, exchange.NewComment{ID: "c1", Author: "user", Path: "a.go", Side: "RIGHT", Start: 1, End: 1, Snippet: "package a", At: fixedAt})
	if !ok {
		t.Fatal("got no edit, want one")
	}
	got := applyChecked(t, src, e)
	if n, crlf := strings.Count(got, "\n"), strings.Count(got, "\r\n"); n != crlf {
		t.Errorf("got %d line feeds, %d of them in CRLF, want all:\n%q", n, crlf, got)
	}
	if !strings.Contains(got, "\"comments\": [\r\n    {\r\n      \"id\": \"c1\",\r\n") {
		t.Errorf("got\n%q\nwant a multi-line comment", got)
	}
}

func TestFreshID(t *testing.T) {
	tests := []struct {
		ids  []string
		want string
	}{
		{nil, "c1"},
		{[]string{"c1", "c2"}, "c3"},
		{[]string{"c1", "c3"}, "c4"}, // not the gap: c2 was probably deleted
		{[]string{"c2", "x", ""}, "c3"},
		{[]string{"c01", "c5x", "c-1", "C7"}, "c1"},
		{[]string{"c9", "c10", "c10"}, "c11"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.ids, ","), func(t *testing.T) {
			var cs []string
			for _, id := range tt.ids {
				cs = append(cs, `{"id": `+jsontext.Quote(id)+`, "path": "a.go", "side": "RIGHT", "start_line": 1, "body": ""}`)
			}
			doc := exchange.Parse([]byte(`{"leanreview_review": 1, "patch": [], "comments": [` + strings.Join(cs, ", ") + `]}`))
			if got := FreshID(doc); got != tt.want {
				t.Errorf("FreshID(%q): got %s, want %s", tt.ids, got, tt.want)
			}
		})
	}
}

// actionReview has a comment in each state; c5 is stale one line above its
// snippet, c6 orphaned although it resolves.
const actionReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/a.go b/a.go",
    "--- a/a.go",
    "+++ b/a.go",
    "@@ -1,3 +1,3 @@",
    " package a",
    "-var x = 1",
    "+var x = 2",
    " // end",
    "\\ No newline at end of file",
    "diff --git a/new.go b/new.go",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/new.go",
    "@@ -0,0 +1 @@",
    "+package b"
  ],
  "comments": [
    { "id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 2, "body": "one", "snippet": "var x = 2" },
    { "id": "c2", "path": "a.go", "side": "RIGHT", "start_line": 2, "body": "two", "state": "dismissed" },
    { "id": "c3", "path": "a.go", "side": "RIGHT", "start_line": 9, "body": "three", "state": "orphaned" },
    { "path": "a.go", "side": "RIGHT", "start_line": 1, "body": "four", "state": "active" },
    { "id": "c5", "path": "a.go", "side": "RIGHT", "start_line": 1, "body": "five", "state": "stale", "snippet": "var x = 2" },
    { "id": "c6", "path": "a.go", "side": "LEFT", "start_line": 2, "body": "six", "state": "orphaned" }
  ]
}
`

func TestActionsAt(t *testing.T) {
	tests := []struct {
		at   string // the cursor is one byte into the first occurrence
		to   string // the selection's end, one byte into it; "" for a cursor
		want []string
		// resolves lists "title prefix=code" for actions that are fixes.
		resolves []string
	}{
		{at: `"one"`, want: []string{"Dismiss c1", "Reply to c1"}},
		{at: `{ "id": "c1"`, want: []string{"Dismiss c1", "Reply to c1"}},
		{at: `"two"`, want: []string{"Restore c2", "Reply to c2"}},
		{
			at:       `"three"`,
			want:     []string{"Reactivate c3", "Dismiss c3", "Reply to c3"},
			resolves: []string{"Dismiss c3=orphaned-anchor"},
		},
		{at: `"four"`, want: []string{"Dismiss #4", "Reply to #4"}},
		{
			at:       `"five"`,
			want:     []string{"Reactivate c5", "Dismiss c5", "Reply to c5", "Re-anchor c5 by content: move to RIGHT 2 (snippet found 1 line lower)"},
			resolves: []string{"Dismiss c5=snippet-mismatch", "Re-anchor c5=stale-anchor"},
		},
		{
			at:       `"six"`,
			want:     []string{"Reactivate c6", "Dismiss c6", "Reply to c6"},
			resolves: []string{"Reactivate c6=orphaned-resolves"},
		},
		{at: `" package a"`, want: []string{"Comment on RIGHT 1", "Comment on LEFT 1"}},
		{at: `"-var x = 1"`, want: []string{"Comment on LEFT 2"}},
		{at: `"+var x = 2"`, want: []string{"Comment on RIGHT 2"}},
		{at: `"+package b"`, want: []string{"Comment on RIGHT 1"}}, // a new file has no LEFT
		{at: `" package a"`, to: `" // end"`, want: []string{"Comment on RIGHT 1–3", "Comment on LEFT 1–3"}},
		{at: `" package a"`, to: `"+var x = 2"`, want: []string{"Comment on RIGHT 1–2"}},
		{at: `"-var x = 1"`, to: `"+var x = 2"`, want: []string{"Comment on LEFT 2"}},                       // no image holds both ends
		{at: `" package a"`, to: `"+package b"`, want: []string{"Comment on RIGHT 1", "Comment on LEFT 1"}}, // another file: the cursor's line
		{at: `"\\ No newline`},
		{at: `"@@ -1,3`},
		{at: `"--- a/a.go"`},
		{at: `"leanreview_review"`},
		{at: `"comments": [`},
	}
	doc := exchange.Parse([]byte(actionReview))
	an := analyze(doc)
	for _, tt := range tests {
		t.Run(tt.at+".."+tt.to, func(t *testing.T) {
			start := strings.Index(actionReview, tt.at)
			if start < 0 {
				t.Fatalf("%q is not in the document", tt.at)
			}
			start++
			end := start
			if tt.to != "" {
				end = strings.Index(actionReview, tt.to) + 1
			}
			as := actionsAt(an, start, end, ActionOptions{Now: fixedNow})
			var got, resolves []string
			for _, a := range as {
				got = append(got, a.Title)
				if len(a.Edits) == 0 {
					t.Errorf("at %s: %q has no edits", tt.at, a.Title)
				}
				applyChecked(t, actionReview, a.Edits...)
				if a.Resolves != nil {
					for _, r := range tt.resolves {
						prefix, code, _ := strings.Cut(r, "=")
						if strings.HasPrefix(a.Title, prefix) && a.Resolves.Code == code {
							resolves = append(resolves, r)
						}
					}
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("at %s…%s: got %q, want %q", tt.at, tt.to, got, tt.want)
			}
			if len(resolves) != len(tt.resolves) {
				t.Errorf("at %s: got fixes %q, want %q", tt.at, resolves, tt.resolves)
			}
		})
	}
}

func TestActionsAtEdits(t *testing.T) {
	doc := exchange.Parse([]byte(actionReview))
	an := analyze(doc)
	run := func(at, title string) string {
		t.Helper()
		off := strings.Index(actionReview, at) + 1
		for _, a := range actionsAt(an, off, off, ActionOptions{Author: "ana", Now: fixedNow}) {
			if strings.HasPrefix(a.Title, title) {
				return applyChecked(t, actionReview, a.Edits...)
			}
		}
		t.Fatalf("no %q at %s", title, at)
		return ""
	}
	tests := []struct {
		at, title, from, to string
	}{
		{`"one"`, "Dismiss", `"body": "one", "snippet"`, `"body": "one", "state": "dismissed", "snippet"`}, // in the spec's key order
		{`"two"`, "Restore", `"body": "two", "state": "dismissed"`, `"body": "two", "state": "active"`},
		{`"three"`, "Reactivate", `"body": "three", "state": "orphaned"`, `"body": "three", "state": "active"`},
		{`"five"`, "Re-anchor", `"start_line": 1, "body": "five", "state": "stale"`, `"start_line": 2, "body": "five", "state": "active"`},
		{`"one"`, "Reply", `"snippet": "var x = 2" },`, `"snippet": "var x = 2", "replies": [{ "author": "ana", "body": "", "at": "` + fixedAt + `" }] },`},
		{`"+var x = 2"`, "Comment on RIGHT 2", `"body": "six", "state": "orphaned" }`, `"body": "six", "state": "orphaned" },
    { "id": "c7", "author": "ana", "path": "a.go", "side": "RIGHT", "start_line": 2, "body": "", "state": "active", "snippet": "var x = 2", "at": "` + fixedAt + `" }`},
	}
	for _, tt := range tests {
		t.Run(tt.title+" "+tt.at, func(t *testing.T) {
			want := strings.Replace(actionReview, tt.from, tt.to, 1)
			if want == actionReview {
				t.Fatalf("%s: %q is not in the document", tt.title, tt.from)
			}
			if got := run(tt.at, tt.title); got != want {
				t.Errorf("%s at %s: got\n%s\nwant\n%s", tt.title, tt.at, got, want)
			}
		})
	}
}

func TestActionsAtRefusesSyntaxErrors(t *testing.T) {
	src := strings.Replace(actionReview, `"body": "one"`, `"body": one"`, 1)
	doc := exchange.Parse([]byte(src))
	if len(doc.Syntax) == 0 {
		t.Fatal("the test document should be broken")
	}
	off := strings.Index(src, `"+var x = 2"`) + 1
	if as := actionsAt(analyze(doc), off, off, ActionOptions{Now: fixedNow}); len(as) != 0 {
		t.Errorf("got %d actions, want none", len(as))
	}
}
