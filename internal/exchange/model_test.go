package exchange

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// lineStrings spells patch lines as `elem "text" source-text [shared]`,
// checking on the way that each line points into its node's content.
func lineStrings(t *testing.T, d *Document) []string {
	t.Helper()
	var out []string
	p := &d.Review.Patch
	for i := range p.LineCount() {
		n, start, end := p.LineNode(i), p.LineStart(i), p.LineEnd(i)
		if n == nil {
			t.Errorf("line %d has no node", i)
			continue
		}
		if cs, ce := contentRange(n); start < cs || end > ce || start > end {
			t.Errorf("line %d range %d-%d, want inside its node's content %d-%d", i, start, end, cs, ce)
			continue
		}
		s := fmt.Sprintf("%d %q %s", p.LineElem(i), p.LineText(i), d.Text.Bytes()[start:end])
		if p.LineShared(i) {
			s += " shared"
		}
		out = append(out, s)
	}
	return out
}

func TestParseExample(t *testing.T) {
	src, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	d := Parse(src)
	if len(d.Syntax) != 0 {
		t.Fatalf("syntax errors = %v, want none", errStrings(d.Syntax))
	}
	r := d.Review
	if r.Node != d.Root || r.Version != 1 || r.VersionNode == nil || string(src[r.VersionNode.Start:r.VersionNode.End]) != "1" {
		t.Errorf("version = %d (node %v), want 1", r.Version, r.VersionNode)
	}
	if r.Title != "auth refactor" || r.Summary != "Two issues, one blocking." {
		t.Errorf("title, summary = %q, %q, want %q, %q", r.Title, r.Summary, "auth refactor", "Two issues, one blocking.")
	}
	p := r.Patch
	if p.Form != PatchArray || p.Node != d.Root.Member("patch") || p.TrailingEmpty != nil {
		t.Errorf("patch form = %v, trailing empty = %v, want array form without a trailing empty element", p.Form, p.TrailingEmpty)
	}
	wantLines := []string{
		"diff --git a/internal/api/handler.go b/internal/api/handler.go",
		"--- a/internal/api/handler.go",
		"+++ b/internal/api/handler.go",
		"@@ -70,5 +70,6 @@ func Handle(input Input) (Output, error) {",
		"     ctx := context.Background()",
		"     defer cancel(ctx)",
		"-    result := calculate(input)",
		"+    result, err := calculate(input)",
		"+    _ = err",
		"     return result, nil",
	}
	if p.LineCount() != len(wantLines) {
		t.Fatalf("got %d patch lines, want %d", p.LineCount(), len(wantLines))
	}
	for i := range p.LineCount() {
		text, n, start, end := p.LineText(i), p.LineNode(i), p.LineStart(i), p.LineEnd(i)
		if text != wantLines[i] || p.LineElem(i) != i || p.LineShared(i) || n != p.Node.Elems()[i] {
			t.Errorf("line %d = %q elem %d shared %v, want %q elem %d not shared", i, text, p.LineElem(i), p.LineShared(i), wantLines[i], i)
		}
		if got := string(src[start:end]); got != wantLines[i] || start != n.Start+1 || end != n.End-1 {
			t.Errorf("line %d source = %q at %d-%d, want %q inside the quotes", i, got, start, end, wantLines[i])
		}
	}
	if len(r.Comments) != 1 {
		t.Fatalf("got %d comments, want 1", len(r.Comments))
	}
	c := r.Comments[0]
	got := []any{c.Index, c.ID, c.Author, c.Path, c.Side, c.SideNorm(), c.StartLine, c.EndLine, c.Body, c.State, c.StateNorm(), c.Snippet, c.At}
	want := []any{0, "c1", "assistant", "internal/api/handler.go", "RIGHT", "RIGHT", 72, 72,
		"`err` is assigned and discarded — return it instead.", "active", "active", "result, err := calculate(input)", ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("comment = %#v, want %#v", got, want)
	}
	if c.Node != d.Root.Member("comments").Elems()[0] || c.Member("start_line") == nil || c.Member("end_line") != nil {
		t.Errorf("comment node and members do not match the tree")
	}
	if len(c.Replies) != 1 {
		t.Fatalf("got %d replies, want 1", len(c.Replies))
	}
	if rp := c.Replies[0]; rp.Author != "hduran" || rp.Body != "Agreed, but only log it: callers can't handle it." || rp.At != "" || rp.Node == nil {
		t.Errorf("reply = %+v, want hduran's reply without a time", rp)
	}
}

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name     string
		patch    string // the JSON value of the patch member
		form     PatchForm
		lines    []string
		trailing string // source of TrailingEmpty, "" for nil
	}{
		{"string form", `"diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n"`, PatchString, []string{
			`0 "diff --git a/x b/x" diff --git a/x b/x shared`,
			`0 "@@ -1 +1 @@" @@ -1 +1 @@ shared`,
			`0 "-a" -a shared`,
			`0 "+b" +b shared`,
		}, ""},
		{"string form without final line feed", `"-a\n+b"`, PatchString, []string{`0 "-a" -a shared`, `0 "+b" +b shared`}, ""},
		{"string form with CRLF", `"-a\r\n+b\r\n"`, PatchString, []string{`0 "-a" -a shared`, `0 "+b" +b shared`}, ""},
		{"string form keeps an empty last line", `"-a\n\n"`, PatchString, []string{`0 "-a" -a shared`, `0 ""  shared`}, ""},
		{"string form keeps empty middle lines", `"-a\n\n+b"`, PatchString, []string{`0 "-a" -a shared`, `0 ""  shared`, `0 "+b" +b shared`}, ""},
		{"string form of one line", `"-a"`, PatchString, []string{`0 "-a" -a shared`}, ""},
		{"string form of one line feed", `"\n"`, PatchString, []string{`0 ""  shared`}, ""},
		{"empty string", `""`, PatchString, nil, ""},
		{"string form with escapes", `"+\u00e9\t\"x\"\n"`, PatchString, []string{`0 "+é\t\"x\"" +\u00e9\t\"x\" shared`}, ""},

		{"array form", `["-a", "+b"]`, PatchArray, []string{`0 "-a" -a`, `1 "+b" +b`}, ""},
		{"empty array", `[]`, PatchArray, nil, ""},
		{"element with two lines", `["a\nb", "c"]`, PatchArray, []string{`0 "a" a shared`, `0 "b" b shared`, `1 "c" c`}, ""},
		{"element with a final line feed", `["a\n", "b"]`, PatchArray, []string{`0 "a" a shared`, `1 "b" b`}, ""},
		{"element with a final CRLF", `["a\r\n", "b"]`, PatchArray, []string{`0 "a" a shared`, `1 "b" b`}, ""},
		{"element with \\u000a", `["a\u000ab"]`, PatchArray, []string{`0 "a" a shared`, `0 "b" b shared`}, ""},
		{"element with an empty line inside", `["a\n\nb"]`, PatchArray, []string{`0 "a" a shared`, `0 ""  shared`, `0 "b" b shared`}, ""},
		{"element with two final line feeds", `["a\n\n"]`, PatchArray, []string{`0 "a" a shared`, `0 ""  shared`}, ""},
		{"element of one line feed", `["\n", "b"]`, PatchArray, []string{`0 ""  shared`, `1 "b" b`}, ""},
		{"element with a lone CR", `["a\rb"]`, PatchArray, []string{`0 "a\rb" a\rb`}, ""},
		{"element with escapes", `["+\ttab \"q\" \u00e9"]`, PatchArray, []string{`0 "+\ttab \"q\" é" +\ttab \"q\" \u00e9`}, ""},
		{"trailing empty element", `["a", ""]`, PatchArray, []string{`0 "a" a`}, `""`},
		{"only an empty element", `[""]`, PatchArray, nil, `""`},
		{"two trailing empty elements", `["a", "", ""]`, PatchArray, []string{`0 "a" a`, `1 "" `}, `""`},
		{"leading empty element", `["", "a"]`, PatchArray, []string{`0 "" `, `1 "a" a`}, ""},
		{"non-strings skipped", `["a", 1, null, {"x": "y"}, ["z"], "b"]`, PatchArray, []string{`0 "a" a`, `5 "b" b`}, ""},
		{"non-string last element", `["a", 1]`, PatchArray, []string{`0 "a" a`}, ""},

		{"number", `1`, PatchInvalid, nil, ""},
		{"object", `{"a": "b"}`, PatchInvalid, nil, ""},
		{"null", `null`, PatchInvalid, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `{"leanreview_review": 1, "patch": ` + tt.patch + `, "comments": []}`
			d := Parse([]byte(src))
			if len(d.Syntax) != 0 {
				t.Fatalf("syntax errors = %v, want none", errStrings(d.Syntax))
			}
			p := d.Review.Patch
			if p.Form != tt.form {
				t.Errorf("form = %v, want %v", p.Form, tt.form)
			}
			if p.Node != d.Root.Member("patch") {
				t.Errorf("patch node = %v, want the patch member", p.Node)
			}
			diffLists(t, "lines of "+tt.patch, lineStrings(t, d), tt.lines)
			trailing := ""
			if p.TrailingEmpty != nil {
				trailing = src[p.TrailingEmpty.Start:p.TrailingEmpty.End]
				// A node of its own when the elements are kept in a table.
				last := p.Node.Elems()[len(p.Node.Elems())-1]
				if NodeRange(p.TrailingEmpty) != NodeRange(last) || Parent(d.Root, p.TrailingEmpty) != p.Node || p.TrailingEmpty.Index != last.Index {
					t.Errorf("trailing empty element is not the last element")
				}
			}
			if trailing != tt.trailing {
				t.Errorf("trailing empty = %q, want %q", trailing, tt.trailing)
			}
		})
	}
}

