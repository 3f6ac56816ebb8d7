package anchor

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// reviewJSON builds a review document from patch lines and comment objects
// given as JSON text, laid out as leanreview writes it.
func reviewJSON(patch []string, comments ...string) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"leanreview_review\": 1,\n  \"patch\": [")
	for i, l := range patch {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + jsontext.Quote(l))
	}
	b.WriteString("\n  ],\n  \"comments\": [")
	for i, c := range comments {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + c)
	}
	b.WriteString("\n  ]\n}\n")
	return []byte(b.String())
}

func analyze(t testing.TB, src []byte, opts Options) (*exchange.Document, *Anchoring) {
	t.Helper()
	doc := exchange.Parse(src)
	if len(doc.Syntax) > 0 {
		t.Fatalf("test document has syntax errors: %v\n%s", doc.Syntax, src)
	}
	ix := BuildIndex(&doc.Review.Patch)
	return doc, Resolve(doc, ix, opts)
}

// handlerPatch is the spec's example with correct hunk counts, a second
// hunk, a new file, a deleted file and a renamed one.
//
//	handler.go hunk 0: LEFT 70–73, RIGHT 70–74; hunk 1: LEFT 100–102, RIGHT 101–104
var handlerPatch = []string{
	"diff --git a/internal/api/handler.go b/internal/api/handler.go",
	"--- a/internal/api/handler.go",
	"+++ b/internal/api/handler.go",
	"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",
	"     ctx := context.Background()",     // L70 R70
	"     defer cancel(ctx)",               // L71 R71
	"-    result := calculate(input)",      // L72
	"+    result, err := calculate(input)", // R72
	"+    _ = err",                         // R73
	"     return result, nil",              // L73 R74
	"@@ -100,3 +101,4 @@ func Other() {",
	"     a := 1", // L100 R101
	"+    b := 2", // R102
	"     c := 3", // L101 R103
	"     return", // L102 R104
	"diff --git a/docs/new.md b/docs/new.md",
	"new file mode 100644",
	"--- /dev/null",
	"+++ b/docs/new.md",
	"@@ -0,0 +1,2 @@",
	"+# Title",
	"+body text",
	"diff --git a/old.txt b/old.txt",
	"deleted file mode 100644",
	"--- a/old.txt",
	"+++ /dev/null",
	"@@ -1 +0,0 @@",
	"-gone forever",
	"diff --git a/pkg/a.go b/pkg/b.go",
	"similarity index 80%",
	"rename from pkg/a.go",
	"rename to pkg/b.go",
	"--- a/pkg/a.go",
	"+++ b/pkg/b.go",
	"@@ -1,2 +1,2 @@",
	" package pkg",
	"-var x = 1",
	"+var x = 2",
}

// tiePatch has "x := 1" two lines above and two lines below RIGHT 12.
var tiePatch = []string{
	"diff --git a/t.go b/t.go",
	"--- a/t.go",
	"+++ b/t.go",
	"@@ -10,5 +10,5 @@",
	" x := 1", // 10
	" pad()",  // 11
	"-old()",
	"+mid()",  // 12
	" pad()",  // 13
	" x := 1", // 14
}

// blankPatch has a run of blank lines and a missing final newline.
var blankPatch = []string{
	"diff --git a/b.go b/b.go",
	"--- a/b.go",
	"+++ b/b.go",
	"@@ -1,5 +1,6 @@",
	" first := 1",  // 1
	" ",            // 2
	" ",            // 3
	" second := 2", // 4
	"-third := 3",  // L5
	"\\ No newline at end of file",
	"+third := 33", // R5
	"+fourth := 4", // R6
	"\\ No newline at end of file",
}

// cm writes a comment object on one line; fields are JSON members.
func cm(fields string) string { return "{" + fields + `, "body": "b"}` }

type wantDiag struct {
	code   string
	sev    exchange.Severity
	reason string
	// at is the source text the diagnostic covers.
	at string
	// related are the texts the related ranges cover.
	related []string
	// fixes are the fix titles, "*" appended for Preferred and "!" for Safe.
	fixes []string
	// msg is the message, checked when given.
	msg string
}

type anchorCase struct {
	name     string
	patch    []string
	comments []string
	skip     []int // comment indexes to put in Options.SkipAnchor
	want     []wantDiag
	// resolved describes comment 0's resolution: "RIGHT 72-73" or "reason"
	// or "skipped"; lines are its anchored lines' trimmed contents.
	resolved string
	lines    []string
	// cands are comment 0's candidates: "[path ]SIDE start-end dN[*]".
	cands []string
	// after maps a fix title to comment 0 once that fix alone is applied:
	// "path SIDE start-end state", plus " | snippet" when given.
	after map[string]string
}

