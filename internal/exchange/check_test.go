package exchange

import (
	"strings"
	"testing"
)

// doc builds a small valid review around the given members, so that each
// row of the table shows only what it is about.
func reviewWith(patch, comments string) string {
	return `{"leanreview_review": 1, "patch": ` + patch + `, "comments": [` + comments + `]}`
}

const okPatch = `["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b"]`

func TestCheckCodes(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		code     string
		severity Severity
		at       string // the exact source text the range covers
		fixed    string // the document after the diagnostic's first fix ("" when none)
	}{
		{"syntax", `{"leanreview_review": 1 "patch": []}`, "syntax", SeverityError, `"`, ""},
		{"syntax at end of input", `{"leanreview_review": 1, "patch": [`, "syntax", SeverityError, `[`, ""},
		{"version missing", `{"patch": [], "comments": []}`, "version-missing", SeverityError, `{`, ""},
		{"version unknown", `{"leanreview_review": 2, "patch": [], "comments": []}`, "version-unknown", SeverityError, `2`, ""},
		{"version as a string", `{"leanreview_review": "1", "patch": [], "comments": []}`, "version-unknown", SeverityError, `"1"`, ""},
		{"version not first", `{"title": "t", "leanreview_review": 1, "patch": [], "comments": []}`, "version-not-first", SeverityWarning, `"leanreview_review"`,
			`{"leanreview_review": 1, "title": "t", "patch": [], "comments": []}`},
		{"schema: wrong type", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": "2", "body": "b"}`), "schema", SeverityError, `"2"`, ""},
		{"schema: missing member on the object's brace", `{"leanreview_review": 1, "patch": []}`, "schema", SeverityError, `{`, ""},
		{"unknown member", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b", "severity": "high"}`), "unknown-field", SeverityHint, `"severity"`,
			reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b"}`)},
		{"html escape", `{"leanreview_review": 1, "title": "a \u003c b", "patch": [], "comments": []}`, "html-escape", SeverityHint, `\u003c`,
			`{"leanreview_review": 1, "title": "a < b", "patch": [], "comments": []}`},
		{"escaped backslash is not an escape", `{"leanreview_review": 1, "title": "a \\u003c b", "patch": [], "comments": []}`, "", 0, "", ""},
		{"patch string form", `{"leanreview_review": 1, "patch": "diff --git a/x b/x\n--- a/x\n", "comments": []}`, "patch-string-form", SeverityHint, `"diff --git a/x b/x\n--- a/x\n"`,
			"{\"leanreview_review\": 1, \"patch\": [\n  \"diff --git a/x b/x\",\n  \"--- a/x\"\n], \"comments\": []}"},
		{"patch trailing empty", `{"leanreview_review": 1, "patch": ["diff --git a/x b/x", ""], "comments": []}`, "patch-trailing-empty", SeverityWarning, `""`,
			`{"leanreview_review": 1, "patch": ["diff --git a/x b/x"], "comments": []}`},
		{"patch multiline element", `{"leanreview_review": 1, "patch": ["diff --git a/x b/x\n--- a/x", "+++ b/x"], "comments": []}`, "patch-multiline-element", SeverityWarning, `"diff --git a/x b/x\n--- a/x"`,
			`{"leanreview_review": 1, "patch": ["diff --git a/x b/x", "--- a/x", "+++ b/x"], "comments": []}`},
		{"id missing", reviewWith(okPatch, `{"path": "x", "side": "RIGHT", "start_line": 1, "body": "b"}`), "id-missing", SeverityHint, `{`,
			reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b"}`)},
		{"id duplicate", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b"}, {"id": "c1", "path": "x", "side": "LEFT", "start_line": 1, "body": "b"}`), "id-duplicate", SeverityError, `"c1"`,
			reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b"}, {"id": "c2", "path": "x", "side": "LEFT", "start_line": 1, "body": "b"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Parse([]byte(tt.src))
			res := Check(doc)
			var found *Diagnostic
			var all []string
			for i, d := range res.Diagnostics {
				all = append(all, d.Code)
				if d.Code == tt.code && found == nil {
					found = &res.Diagnostics[i]
				}
			}
			if tt.code == "" {
				if len(res.Diagnostics) != 0 {
					t.Fatalf("got codes %v, want none", all)
				}
				return
			}
			if found == nil {
				t.Fatalf("got codes %v, want %s", all, tt.code)
			}
			if got := tt.src[found.Range.Start:found.Range.End]; got != tt.at {
				t.Errorf("range covers %q, want %q", got, tt.at)
			}
			if found.Severity != tt.severity {
				t.Errorf("severity %v, want %v", found.Severity, tt.severity)
			}
			if tt.fixed == "" {
				return
			}
			if len(found.Fixes) == 0 {
				t.Fatalf("no fix, want one giving %s", tt.fixed)
			}
			out, err := ApplyEdits([]byte(tt.src), found.Fixes[0].Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.fixed {
				t.Errorf("after %q:\ngot  %s\nwant %s", found.Fixes[0].Title, out, tt.fixed)
			}
			if again := Parse(out); len(again.Syntax) > 0 {
				t.Errorf("the fix left a syntax error: %v", again.Syntax)
			}
		})
	}
}

func TestCheckExampleIsClean(t *testing.T) {
	res := Check(Parse([]byte(strings.TrimSpace(exampleForCheck))))
	if len(res.Diagnostics) != 0 {
		t.Errorf("got %d diagnostics on the spec's example, want none: %+v", len(res.Diagnostics), res.Diagnostics)
	}
}

const exampleForCheck = `{
  "leanreview_review": 1,
  "title": "auth refactor",
  "patch": ["diff --git a/a b/a"],
  "comments": [{"id": "c1", "author": "assistant", "path": "a", "side": "right", "start_line": 72, "body": "b", "state": "active", "snippet": "s", "replies": [{"author": "h", "body": "ok"}]}]
}`

func TestAnchorInvalidComments(t *testing.T) {
	src := reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "MIDDLE", "start_line": 1, "body": "b"}, {"id": "c2", "path": "x", "side": "RIGHT", "start_line": 1, "body": 3}, {"id": "c3", "side": "RIGHT", "start_line": 1, "body": "b"}`)
	doc := Parse([]byte(src))
	res := Check(doc)
	var got []string
	for _, c := range doc.Review.Comments {
		if res.AnchorInvalid[c] {
			got = append(got, c.ID)
		}
	}
	if strings.Join(got, ",") != "c1,c3" {
		t.Errorf("comments skipped by anchoring: got %v, want c1 (bad side) and c3 (no path); c2's bad body is not an anchor member", got)
	}
}