func TestParsePatchMissing(t *testing.T) {
	d := Parse([]byte(`{"leanreview_review": 1, "comments": []}`))
	if p := d.Review.Patch; p.Form != PatchMissing || p.Node != nil || p.lines != nil || p.table != nil {
		t.Errorf("patch = %+v, want missing", p)
	}
}

func TestParseComments(t *testing.T) {
	type want struct {
		index                                         int
		id, author, path, side, body, state, snip, at string
		start, end                                    int
		sideNorm, stateNorm                           string
		replies                                       []string // "author|body|at"
	}
	tests := []struct {
		name     string
		comments string
		want     []want
	}{
		{
			name:     "all members",
			comments: `[{"id": "c1", "author": "me", "path": "a.go", "side": "LEFT", "start_line": 3, "end_line": 5, "body": "b", "state": "dismissed", "snippet": "s", "at": "2024-01-02T03:04:05Z"}]`,
			want:     []want{{0, "c1", "me", "a.go", "LEFT", "b", "dismissed", "s", "2024-01-02T03:04:05Z", 3, 5, "LEFT", "dismissed", nil}},
		},
		{
			name:     "side in lower case",
			comments: `[{"side": "right", "start_line": 1}]`,
			want:     []want{{0, "", "", "", "right", "", "", "", "", 1, 1, "RIGHT", "active", nil}},
		},
		{
			name:     "start_line 72.0 is an integer",
			comments: `[{"start_line": 72.0}]`,
			want:     []want{{0, "", "", "", "", "", "", "", "", 72, 72, "", "active", nil}},
		},
		{
			name:     "start_line 72.5 is not",
			comments: `[{"start_line": 72.5, "end_line": 73}]`,
			want:     []want{{0, "", "", "", "", "", "", "", "", 0, 73, "", "active", nil}},
		},
		{
			name:     "end_line not an integer defaults to start_line",
			comments: `[{"start_line": 7, "end_line": "9"}]`,
			want:     []want{{0, "", "", "", "", "", "", "", "", 7, 7, "", "active", nil}},
		},
		{
			name:     "mistyped members read as absent",
			comments: `[{"id": 1, "author": null, "path": ["x"], "side": true, "start_line": "72", "body": {}, "state": 0, "snippet": 3, "at": 1, "replies": {}}]`,
			want:     []want{{0, "", "", "", "", "", "", "", "", 0, 0, "", "active", nil}},
		},
		{
			name:     "invalid members read as absent",
			comments: `[{"id": 'c1', "path": x, "start_line": 01}]`,
			want:     []want{{0, "", "", "", "", "", "", "", "", 0, 0, "", "active", nil}},
		},
		{
			name:     "non-objects skipped, indexes kept",
			comments: `[1, {"id": "a"}, "x", null, {"id": "b"}]`,
			want: []want{
				{1, "a", "", "", "", "", "", "", "", 0, 0, "", "active", nil},
				{4, "b", "", "", "", "", "", "", "", 0, 0, "", "active", nil},
			},
		},
		{
			name:     "duplicate member: the last wins",
			comments: `[{"id": "a", "id": "b"}]`,
			want:     []want{{0, "b", "", "", "", "", "", "", "", 0, 0, "", "active", nil}},
		},
		{
			name:     "replies",
			comments: `[{"id": "c", "replies": [{"author": "a", "body": "b", "at": "t"}, 3, {"body": 5, "author": "z"}, {}]}]`,
			want:     []want{{0, "c", "", "", "", "", "", "", "", 0, 0, "", "active", []string{"a|b|t", "z||", "||"}}},
		},
		{
			name:     "state kept as written",
			comments: `[{"state": "orphaned"}, {"state": "Stale"}]`,
			want: []want{
				{0, "", "", "", "", "", "orphaned", "", "", 0, 0, "", "orphaned", nil},
				{1, "", "", "", "", "", "Stale", "", "", 0, 0, "", "Stale", nil},
			},
		},
		{"comments not an array", `{"id": "a"}`, nil},
		{"no comments", `[]`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `{"leanreview_review": 1, "patch": [], "comments": ` + tt.comments + `}`
			d := Parse([]byte(src))
			var got []want
			for _, c := range d.Review.Comments {
				w := want{c.Index, c.ID, c.Author, c.Path, c.Side, c.Body, c.State, c.Snippet, c.At, c.StartLine, c.EndLine, c.SideNorm(), c.StateNorm(), nil}
				for _, r := range c.Replies {
					w.replies = append(w.replies, r.Author+"|"+r.Body+"|"+r.At)
				}
				got = append(got, w)
				if c.Node != d.Root.Member("comments").Elems()[c.Index] {
					t.Errorf("comment %d node is not comments[%d]", c.Index, c.Index)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("comments of %s:\ngot  %+v\nwant %+v", tt.comments, got, tt.want)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		doc     string
		version int
		node    string // source of VersionNode, "" for nil
	}{
		{`{"leanreview_review": 1}`, 1, "1"},
		{`{"leanreview_review": 2}`, 2, "2"},
		{`{"leanreview_review": 1.0}`, 1, "1.0"},
		{`{"leanreview_review": "1"}`, 0, `"1"`},
		{`{"leanreview_review": 1.5}`, 0, "1.5"},
		{`{"title": "x"}`, 0, ""},
		{`{"leanreview_review": 1, "leanreview_review": 3}`, 3, "3"},
	}
	for _, tt := range tests {
		t.Run(tt.doc, func(t *testing.T) {
			d := Parse([]byte(tt.doc))
			node := ""
			if n := d.Review.VersionNode; n != nil {
				node = tt.doc[n.Start:n.End]
			}
			if d.Review.Version != tt.version || node != tt.node {
				t.Errorf("Parse(%s): version %d node %q, want %d node %q", tt.doc, d.Review.Version, node, tt.version, tt.node)
			}
		})
	}
}

func TestParseNotAnObject(t *testing.T) {
	for _, doc := range []string{``, `[]`, `"x"`, `1`, `}`} {
		d := Parse([]byte(doc))
		if d.Review.Node != nil || d.Review.Comments != nil || d.Review.Patch.Form != PatchMissing || d.Root == nil {
			t.Errorf("Parse(%q).Review = %+v, want empty with a root node", doc, d.Review)
		}
	}
}

func TestParseWithSyntaxErrors(t *testing.T) {
	src := "{\"leanreview_review\": 1,\n \"title\": 'x',\n \"patch\": [\"-a\" \"+b\",],\n \"comments\": [{\"id\": \"c1\", \"start_line\": 2,}]"
	d := Parse([]byte(src))
	if len(d.Syntax) == 0 {
		t.Fatalf("got no syntax errors, want some")
	}
	if d.Review.Version != 1 || d.Review.Title != "" {
		t.Errorf("version, title = %d, %q, want 1, \"\"", d.Review.Version, d.Review.Title)
	}
	diffLists(t, "lines", lineStrings(t, d), []string{`0 "-a" -a`, `1 "+b" +b`})
	if len(d.Review.Comments) != 1 || d.Review.Comments[0].ID != "c1" || d.Review.Comments[0].StartLine != 2 {
		t.Errorf("comments = %+v, want c1 at line 2", d.Review.Comments)
	}
}

func TestDocumentMapper(t *testing.T) {
	d := Parse([]byte("{\r\n\"title\": \"é\"}"))
	m := d.Mapper()
	if m != d.Mapper() {
		t.Errorf("Mapper() built twice, want one mapper per document")
	}
	title := d.Root.Member("title")
	if got, want := m.Position(title.End, UTF16), (Position{1, 12}); got != want {
		t.Errorf("Position(end of title) = %v, want %v", got, want)
	}
}

func TestKeyOrders(t *testing.T) {
	if got := strings.Join(ReviewKeys, ","); got != "leanreview_review,title,summary,patch,comments" {
		t.Errorf("ReviewKeys = %s, want the spec's order", got)
	}
	if got := strings.Join(CommentKeys, ","); got != "id,author,path,side,start_line,end_line,body,state,snippet,at,replies" {
		t.Errorf("CommentKeys = %s, want the spec's order", got)
	}
	if got := strings.Join(ReplyKeys, ","); got != "author,body,at" {
		t.Errorf("ReplyKeys = %s, want the spec's order", got)
	}
}

// TestParseUnterminatedPatch covers a patch string being typed: the lone
// backslash at the end makes no extra line (found by FuzzParseJSON).
func TestParseUnterminatedPatch(t *testing.T) {
	d := Parse([]byte(`{"leanreview_review": 1, "patch": "-a\n+b\n\`))
	diffLists(t, "lines", lineStrings(t, d), []string{`0 "-a" -a shared`, `0 "+b" +b shared`})
}