var anchorCases = []anchorCase{
	// Resolution and snippet comparison.
	{
		name:     "exact snippet",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "result, err := calculate(input)"`)},
		resolved: "RIGHT 72-72", lines: []string{"result, err := calculate(input)"},
	},
	{
		name:     "snippet is a part of the line",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "calculate(input)"`)},
		resolved: "RIGHT 72-72",
	},
	{
		name:     "snippet with its + marker",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "+    result, err := calculate(input)"`)},
		resolved: "RIGHT 72-72",
	},
	{
		name:     "snippet with its - marker on LEFT",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "LEFT", "start_line": 72, "snippet": "-    result := calculate(input)"`)},
		resolved: "LEFT 72-72", lines: []string{"result := calculate(input)"},
	},
	{
		name:     "context line on both sides, lower-case side",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "left", "start_line": 73, "snippet": "return result, nil"`)},
		resolved: "LEFT 73-73",
	},
	{
		name:     "indentation and inner spaces differ",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "\t result,   err :=  calculate(input)  "`)},
		resolved: "RIGHT 72-72",
	},
	{
		name:     "multi-line snippet with CRLF",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "end_line": 73, "snippet": "result, err := calculate(input)\r\n_ = err\r\n"`)},
		resolved: "RIGHT 72-73", lines: []string{"result, err := calculate(input)", "_ = err"},
	},
	{
		name:     "RIGHT range skips the removed line",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 71, "end_line": 72, "snippet": "defer cancel(ctx)\nresult, err := calculate(input)"`)},
		resolved: "RIGHT 71-72", lines: []string{"defer cancel(ctx)", "result, err := calculate(input)"},
	},
	{
		name:     "blank runs collapse",
		patch:    blankPatch,
		comments: []string{cm(`"id": "c1", "path": "b.go", "side": "RIGHT", "start_line": 1, "end_line": 4, "snippet": "first := 1\n\nsecond := 2"`)},
		resolved: "RIGHT 1-4",
	},
	{
		name:     "no-newline markers are in neither image",
		patch:    blankPatch,
		comments: []string{cm(`"id": "c1", "path": "b.go", "side": "RIGHT", "start_line": 5, "end_line": 6, "snippet": "third := 33\nfourth := 4"`)},
		resolved: "RIGHT 5-6", lines: []string{"third := 33", "fourth := 4"},
	},
	{
		name:     "empty snippet is no mismatch",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 73, "snippet": ""`)},
		resolved: "RIGHT 73-73",
	},
	{
		name:     "renamed file matched by its old name: resolves, with a hint",
		comments: []string{cm(`"id": "c1", "path": "pkg/a.go", "side": "RIGHT", "start_line": 2, "snippet": "var x = 2"`)},
		want: []wantDiag{{
			msg:  `"pkg/a.go" is the old name of renamed file "pkg/b.go": on RIGHT it is called "pkg/b.go"`,
			code: "renamed-path", sev: exchange.SeverityHint, at: `"pkg/a.go"`,
			related: []string{"diff --git a/pkg/a.go b/pkg/b.go"},
			fixes:   []string{`Change c1's path to "pkg/b.go"*`},
		}},
		resolved: "RIGHT 2-2",
	},

	// snippet-mismatch and drift.
	{
		name:     "mismatch with a candidate below",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "return result, nil"`)},
		want: []wantDiag{{
			msg:  `the snippet is not what RIGHT 72 of "internal/api/handler.go" holds; it is at RIGHT 74: return result, nil`,
			code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"return result, nil"`,
			related: []string{"+    result, err := calculate(input)", "     return result, nil"},
			fixes: []string{
				"Re-anchor c1 to RIGHT 74: return result, nil*!",
				"Update c1's snippet from the patch: result, err := calculate(input)",
				"Dismiss c1",
			},
		}},
		resolved: "RIGHT 72-72",
		cands:    []string{"RIGHT 74-74 d2*"},
		after: map[string]string{
			"Re-anchor c1 to RIGHT 74: return result, nil":                        "internal/api/handler.go RIGHT 74-74 active",
			"Update c1's snippet from the patch: result, err := calculate(input)": "internal/api/handler.go RIGHT 72-72 active | result, err := calculate(input)",
			"Dismiss c1": "internal/api/handler.go RIGHT 72-72 dismissed",
		},
	},
	{
		name:     "mismatch found only on the other side",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "result := calculate(input)"`)},
		want: []wantDiag{{
			code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"result := calculate(input)"`,
			related: []string{"+    result, err := calculate(input)", "-    result := calculate(input)"},
			fixes: []string{
				"Re-anchor c1 to LEFT 72: result := calculate(input)*!",
				"Update c1's snippet from the patch: result, err := calculate(input)",
				"Dismiss c1",
			},
		}},
		cands: []string{"LEFT 72-72 d0*"},
		after: map[string]string{"Re-anchor c1 to LEFT 72: result := calculate(input)": "internal/api/handler.go LEFT 72-72 active"},
	},
	{
		name:     "marker that does not fit the side points at the other side",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "-    result := calculate(input)"`)},
		want: []wantDiag{{
			code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"-    result := calculate(input)"`,
			related: []string{"+    result, err := calculate(input)", "-    result := calculate(input)"},
			fixes: []string{
				"Re-anchor c1 to LEFT 72: result := calculate(input)*!",
				"Update c1's snippet from the patch: result, err := calculate(input)",
				"Dismiss c1",
			},
		}},
		cands: []string{"LEFT 72-72 d0*"},
	},
	{
		name:     "tie gives no preferred candidate",
		patch:    tiePatch,
		comments: []string{cm(`"id": "c1", "path": "t.go", "side": "RIGHT", "start_line": 12, "snippet": "x := 1"`)},
		want: []wantDiag{{
			code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"x := 1"`,
			related: []string{"+mid()", " x := 1", " x := 1"},
			fixes:   []string{"Re-anchor c1 to RIGHT 10: x := 1", "Re-anchor c1 to RIGHT 14: x := 1", "Update c1's snippet from the patch: mid()", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 10-10 d2", "RIGHT 14-14 d2"},
	},
	{
		name:     "weak snippet gives no candidate",
		patch:    tiePatch,
		comments: []string{cm(`"id": "c1", "path": "t.go", "side": "RIGHT", "start_line": 12, "snippet": "();"`)},
		want: []wantDiag{{
			code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"();"`,
			related: []string{"+mid()"},
			fixes:   []string{"Update c1's snippet from the patch: mid()", "Dismiss c1"},
		}},
	},
	{
		name:     "renamed file hint rides on the diagnostic",
		comments: []string{cm(`"id": "c1", "path": "pkg/a.go", "side": "RIGHT", "start_line": 2, "snippet": "var y"`)},
		want: []wantDiag{{
			code: "renamed-path", sev: exchange.SeverityHint, at: `"pkg/a.go"`,
			related: []string{"diff --git a/pkg/a.go b/pkg/b.go"},
			fixes:   []string{`Change c1's path to "pkg/b.go"*`},
		}, {
			code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"var y"`,
			related: []string{"+var x = 2", "diff --git a/pkg/a.go b/pkg/b.go"},
			fixes:   []string{"Update c1's snippet from the patch: var x = 2", "Dismiss c1"},
		}},
		resolved: "RIGHT 2-2",
	},

	// orphaned-anchor, every reason.
	{
		name:     "line not in image, no snippet",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 90`)},
		want: []wantDiag{{
			msg:  `RIGHT 90 is not in the patch: the nearest hunk of "internal/api/handler.go" shows RIGHT 101–104`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "90",
			related: []string{"@@ -100,3 +101,4 @@ func Other() {"},
			fixes:   []string{"Mark c1 orphaned", "Dismiss c1"},
		}},
		resolved: "line-not-in-image",
		after: map[string]string{
			"Mark c1 orphaned": "internal/api/handler.go RIGHT 90-90 orphaned",
			"Dismiss c1":       "internal/api/handler.go RIGHT 90-90 dismissed",
		},
	},
	{
		name:     "drifted by one line",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 75, "snippet": "return result, nil"`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "75",
			related: []string{"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {", "     return result, nil"},
			fixes:   []string{"Re-anchor c1 to RIGHT 74: return result, nil*!", "Mark c1 orphaned", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 74-74 d1*"},
		after: map[string]string{"Re-anchor c1 to RIGHT 74: return result, nil": "internal/api/handler.go RIGHT 74-74 active"},
	},
	{
		name:     "multi-line snippet matches as a block",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 80, "end_line": 81, "snippet": "result, err := calculate(input)\n_ = err"`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "80",
			related: []string{"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {", "+    result, err := calculate(input)\",\n    \"+    _ = err"},
			fixes:   []string{"Re-anchor c1 to RIGHT 72–73: result, err := calculate(input)*!", "Mark c1 orphaned", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 72-73 d8*"},
		after: map[string]string{"Re-anchor c1 to RIGHT 72–73: result, err := calculate(input)": "internal/api/handler.go RIGHT 72-73 active"},
	},
	{
		name:     "block move inserts end_line",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 90, "snippet": "result, err := calculate(input)\n_ = err"`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "90",
			related: []string{"@@ -100,3 +101,4 @@ func Other() {", "+    result, err := calculate(input)\",\n    \"+    _ = err"},
			fixes:   []string{"Re-anchor c1 to RIGHT 72–73: result, err := calculate(input)*!", "Mark c1 orphaned", "Dismiss c1"},
		}},
		after: map[string]string{"Re-anchor c1 to RIGHT 72–73: result, err := calculate(input)": "internal/api/handler.go RIGHT 72-73 active"},
	},
	{
		name:     "block that is not consecutive does not match",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 90, "snippet": "ctx := context.Background()\n_ = err"`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "90",
			related: []string{"@@ -100,3 +101,4 @@ func Other() {"},
			fixes:   []string{"Mark c1 orphaned", "Dismiss c1"},
		}},
	},
	{
		name:     "a range keeps its extent when moved",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 76, "end_line": 77, "snippet": "defer cancel(ctx)"`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "76",
			related: []string{"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {", "     defer cancel(ctx)\",\n    \"-    result := calculate(input)\",\n    \"+    result, err := calculate(input)"},
			fixes:   []string{"Re-anchor c1 to RIGHT 71–72: defer cancel(ctx)*!", "Mark c1 orphaned", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 71-72 d5*"},
		after: map[string]string{"Re-anchor c1 to RIGHT 71–72: defer cancel(ctx)": "internal/api/handler.go RIGHT 71-72 active"},
	},
	{
		name:     "end_line not in image",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 74, "end_line": 76`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "76",
			related: []string{"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {"},
			fixes:   []string{"Mark c1 orphaned", "Dismiss c1"},
		}},
	},
	{
		name:     "range crosses hunks",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "end_line": 102`)},
		want: []wantDiag{{
			msg:  `RIGHT 72–102 crosses hunks: a range must stay within one hunk`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "range-crosses-hunks", at: "102",
			related: []string{"+    result, err := calculate(input)", "+    b := 2"},
			fixes:   []string{"Mark c1 orphaned", "Dismiss c1"},
		}},
		resolved: "range-crosses-hunks",
	},
	{
		name:     "inverted range",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 74, "end_line": 72, "snippet": "_ = err"`)},
		want: []wantDiag{{
			msg:  `end_line 72 is before start_line 74: the range holds no line; its snippet is at RIGHT 73: _ = err`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "inverted-range", at: "72",
			related: []string{"+    _ = err"},
			// Swapped, the range holds the snippet: that fix is certain.
			fixes: []string{"Swap c1's start_line and end_line: RIGHT 72–74*!", "Re-anchor c1 to RIGHT 73: _ = err", "Mark c1 orphaned", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 73-73 d1*"},
		after: map[string]string{
			"Swap c1's start_line and end_line: RIGHT 72–74": "internal/api/handler.go RIGHT 72-74 active",
			"Re-anchor c1 to RIGHT 73: _ = err":              "internal/api/handler.go RIGHT 73-73 active",
		},
	},
	{
		name:     "inverted range whose snippet is elsewhere",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 74, "end_line": 72, "snippet": "ctx := context.Background()"`)},
		want: []wantDiag{{
			msg:  `end_line 72 is before start_line 74: the range holds no line; its snippet is at RIGHT 70: ctx := context.Background()`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "inverted-range", at: "72",
			related: []string{"     ctx := context.Background()"},
			fixes:   []string{"Re-anchor c1 to RIGHT 70: ctx := context.Background()*!", "Swap c1's start_line and end_line: RIGHT 72–74", "Mark c1 orphaned", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 70-70 d4*"},
	},
	{
		name:     "new file has no LEFT image",
		comments: []string{cm(`"id": "c1", "path": "docs/new.md", "side": "LEFT", "start_line": 2, "snippet": "body text"`)},
		want: []wantDiag{{
			msg:  `"docs/new.md" is a new file: it has no LEFT (old) image to comment on; its snippet is at RIGHT 2: body text`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "no-such-image", at: `"LEFT"`,
			related: []string{"diff --git a/docs/new.md b/docs/new.md", "+body text"},
			fixes:   []string{"Re-anchor c1 to RIGHT 2: body text*!", "Mark c1 orphaned", "Dismiss c1"},
		}},
		cands: []string{"RIGHT 2-2 d0*"},
		after: map[string]string{"Re-anchor c1 to RIGHT 2: body text": "docs/new.md RIGHT 2-2 active"},
	},
	{
		name:     "deleted file has no RIGHT image",
		comments: []string{cm(`"id": "c1", "path": "old.txt", "side": "RIGHT", "start_line": 1`)},
		want: []wantDiag{{
			msg:  `"old.txt" is a deleted file: it has no RIGHT (new) image to comment on`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "no-such-image", at: `"RIGHT"`,
			related: []string{"diff --git a/old.txt b/old.txt"},
			fixes:   []string{"Mark c1 orphaned", "Dismiss c1"},
		}},
		resolved: "no-such-image",
	},
	{
		name:     "unknown path with a b/ prefix",
		comments: []string{cm(`"id": "c1", "path": "b/internal/api/handler.go", "side": "RIGHT", "start_line": 72, "snippet": "result, err := calculate(input)"`)},
		want: []wantDiag{{
			msg:  `no file "b/internal/api/handler.go" in the patch; did you mean "internal/api/handler.go"? Its snippet is at internal/api/handler.go RIGHT 72: result, err := calculate(input)`,
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "unknown-path", at: `"b/internal/api/handler.go"`,
			related: []string{"diff --git a/internal/api/handler.go b/internal/api/handler.go", "+    result, err := calculate(input)"},
			fixes: []string{
				`Change c1's path to "internal/api/handler.go"*!`,
				"Re-anchor c1 to internal/api/handler.go RIGHT 72: result, err := calculate(input)",
				"Mark c1 orphaned", "Dismiss c1",
			},
		}},
		resolved: "unknown-path",
		cands:    []string{"internal/api/handler.go RIGHT 72-72 d0*"},
		after: map[string]string{
			"Re-anchor c1 to internal/api/handler.go RIGHT 72: result, err := calculate(input)": "internal/api/handler.go RIGHT 72-72 active",
			`Change c1's path to "internal/api/handler.go"`:                                     "internal/api/handler.go RIGHT 72-72 active",
		},
	},
	{
		name:     "unknown path by case, no snippet",
		comments: []string{cm(`"id": "c1", "path": "Internal/API/Handler.go", "side": "RIGHT", "start_line": 72`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "unknown-path", at: `"Internal/API/Handler.go"`,
			related: []string{"diff --git a/internal/api/handler.go b/internal/api/handler.go"},
			fixes:   []string{`Change c1's path to "internal/api/handler.go"*`, "Mark c1 orphaned", "Dismiss c1"},
		}},
	},
	{
		name:     "unknown path by a typo",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handlr.go", "side": "RIGHT", "start_line": 72`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "unknown-path", at: `"internal/api/handlr.go"`,
			related: []string{"diff --git a/internal/api/handler.go b/internal/api/handler.go"},
			fixes:   []string{`Change c1's path to "internal/api/handler.go"*`, "Mark c1 orphaned", "Dismiss c1"},
		}},
	},
	{
		name:     "unknown path missing its directories",
		comments: []string{cm(`"id": "c1", "path": "handler.go", "side": "RIGHT", "start_line": 72`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "unknown-path", at: `"handler.go"`,
			related: []string{"diff --git a/internal/api/handler.go b/internal/api/handler.go"},
			fixes:   []string{`Change c1's path to "internal/api/handler.go"*`, "Mark c1 orphaned", "Dismiss c1"},
		}},
	},
	{
		name:     "unknown path with nothing near",
		comments: []string{cm(`"id": "c1", "path": "zzz/unrelated/thing.txt", "side": "RIGHT", "start_line": 72`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "unknown-path", at: `"zzz/unrelated/thing.txt"`,
			fixes: []string{"Mark c1 orphaned", "Dismiss c1"},
		}},
	},

	// States.
	{
		name:     "dismissed: nothing, but still resolved",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "state": "dismissed", "snippet": "nope"`)},
		resolved: "RIGHT 72-72",
	},
	{
		name:     "dismissed and broken: nothing",
		comments: []string{cm(`"id": "c1", "path": "nowhere.go", "side": "RIGHT", "start_line": 72, "state": "dismissed"`)},
		resolved: "unknown-path",
	},
	{
		name:     "orphaned and broken: information, no mark-orphaned fix",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 75, "state": "orphaned", "snippet": "return result, nil"`)},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityInformation, reason: "line-not-in-image", at: "75",
			related: []string{"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {", "     return result, nil"},
			fixes:   []string{"Re-anchor c1 to RIGHT 74: return result, nil*", "Dismiss c1"},
		}},
		after: map[string]string{"Re-anchor c1 to RIGHT 74: return result, nil": "internal/api/handler.go RIGHT 74-74 active"},
	},
	{
		name:     "orphaned that resolves",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "state": "orphaned", "snippet": "calculate(input)"`)},
		want: []wantDiag{{
			msg:  `c1 is marked orphaned, but its anchor resolves: RIGHT 72 of "internal/api/handler.go"`,
			code: "orphaned-resolves", sev: exchange.SeverityInformation, at: `"orphaned"`,
			related: []string{"+    result, err := calculate(input)"},
			fixes:   []string{"Reactivate c1*"},
		}},
		after: map[string]string{"Reactivate c1": "internal/api/handler.go RIGHT 72-72 active"},
	},
	{
		name:     "orphaned that resolves to the wrong text",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "state": "orphaned", "snippet": "return result, nil"`)},
		want: []wantDiag{{
			code: "snippet-mismatch", sev: exchange.SeverityInformation, at: `"return result, nil"`,
			related: []string{"+    result, err := calculate(input)", "     return result, nil"},
			fixes: []string{
				"Re-anchor c1 to RIGHT 74: return result, nil*",
				"Update c1's snippet from the patch: result, err := calculate(input)",
				"Dismiss c1",
			},
		}},
		after: map[string]string{"Re-anchor c1 to RIGHT 74: return result, nil": "internal/api/handler.go RIGHT 74-74 active"},
	},
	{
		name:     "stale that still holds",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "state": "stale", "snippet": "calculate(input)"`)},
		want: []wantDiag{{
			msg:  `c1 is stale: its anchor may have moved and waits for re-anchoring; it still holds at RIGHT 72`,
			code: "stale-anchor", sev: exchange.SeverityInformation, at: `"stale"`,
			related: []string{"+    result, err := calculate(input)"},
			fixes:   []string{"Re-anchor c1 by content: it still holds, mark it active*"},
		}},
		after: map[string]string{"Re-anchor c1 by content: it still holds, mark it active": "internal/api/handler.go RIGHT 72-72 active"},
	},
	{
		name:     "stale that moved",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 75, "state": "stale", "snippet": "return result, nil"`)},
		want: []wantDiag{
			{
				code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "75",
				related: []string{"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {", "     return result, nil"},
				// The same move as stale-anchor's; fixAll takes neither:
				// the move sets the state.
				fixes: []string{"Re-anchor c1 to RIGHT 74: return result, nil*", "Mark c1 orphaned", "Dismiss c1"},
			},
			{
				code: "stale-anchor", sev: exchange.SeverityInformation, at: `"stale"`,
				related: []string{"     return result, nil"},
				fixes:   []string{"Re-anchor c1 by content to RIGHT 74: return result, nil*"},
			},
		},
		after: map[string]string{"Re-anchor c1 by content to RIGHT 74: return result, nil": "internal/api/handler.go RIGHT 74-74 active"},
	},
	{
		name:     "stale whose snippet is elsewhere",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 71, "snippet": "return result, nil", "state": "stale"`)},
		want: []wantDiag{
			{
				code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"return result, nil"`,
				related: []string{"     defer cancel(ctx)", "     return result, nil"},
				fixes:   []string{"Re-anchor c1 to RIGHT 74: return result, nil*", "Update c1's snippet from the patch: defer cancel(ctx)", "Dismiss c1"},
			},
			{
				code: "stale-anchor", sev: exchange.SeverityInformation, at: `"stale"`,
				related: []string{"     return result, nil"},
				fixes:   []string{"Re-anchor c1 by content to RIGHT 74: return result, nil*"},
			},
		},
		after: map[string]string{"Re-anchor c1 by content to RIGHT 74: return result, nil": "internal/api/handler.go RIGHT 74-74 active"},
	},
	{
		name:     "stale with its snippet nowhere",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "state": "stale", "snippet": "vanished()"`)},
		want: []wantDiag{
			{
				code: "stale-anchor", sev: exchange.SeverityInformation, at: `"stale"`,
				fixes: []string{"Re-anchor c1 by content: its snippet is not in the patch, mark it orphaned*"},
			},
			{
				code: "snippet-mismatch", sev: exchange.SeverityWarning, at: `"vanished()"`,
				related: []string{"+    result, err := calculate(input)"},
				fixes:   []string{"Update c1's snippet from the patch: result, err := calculate(input)", "Dismiss c1"},
			},
		},
		after: map[string]string{"Re-anchor c1 by content: its snippet is not in the patch, mark it orphaned": "internal/api/handler.go RIGHT 72-72 orphaned"},
	},
	{
		name:     "skipped by the schema check",
		comments: []string{cm(`"id": "c1", "path": "nowhere.go", "side": "RIGHT", "start_line": 72`)},
		skip:     []int{0},
		resolved: "skipped",
	},
	{
		name:     "unreadable side is skipped",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "UP", "start_line": 72`)},
		resolved: "skipped",
	},

	// Layouts and names.
	{
		name:     "comment without id or state, inserted state keeps key order",
		comments: []string{`{"path": "internal/api/handler.go", "side": "RIGHT", "start_line": 90, "body": "b", "snippet": "", "at": "2025-01-01T00:00:00Z"}`},
		want: []wantDiag{{
			code: "orphaned-anchor", sev: exchange.SeverityError, reason: "line-not-in-image", at: "90",
			related: []string{"@@ -100,3 +101,4 @@ func Other() {"},
			fixes:   []string{"Mark #1 orphaned", "Dismiss #1"},
		}},
		after: map[string]string{"Mark #1 orphaned": "internal/api/handler.go RIGHT 90-90 orphaned"},
	},
	{
		name:     "other comments are left alone",
		comments: []string{cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72`), cm(`"id": "c2", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 99, "state": "dismissed"`)},
		resolved: "RIGHT 72-72",
	},
}

func TestAnalyze(t *testing.T) {
	for _, tc := range anchorCases {
		t.Run(tc.name, func(t *testing.T) {
			patch := tc.patch
			if patch == nil {
				patch = handlerPatch
			}
			src := reviewJSON(patch, tc.comments...)
			doc := exchange.Parse(src)
			if len(doc.Syntax) > 0 {
				t.Fatalf("test document has syntax errors: %v\n%s", doc.Syntax, src)
			}
			opts := Options{SkipAnchor: map[*exchange.Comment]bool{}}
			for _, i := range tc.skip {
				opts.SkipAnchor[doc.Review.Comments[i]] = true
			}
			a := Resolve(doc, BuildIndex(&doc.Review.Patch), opts)

			if got, want := len(a.Resolutions), len(doc.Review.Comments); got != want {
				t.Fatalf("got %d resolutions, want %d (one per comment)", got, want)
			}
			checkDiags(t, src, a.Diagnostics, tc.want)
			r := a.Resolutions[0]
			if tc.resolved != "" {
				if got := describeResolution(r); got != tc.resolved {
					t.Errorf("resolution: got %q, want %q", got, tc.resolved)
				}
			}
			if tc.lines != nil {
				var got []string
				for _, l := range r.Lines() {
					got = append(got, strings.TrimSpace(r.File.Content(a.Index.Patch, l.Patch)))
				}
				if !slices.Equal(got, tc.lines) {
					t.Errorf("lines: got %q, want %q", got, tc.lines)
				}
			}
			if tc.cands != nil {
				if got := describeCandidates(r); !slices.Equal(got, tc.cands) {
					t.Errorf("candidates: got %q, want %q", got, tc.cands)
				}
			}
			checkAfter(t, doc, a, tc.after)
			checkEveryFix(t, doc, a)
		})
	}
}

func describeResolution(r *Resolution) string {
	switch {
	case r.Skipped:
		return "skipped"
	case !r.Resolved:
		return r.Reason
	}
	ls := r.Lines()
	return fmt.Sprintf("%s %d-%d", r.Side, ls[0].Number(r.Side), ls[len(ls)-1].Number(r.Side))
}

func describeCandidates(r *Resolution) []string {
	out := []string{}
	for _, k := range r.Candidates {
		s := fmt.Sprintf("%s %d-%d d%d", k.Side, k.Start, k.End, k.Distance)
		if k.Path != r.Comment.Path {
			s = k.Path + " " + s
		}
		if k.Preferred {
			s += "*"
		}
		out = append(out, s)
	}
	return out
}

func fixLabel(f exchange.Fix) string {
	s := f.Title
	if f.Preferred {
		s += "*"
	}
	if f.Safe {
		s += "!"
	}
	return s
}

func checkDiags(t *testing.T, src []byte, got []exchange.Diagnostic, want []wantDiag) {
	t.Helper()
	if len(got) != len(want) {
		for _, d := range got {
			t.Logf("got %s %s %q at %q: %s", d.Code, d.Reason, d.Severity, src[d.Range.Start:d.Range.End], d.Message)
		}
		t.Fatalf("got %d diagnostics, want %d", len(got), len(want))
	}
	for i, w := range want {
		d := got[i]
		if d.Code != w.code || d.Severity != w.sev || d.Reason != w.reason {
			t.Errorf("diagnostic %d: got %s/%s/%s, want %s/%s/%s (%s)", i, d.Code, d.Severity, d.Reason, w.code, w.sev, w.reason, d.Message)
		}
		if at := string(src[d.Range.Start:d.Range.End]); at != w.at {
			t.Errorf("diagnostic %d (%s): covers %q, want %q", i, d.Code, at, w.at)
		}
		var rel []string
		for _, r := range d.Related {
			rel = append(rel, string(src[r.Range.Start:r.Range.End]))
		}
		if !slices.Equal(rel, w.related) {
			t.Errorf("diagnostic %d (%s): related cover %q, want %q", i, d.Code, rel, w.related)
		}
		var fixes []string
		for _, f := range d.Fixes {
			fixes = append(fixes, fixLabel(f))
		}
		if !slices.Equal(fixes, w.fixes) {
			t.Errorf("diagnostic %d (%s): fixes\n got %q\nwant %q", i, d.Code, fixes, w.fixes)
		}
		if d.Message == "" {
			t.Errorf("diagnostic %d (%s) has no message", i, d.Code)
		}
		if w.msg != "" && d.Message != w.msg {
			t.Errorf("diagnostic %d (%s): message\n got %q\nwant %q", i, d.Code, d.Message, w.msg)
		}
	}
}

// renderComment describes comment i of a document for the after checks.
func renderComment(doc *exchange.Document, i int, withSnippet bool) string {
	c := doc.Review.Comments[i]
	s := fmt.Sprintf("%s %s %d-%d %s", c.Path, c.SideNorm(), c.StartLine, c.EndLine, c.StateNorm())
	if withSnippet {
		s += " | " + c.Snippet
	}
	return s
}

func checkAfter(t *testing.T, doc *exchange.Document, a *Anchoring, after map[string]string) {
	t.Helper()
	found := map[string]bool{}
	for _, d := range a.Diagnostics {
		for _, f := range d.Fixes {
			want, ok := after[f.Title]
			if !ok {
				continue
			}
			found[f.Title] = true
			out, err := exchange.ApplyEdits(doc.Text.Bytes(), f.Edits)
			if err != nil {
				t.Errorf("fix %q: %v", f.Title, err)
				continue
			}
			got := exchange.Parse(out)
			if g := renderComment(got, 0, strings.Contains(want, " | ")); g != want {
				t.Errorf("after %q: got %q, want %q\n%s", f.Title, g, want, out)
			}
		}
	}
	for title := range after {
		if !found[title] {
			t.Errorf("no fix titled %q", title)
		}
	}
}

// checkEveryFix applies each fix alone and checks that the result is
// still a valid review that holds every comment, and that a comment's
// fixes edit only that comment, each edit apart from the others.
func checkEveryFix(t testing.TB, doc *exchange.Document, a *Anchoring) {
	t.Helper()
	for i, ds := range a.byComment {
		obj := doc.Review.Comments[i].Node
		for _, d := range ds {
			for _, f := range d.Fixes {
				for j, e := range f.Edits {
					if e.Start < obj.Start || e.End > obj.End {
						t.Fatalf("%s fix %q: edit [%d,%d) lands outside its comment [%d,%d)", d.Code, f.Title, e.Start, e.End, obj.Start, obj.End)
					}
					for _, o := range f.Edits[:j] {
						if e.Start < o.End && o.Start < e.End || e.Start == o.Start {
							t.Fatalf("%s fix %q: edits %+v and %+v overlap", d.Code, f.Title, o, e)
						}
					}
				}
			}
		}
	}
	var ids []string
	for _, c := range doc.Review.Comments {
		ids = append(ids, c.ID)
	}
	for _, d := range a.Diagnostics {
		if d.Range.Start < 0 || d.Range.End > len(doc.Text.Bytes()) || d.Range.Start > d.Range.End {
			t.Fatalf("%s range %v is outside the document (%d bytes)", d.Code, d.Range, len(doc.Text.Bytes()))
		}
		for _, r := range d.Related {
			if r.Range.Start < 0 || r.Range.End > len(doc.Text.Bytes()) || r.Range.Start > r.Range.End {
				t.Fatalf("%s related range %v is outside the document", d.Code, r.Range)
			}
		}
		preferred := 0
		for _, f := range d.Fixes {
			if f.Preferred {
				preferred++
			}
			if len(f.Edits) == 0 {
				t.Fatalf("fix %q has no edit", f.Title)
			}
			for _, e := range f.Edits {
				if e.Start < 0 || e.End > len(doc.Text.Bytes()) || e.Start > e.End {
					t.Fatalf("fix %q: edit %+v is outside the document (%d bytes)", f.Title, e, len(doc.Text.Bytes()))
				}
			}
			out, err := exchange.ApplyEdits(doc.Text.Bytes(), f.Edits)
			if err != nil {
				t.Fatalf("fix %q: %v", f.Title, err)
			}
			got := exchange.Parse(out)
			if len(got.Syntax) > 0 {
				t.Fatalf("fix %q leaves syntax errors %v:\n%s", f.Title, got.Syntax, out)
			}
			var gotIDs []string
			for _, c := range got.Review.Comments {
				gotIDs = append(gotIDs, c.ID)
			}
			if !slices.Equal(gotIDs, ids) {
				t.Fatalf("fix %q: comments %q became %q", f.Title, ids, gotIDs)
			}
		}
		if preferred > 1 {
			t.Errorf("%s has %d preferred fixes, want at most one", d.Code, preferred)
		}
	}
}

func TestCommentsOn(t *testing.T) {
	src := reviewJSON(handlerPatch,
		cm(`"id": "c1", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 71, "end_line": 73`),
		cm(`"id": "c2", "path": "internal/api/handler.go", "side": "LEFT", "start_line": 72, "state": "dismissed"`),
		cm(`"id": "c3", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 99`),
	)
	doc, a := analyze(t, src, Options{})
	lineOf := func(text string) int {
		for i := range doc.Review.Patch.LineCount() {
			if doc.Review.Patch.LineText(i) == text {
				return i
			}
		}
		t.Fatalf("no patch line %q", text)
		return -1
	}
	for _, tc := range []struct {
		line string
		want []int
	}{
		{"     defer cancel(ctx)", []int{0}},
		{"-    result := calculate(input)", []int{1}}, // inside c1's RIGHT range, but not in its image
		{"+    _ = err", []int{0}},
		{"     return result, nil", nil},
	} {
		t.Run(tc.line, func(t *testing.T) {
			if got := a.CommentsOn(lineOf(tc.line)); !slices.Equal(got, tc.want) {
				t.Errorf("CommentsOn(%q): got %v, want %v", tc.line, got, tc.want)
			}
		})
	}
}

// The spec's example must anchor cleanly: its comment is at RIGHT 72.
func TestSpecExample(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "examples", "auth.review.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, a := analyze(t, src, Options{})
	for _, d := range a.Diagnostics {
		t.Errorf("got %s (%s) at %q: %s", d.Code, d.Severity, src[d.Range.Start:d.Range.End], d.Message)
	}
	r := a.Resolutions[0]
	if got := describeResolution(r); got != "RIGHT 72-72" {
		t.Errorf("c1 resolves to %q, want RIGHT 72-72", got)
	}
	if got := SnippetOf(a.Index.Patch, r.File, r.Lines()); got != doc.Review.Comments[0].Snippet {
		t.Errorf("SnippetOf: got %q, want the example's snippet %q", got, doc.Review.Comments[0].Snippet)
	}
}

func TestRenamedHint(t *testing.T) {
	src := reviewJSON(handlerPatch, cm(`"id": "c1", "path": "pkg/b.go", "side": "LEFT", "start_line": 2, "snippet": "var x = 1"`))
	_, a := analyze(t, src, Options{})
	r := a.Resolutions[0]
	if !r.Resolved || !r.Renamed || r.Hint == nil {
		t.Fatalf("got resolved=%v renamed=%v hint=%v, want a resolution through the file's other name with a hint", r.Resolved, r.Renamed, r.Hint)
	}
	if want := `"pkg/b.go" is the new name of this renamed file; on LEFT it is called "pkg/a.go"`; r.Hint.Message != want {
		t.Errorf("hint: got %q, want %q", r.Hint.Message, want)
	}
	if len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != exchange.CodeRenamedPath || a.Diagnostics[0].Severity != exchange.SeverityHint {
		t.Fatalf("got %v, want one renamed-path hint", a.Diagnostics)
	}
	if got, want := a.Diagnostics[0].Message, `"pkg/b.go" is the new name of renamed file "pkg/a.go": on LEFT it is called "pkg/a.go"`; got != want {
		t.Errorf("renamed-path: got %q, want %q", got, want)
	}
}
