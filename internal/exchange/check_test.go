package exchange

import (
	"fmt"
	"slices"
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
		{"version missing before a multi-byte character", `{"leanreview_review"é, "patch": [], "comments": []}`, "version-unknown", SeverityError, `é`, ""},
		{"version not first", `{"title": "t", "leanreview_review": 1, "patch": [], "comments": []}`, "version-not-first", SeverityWarning, `"leanreview_review"`,
			`{"leanreview_review": 1, "title": "t", "patch": [], "comments": []}`},
		{"version first, repeated later", `{"leanreview_review": 1, "title": "t", "leanreview_review": 1, "patch": [], "comments": []}`, "duplicate-member", SeverityError, `"leanreview_review"`, ""},
		{"title twice", `{"leanreview_review": 1, "title": "t", "title": "u", "patch": [], "comments": []}`, "duplicate-member", SeverityWarning, `"title"`, ""},
		{"body twice in a comment", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b", "body": "c"}`), "duplicate-member", SeverityWarning, `"body"`, ""},
		{"author twice in a reply", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b", "replies": [{"author": "a", "author": "b", "body": "r"}]}`), "duplicate-member", SeverityWarning, `"author"`, ""},
		{"schema: wrong type", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": "2", "body": "b"}`), "schema", SeverityError, `"2"`, ""},
		{"schema: missing member on the object's brace", `{"leanreview_review": 1, "patch": []}`, "schema", SeverityError, `{`, ""},
		{"unknown member", reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b", "severity": "high"}`), "unknown-field", SeverityHint, `"severity"`,
			reviewWith(okPatch, `{"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "b"}`)},
		{"html escape", `{"leanreview_review": 1, "title": "a \u003c b", "patch": [], "comments": []}`, "html-escape", SeverityHint, `\u003c`,
			`{"leanreview_review": 1, "title": "a < b", "patch": [], "comments": []}`},
		{"html escape in a key", `{"leanreview_review": 1, "patch": [], "comments": [], "a\u0026b": 1}`, "html-escape", SeverityHint, `\u0026`,
			`{"leanreview_review": 1, "patch": [], "comments": [], "a&b": 1}`},
		{"escaped backslash is not an escape", `{"leanreview_review": 1, "title": "a \\u003c b", "patch": [], "comments": []}`, "", 0, "", ""},
		{"patch string form", `{"leanreview_review": 1, "patch": "diff --git a/x b/x\n--- a/x\n", "comments": []}`, "patch-string-form", SeverityHint, `"diff --git a/x b/x\n--- a/x\n"`,
			"{\"leanreview_review\": 1, \"patch\": [\n  \"diff --git a/x b/x\",\n  \"--- a/x\"\n], \"comments\": []}"},
		{"patch trailing empty", `{"leanreview_review": 1, "patch": ["diff --git a/x b/x", ""], "comments": []}`, "patch-trailing-empty", SeverityWarning, `""`,
			`{"leanreview_review": 1, "patch": ["diff --git a/x b/x"], "comments": []}`},
		{"patch multiline element", `{"leanreview_review": 1, "patch": ["diff --git a/x b/x\n--- a/x", "+++ b/x"], "comments": []}`, "patch-multiline-element", SeverityWarning, `"diff --git a/x b/x\n--- a/x"`,
			`{"leanreview_review": 1, "patch": ["diff --git a/x b/x", "--- a/x", "+++ b/x"], "comments": []}`},
		{"patch multiline element keeps carriage returns", `{"leanreview_review": 1, "patch": ["a\r\nb\r\n", "c"], "comments": []}`, "patch-multiline-element", SeverityWarning, `"a\r\nb\r\n"`,
			`{"leanreview_review": 1, "patch": ["a\r", "b\r", "c"], "comments": []}`},
		{"patch element ending with a line feed", `{"leanreview_review": 1, "patch": ["a\n", "b"], "comments": []}`, "patch-multiline-element", SeverityWarning, `"a\n"`,
			`{"leanreview_review": 1, "patch": ["a", "b"], "comments": []}`},
		{"patch string form keeps carriage returns", `{"leanreview_review": 1, "patch": "a\r\nb\r\n", "comments": []}`, "patch-string-form", SeverityHint, `"a\r\nb\r\n"`,
			"{\"leanreview_review\": 1, \"patch\": [\n  \"a\\r\",\n  \"b\\r\"\n], \"comments\": []}"},
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

// TestPatchFixesAgreeWithFormat checks that the patch-spelling fixes write
// the lines Format writes: a fix must not lose what formatting keeps.
func TestPatchFixesAgreeWithFormat(t *testing.T) {
	for _, patch := range []string{
		`"a\nb\n"`,
		`"a\r\nb\r\n\r\nc"`,
		`"a\n\n"`,
		`["a\r\nb", "c\n", "d"]`,
		`["x", "a\n\nb\r\n"]`,
	} {
		src := reviewWith(patch, "")
		doc := Parse([]byte(src))
		want, err := Format(doc)
		if err != nil {
			t.Fatal(err)
		}
		var edits []Edit
		for _, d := range Check(doc).Diagnostics {
			if d.Code == "patch-string-form" || d.Code == "patch-multiline-element" {
				edits = append(edits, d.Fixes[0].Edits...)
			}
		}
		if len(edits) == 0 {
			t.Fatalf("patch %s: no patch fix offered", patch)
		}
		fixed, err := ApplyEdits([]byte(src), edits)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Format(Parse(fixed))
		if err != nil {
			t.Fatalf("patch %s: fixed document %s: %v", patch, fixed, err)
		}
		if string(got) != string(want) {
			t.Errorf("patch %s: formatting after the fix gives\n%s\nwant, as formatting without it,\n%s", patch, got, want)
		}
	}
}

// TestCheckPatchFormMany reports a multi-line element for each of many,
// in a document on one line; BenchmarkCheckMultilineElements times it.
func TestCheckPatchFormMany(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1, "patch": [`)
	const n = 20_000
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"+line %d\n"`, i)
	}
	b.WriteString(`], "comments": []}`)
	doc := Parse([]byte(b.String()))
	res := Check(doc)
	if got := len(res.Diagnostics); got != n {
		t.Errorf("got %d diagnostics, want %d", got, n)
	}
}

// TestDuplicateMemberOnTheLater checks that the later of two members is
// reported, related to the first, and that a comment's finding survives an
// edit of another comment (CheckIncremental carries it).
func TestDuplicateMemberOnTheLater(t *testing.T) {
	src := `{"leanreview_review": 1, "patch": [], "comments": [{"id": "c1", "body": "a", "body": "b"}, {"id": "c2", "body": "x"}], "comments": []}`
	doc := Parse([]byte(src))
	res := Check(doc)
	var got []string
	for _, d := range res.Diagnostics {
		if d.Code != CodeDuplicateMember {
			continue
		}
		if len(d.Related) != 1 || d.Related[0].Range.Start >= d.Range.Start {
			t.Errorf("%s at %d: related %+v, want one before it", src[d.Range.Start:d.Range.End], d.Range.Start, d.Related)
		}
		got = append(got, fmt.Sprintf("%d %s", d.Range.Start, src[d.Range.Start:d.Range.End]))
	}
	// The first array is not the comments lreview reads (the last one is),
	// so its "body" is reported from the document walk.
	want := []string{fmt.Sprintf("%d \"body\"", strings.Index(src, `"body": "b"`)), fmt.Sprintf("%d \"comments\"", strings.LastIndex(src, `"comments"`))}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	one := `{"leanreview_review": 1, "patch": [], "comments": [{"id": "c1", "body": "a", "body": "b"}, {"id": "c2", "body": "x"}]}`
	prev := Check(Parse([]byte(one)))
	edited := strings.Replace(one, `"x"`, `"xy"`, 1)
	inc := CheckIncremental(Parse([]byte(edited)), &prev)
	fresh := Check(Parse([]byte(edited)))
	dups := 0
	for _, d := range fresh.Diagnostics {
		if d.Code == CodeDuplicateMember {
			dups++
		}
	}
	if !slices.EqualFunc(inc.Diagnostics, fresh.Diagnostics, func(a, b Diagnostic) bool { return a.Code == b.Code && a.Range == b.Range }) || dups != 1 {
		t.Errorf("incremental %+v, fresh %+v: want the same one duplicate-member", inc.Diagnostics, fresh.Diagnostics)
	}
}

// TestDuplicateMembersSmallAndLarge: an object of a few members and one
// of more than smallObject report the same duplicates (each later one,
// related to the first of its name), whichever way firstNamed looks.
func TestDuplicateMembersSmallAndLarge(t *testing.T) {
	for _, n := range []int{3, smallObject, smallObject + 1, 40} {
		var b strings.Builder
		b.WriteString(`{"leanreview_review": 1, "patch": [], "comments": [], "x": {`)
		for i := range n {
			fmt.Fprintf(&b, `"m%d": %d, `, i, i)
		}
		b.WriteString(`"m0": 1, "m1": 2, "m0": 3}}`)
		src := b.String()
		var got []string
		for _, d := range Check(Parse([]byte(src))).Diagnostics {
			if d.Code == CodeDuplicateMember && len(d.Related) == 1 {
				got = append(got, fmt.Sprintf("%d→%d", d.Range.Start, d.Related[0].Range.Start))
			}
		}
		first0, first1 := strings.Index(src, `"m0"`), strings.Index(src, `"m1"`)
		want := []string{
			fmt.Sprintf("%d→%d", strings.Index(src, `"m0": 1`), first0),
			fmt.Sprintf("%d→%d", strings.Index(src, `"m1": 2`), first1),
			fmt.Sprintf("%d→%d", strings.Index(src, `"m0": 3`), first0),
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d members: got %q, want %q", n+3, got, want)
		}
	}
}
