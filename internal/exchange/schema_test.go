package exchange

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/leanreview/lreview-lsp/schema"
)

// review builds a small valid document around the given comments JSON.
func review(comments string) string {
	return `{"leanreview_review": 1, "patch": ["diff --git a/x b/x", "+y"], "comments": [` + comments + `]}`
}

// comment builds a comment object from the required members plus extra,
// a JSON fragment of further members (may be empty).
func comment(extra string) string {
	c := `{"path": "x", "side": "RIGHT", "start_line": 1, "body": "b"`
	if extra != "" {
		c += ", " + extra
	}
	return c + "}"
}

// nodeAt walks a JSON pointer independently of the code under test.
func nodeAt(t *testing.T, root *Node, ptr string) *Node {
	t.Helper()
	n := root
	if ptr == "" {
		return n
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		switch n.Kind {
		case KindObject:
			n = n.Member(tok)
		case KindArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(n.Elems()) {
				t.Fatalf("no element %q under %q", tok, ptr)
			}
			n = n.Elems()[i]
		default:
			n = nil
		}
		if n == nil {
			t.Fatalf("pointer %q does not resolve", ptr)
		}
	}
	return n
}

// plainValidator is the default validator without the patch shortcut.
func plainValidator() *SchemaValidator {
	v := *DefaultSchema()
	v.shortcut = false
	return &v
}

func TestSchemaFileCompiles(t *testing.T) {
	v, err := NewSchemaValidator()
	if err != nil {
		t.Fatalf("NewSchemaValidator: %v", err)
	}
	if v.compiled.Draft != jsonschema.Draft2020 {
		t.Errorf("got draft %v, want %v", v.compiled.Draft, jsonschema.Draft2020)
	}
	var top map[string]any
	if err := json.Unmarshal(schema.JSON, &top); err != nil {
		t.Fatal(err)
	}
	if got, want := top["$schema"], "https://json-schema.org/draft/2020-12/schema"; got != want {
		t.Errorf("got $schema %v, want %v", got, want)
	}
	if got, want := top["$id"], "https://leanreview.dev/schema/review-exchange.v1.schema.json"; got != want || schema.ID != want {
		t.Errorf("got $id %v and schema.ID %v, want %v", got, schema.ID, want)
	}
	disk, err := os.ReadFile("../../schema/review-exchange.v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(disk, schema.JSON) {
		t.Errorf("embedded schema differs from the published file")
	}
}

// TestSchemaAnnotations checks what editors need to help people: words on
// every member and every enum value, snippets, and nothing that would
// reject what the spec tolerates.
func TestSchemaAnnotations(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(schema.JSON, &top); err != nil {
		t.Fatal(err)
	}
	described := func(where string, s map[string]any) {
		for _, k := range []string{"title", "description", "markdownDescription"} {
			if v, _ := s[k].(string); v == "" {
				t.Errorf("%s: got no %s, want one", where, k)
			}
		}
	}
	described("the document", top)
	defs, _ := top["$defs"].(map[string]any)
	for _, name := range []string{"comment", "reply"} {
		def, _ := defs[name].(map[string]any)
		if def == nil {
			t.Fatalf("$defs/%s missing", name)
		}
		described("$defs/"+name, def)
		if snips, _ := def["defaultSnippets"].([]any); len(snips) == 0 {
			t.Errorf("$defs/%s: got no defaultSnippets, want some", name)
		}
	}
	properties, enums := 0, 0
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					properties++
					ps, _ := p.(map[string]any)
					described(where+"/properties/"+name, ps)
				}
			}
			if vals, ok := v["enum"].([]any); ok {
				enums++
				for _, k := range []string{"enumDescriptions", "markdownEnumDescriptions"} {
					descs, ok := v[k].([]any)
					if k == "markdownEnumDescriptions" && !ok {
						continue // optional
					}
					if len(descs) != len(vals) {
						t.Errorf("%s: got %d %s for %d enum values, want as many", where, len(descs), k, len(vals))
					}
				}
			}
			if ap, ok := v["additionalProperties"]; ok && ap == false {
				t.Errorf("%s: additionalProperties false rejects the unknown members the spec tolerates", where)
			}
			if ref, ok := v["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
				t.Errorf("%s: $ref %q leaves the schema; it must stay self-contained", where, ref)
			}
			for k, c := range v {
				if k == "defaultSnippets" || k == "enum" || k == "default" || k == "const" {
					continue // values, not schemas
				}
				walk(where+"/"+k, c)
			}
		case []any:
			for i, c := range v {
				walk(where+"/"+strconv.Itoa(i), c)
			}
		}
	}
	walk("#", top)
	if properties < len(ReviewKeys)+len(CommentKeys)+len(ReplyKeys) {
		t.Errorf("got %d described properties, want at least %d", properties, len(ReviewKeys)+len(CommentKeys)+len(ReplyKeys))
	}
	if enums < 2 {
		t.Errorf("got %d enums (side, state), want at least 2", enums)
	}
}

func TestValidateSchemaAccepts(t *testing.T) {
	example, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
	}{
		{"spec example", string(example)},
		{"no comments", `{"leanreview_review": 1, "patch": [], "comments": []}`},
		{"version spelt 1.0", `{"leanreview_review": 1.0, "patch": [], "comments": []}`},
		{"lower-case side", review(`{"path": "x", "side": "right", "start_line": 1, "body": "b"}`)},
		{"mixed-case side", review(`{"path": "x", "side": "Left", "start_line": 1, "body": "b"}`)},
		{"string patch", `{"leanreview_review": 1, "patch": "diff --git a/x b/x\n+y\n", "comments": []}`},
		{"empty string patch", `{"leanreview_review": 1, "patch": "", "comments": []}`},
		{"unknown members everywhere", `{"leanreview_review": 1, "x-tool": {"a": [1]}, "patch": [], "comments": [` +
			comment(`"priority": 3, "replies": [{"author": "a", "body": "b", "mood": null}]`) + `], "generated": true}`},
		{"all optional members", review(comment(`"id": "c1", "author": "a", "end_line": 3, "state": "stale", "snippet": "y", "at": "2024-05-01T12:00:00Z", "replies": [{"author": "a", "body": "b", "at": "2024-05-01T12:00:00.5+02:00"}]`))},
		{"each state", review(comment(`"state": "active"`) + "," + comment(`"state": "dismissed"`) + "," + comment(`"state": "orphaned"`) + "," + comment(`"state": "stale"`))},
		{"title and summary", `{"leanreview_review": 1, "title": "t", "summary": "s", "patch": [], "comments": []}`},
		{"duplicate key, last one valid", review(`{"path": "x", "side": "MIDDLE", "side": "LEFT", "start_line": 1, "body": "b"}`)},
		{"end_line below start_line is an anchoring matter", review(comment(`"end_line": 1`))},
		{"start_line spelt with an exponent", review(`{"path": "x", "side": "RIGHT", "start_line": 7.2e1, "body": "b"}`)},
		{"start_line beyond the validator's numbers", review(`{"path": "x", "side": "RIGHT", "start_line": 1e9999999, "body": "b"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Parse([]byte(tt.src))
			if len(doc.Syntax) > 0 {
				t.Fatalf("test source has syntax errors: %v", doc.Syntax)
			}
			if got := validateSchema(doc); len(got) != 0 {
				t.Errorf("got %d violations, want none:\n%s", len(got), describeViolations(got))
			}
		})
	}
}

type wantViolation struct {
	ptr, missing, msg string
}

var rejectTests = []struct {
	name string
	src  string
	want []wantViolation
}{
	{"side not left or right", review(comment(`"side": "MIDDLE"`)),
		[]wantViolation{{"/comments/0/side", "", "`side` must be LEFT or RIGHT, got \"MIDDLE\""}}},
	{"side a number: one message for the anyOf", review(`{"path": "x", "side": 2, "start_line": 1, "body": "b"}`),
		[]wantViolation{{"/comments/0/side", "", "`side` must be LEFT or RIGHT, got 2"}}},
	{"side an array", review(`{"path": "x", "side": ["RIGHT"], "start_line": 1, "body": "b"}`),
		[]wantViolation{{"/comments/0/side", "", "`side` must be LEFT or RIGHT, got an array"}}},
	{"side with spaces", review(`{"path": "x", "side": " RIGHT", "start_line": 1, "body": "b"}`),
		[]wantViolation{{"/comments/0/side", "", "`side` must be LEFT or RIGHT, got \" RIGHT\""}}},
	{"start_line zero", review(`{"path": "x", "side": "RIGHT", "start_line": 0, "body": "b"}`),
		[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got 0"}}},
	{"start_line a string", review(`{"path": "x", "side": "RIGHT", "start_line": "72", "body": "b"}`),
		[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a number, got a string"}}},
	{"start_line a fraction", review(`{"path": "x", "side": "RIGHT", "start_line": 1.5, "body": "b"}`),
		[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got 1.5"}}},
	{"start_line hugely negative", review(`{"path": "x", "side": "RIGHT", "start_line": -1e9999999, "body": "b"}`),
		[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got -1e9999999"}}},
	{"start_line tiny", review(`{"path": "x", "side": "RIGHT", "start_line": 5e-9999999, "body": "b"}`),
		[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got 5e-9999999"}}},
	{"long number is cut", review(`{"path": "x", "side": "RIGHT", "start_line": 0.` + strings.Repeat("5", 60) + `, "body": "b"}`),
		[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got 0." + strings.Repeat("5", 38) + "…"}}},
	{"end_line negative", review(comment(`"end_line": -3`)),
		[]wantViolation{{"/comments/0/end_line", "", "`end_line` must be a whole number of at least 1, got -3"}}},
	{"end_line zero", review(comment(`"end_line": 0`)),
		[]wantViolation{{"/comments/0/end_line", "", "`end_line` must be a whole number of at least 1, got 0"}}},
	{"end_line null", review(comment(`"end_line": null`)),
		[]wantViolation{{"/comments/0/end_line", "", "`end_line` must be a number, got null"}}},
	{"missing body", review(`{"path": "x", "side": "RIGHT", "start_line": 1}`),
		[]wantViolation{{"/comments/0", "body", "missing required member `body`"}}},
	{"empty comment", review(`{}`),
		[]wantViolation{
			{"/comments/0", "path", "missing required member `path`"},
			{"/comments/0", "side", "missing required member `side`"},
			{"/comments/0", "start_line", "missing required member `start_line`"},
			{"/comments/0", "body", "missing required member `body`"},
		}},
	{"empty document", `{}`,
		[]wantViolation{
			{"", "leanreview_review", "missing required member `leanreview_review`"},
			{"", "patch", "missing required member `patch`"},
			{"", "comments", "missing required member `comments`"},
		}},
	{"version 2", `{"leanreview_review": 2, "patch": [], "comments": []}`,
		[]wantViolation{{"/leanreview_review", "", "`leanreview_review` must be 1, got 2"}}},
	{"version a string", `{"leanreview_review": "1", "patch": [], "comments": []}`,
		[]wantViolation{{"/leanreview_review", "", "`leanreview_review` must be 1, got \"1\""}}},
	{"unknown state", review(comment(`"state": "done"`)),
		[]wantViolation{{"/comments/0/state", "", "`state` must be one of active, dismissed, orphaned, stale; got \"done\""}}},
	{"state is case-sensitive", review(comment(`"state": "Active"`)),
		[]wantViolation{{"/comments/0/state", "", "`state` must be one of active, dismissed, orphaned, stale; got \"Active\""}}},
	{"state a number", review(comment(`"state": 1`)),
		[]wantViolation{{"/comments/0/state", "", "`state` must be one of active, dismissed, orphaned, stale; got 1"}}},
	{"patch a number", `{"leanreview_review": 1, "patch": 5, "comments": []}`,
		[]wantViolation{{"/patch", "", "`patch` must be an array of strings (one diff line each) or a single string"}}},
	{"patch an object", `{"leanreview_review": 1, "patch": {"a": "b"}, "comments": []}`,
		[]wantViolation{{"/patch", "", "`patch` must be an array of strings (one diff line each) or a single string"}}},
	{"patch element a number", `{"leanreview_review": 1, "patch": ["a", "b", "c", 4, "e"], "comments": []}`,
		[]wantViolation{{"/patch/3", "", "element 3 of `patch` must be a string, got a number"}}},
	{"patch elements of several types", `{"leanreview_review": 1, "patch": [null, "b", ["c"], true], "comments": []}`,
		[]wantViolation{
			{"/patch/0", "", "element 0 of `patch` must be a string, got null"},
			{"/patch/2", "", "element 2 of `patch` must be a string, got an array"},
			{"/patch/3", "", "element 3 of `patch` must be a string, got true"},
		}},
	{"comments an object", `{"leanreview_review": 1, "patch": [], "comments": {}}`,
		[]wantViolation{{"/comments", "", "`comments` must be an array, got an object"}}},
	{"comment a string", `{"leanreview_review": 1, "patch": [], "comments": ["looks good"]}`,
		[]wantViolation{{"/comments/0", "", "element 0 of `comments` must be an object, got a string"}}},
	{"title a number", `{"leanreview_review": 1, "title": 5, "patch": [], "comments": []}`,
		[]wantViolation{{"/title", "", "`title` must be a string, got a number"}}},
	{"body null", review(`{"path": "x", "side": "RIGHT", "start_line": 1, "body": null}`),
		[]wantViolation{{"/comments/0/body", "", "`body` must be a string, got null"}}},
	{"at not a date-time", review(comment(`"at": "yesterday"`)),
		[]wantViolation{{"/comments/0/at", "", "`at` must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got \"yesterday\""}}},
	{"at without a time zone", review(comment(`"at": "2024-05-01T12:00:00"`)),
		[]wantViolation{{"/comments/0/at", "", "`at` must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got \"2024-05-01T12:00:00\""}}},
	{"replies not an array", review(comment(`"replies": "ok"`)),
		[]wantViolation{{"/comments/0/replies", "", "`replies` must be an array, got a string"}}},
	{"reply without author, bad at", review(comment(`"replies": [{"body": "b", "at": "now"}]`)),
		[]wantViolation{
			{"/comments/0/replies/0", "author", "missing required member `author`"},
			{"/comments/0/replies/0/at", "", "`at` must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z, got \"now\""},
		}},
	{"reply a string", review(comment(`"replies": ["+1"]`)),
		[]wantViolation{{"/comments/0/replies/0", "", "element 0 of `replies` must be an object, got a string"}}},
	{"document an array", `[]`,
		[]wantViolation{{"", "", "the document must be an object, got an array"}}},
	{"duplicate key, last one invalid", review(`{"path": "x", "side": "LEFT", "side": "MIDDLE", "start_line": 1, "body": "b"}`),
		[]wantViolation{{"/comments/0/side", "", "`side` must be LEFT or RIGHT, got \"MIDDLE\""}}},
	{"long string is cut", review(comment(`"state": "` + strings.Repeat("x", 60) + `"`)),
		[]wantViolation{{"/comments/0/state", "", "`state` must be one of active, dismissed, orphaned, stale; got \"" + strings.Repeat("x", 40) + "…\""}}},
	{"several problems in document order", `{"leanreview_review": 1, "patch": [1], "comments": [` +
		`{"path": "x", "side": "up", "start_line": 0},` + comment(`"state": "x"`) + `]}`,
		[]wantViolation{
			{"/patch/0", "", "element 0 of `patch` must be a string, got a number"},
			{"/comments/0", "body", "missing required member `body`"},
			{"/comments/0/side", "", "`side` must be LEFT or RIGHT, got \"up\""},
			{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got 0"},
			{"/comments/1/state", "", "`state` must be one of active, dismissed, orphaned, stale; got \"x\""},
		}},
}

func TestValidateSchemaRejects(t *testing.T) {
	for _, tt := range rejectTests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Parse([]byte(tt.src))
			if len(doc.Syntax) > 0 {
				t.Fatalf("test source has syntax errors: %v", doc.Syntax)
			}
			got := validateSchema(doc)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tt.want), describeViolations(got))
			}
			for i, w := range tt.want {
				g := got[i]
				if want := nodeAt(t, doc.Root, w.ptr); g.Node != want {
					t.Errorf("violation %d: got node %q [%d,%d), want %q [%d,%d)", i, g.Node.Pointer(doc.Root), g.Node.Start, g.Node.End, w.ptr, want.Start, want.End)
				}
				if g.Missing != w.missing {
					t.Errorf("violation %d: got missing %q, want %q", i, g.Missing, w.missing)
				}
				if g.Message != w.msg {
					t.Errorf("violation %d: got message %q, want %q", i, g.Message, w.msg)
				}
			}
		})
	}
}

// TestPatchShortcut checks that skipping the patch array's elements in the
// validator changes nothing: the schema asks only that they be strings, and
// every test document gets the same violations either way.
func TestPatchShortcut(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(schema.JSON, &top); err != nil {
		t.Fatal(err)
	}
	patch := top["properties"].(map[string]any)["patch"].(map[string]any)
	var arrays []any
	for _, b := range patch["anyOf"].([]any) {
		if b.(map[string]any)["type"] == "array" {
			arrays = append(arrays, b)
		}
	}
	if len(arrays) != 1 {
		t.Fatalf("got %d array branches of `patch`, want 1", len(arrays))
	}
	// Only annotations beside type and items: any other assertion on the
	// array (minItems, contains, uniqueItems...) would need the elements.
	annotations := map[string]bool{"title": true, "description": true, "markdownDescription": true}
	strip := func(s map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range s {
			if !annotations[k] {
				out[k] = v
			}
		}
		return out
	}
	arr := strip(arrays[0].(map[string]any))
	arr["items"] = strip(arr["items"].(map[string]any))
	if want := map[string]any{"type": "array", "items": map[string]any{"type": "string"}}; !reflect.DeepEqual(arr, want) {
		t.Fatalf("the patch array branch asserts %v; the shortcut in instanceOf assumes exactly %v", arr, want)
	}
	plain := plainValidator()
	var srcs []string
	for _, tt := range rejectTests {
		srcs = append(srcs, tt.src)
	}
	srcs = append(srcs,
		`{"leanreview_review": 1, "patch": ["a"], "patch": [1], "comments": []}`,
		`{"leanreview_review": 1, "patch": [1], "patch": ["a"], "comments": []}`,
		`{"leanreview_review": 1, "patch": [1, {}], "patch": 3, "comments": []}`,
		string(bigReview(50, 3)))
	for i, src := range srcs {
		doc := Parse([]byte(src))
		fast, slow := validateSchema(doc), plain.Validate(doc)
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("document %d: got with the shortcut:\n%swant as without it:\n%s", i, describeViolations(fast), describeViolations(slow))
		}
	}
}

func TestValidateSchemaWhileTyping(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []wantViolation
	}{
		{"unclosed comment and document: nothing is missing yet",
			`{"leanreview_review": 1, "patch": [], "comments": [{"path": "x", "side": "RIGHT"`, nil},
		{"closed comment still reports, invalid value does not",
			`{"leanreview_review": 1, "patch": [], "comments": [{"path": "x"}], "title": }`,
			[]wantViolation{
				{"/comments/0", "side", "missing required member `side`"},
				{"/comments/0", "start_line", "missing required member `start_line`"},
				{"/comments/0", "body", "missing required member `body`"},
			}},
		{"half-typed side string",
			"{\"leanreview_review\": 1, \"patch\": [], \"comments\": [{\"path\": \"x\", \"side\": \"RIG\n, \"start_line\": 1, \"body\": \"b\"}]}", nil},
		{"member without value",
			`{"leanreview_review": 1, "patch": [], "comments": [{"path": "x", "side": "LEFT", "start_line": , "body": "b"}]}`, nil},
		{"wrong value in a broken document is still reported",
			`{"leanreview_review": 1, "patch": [], "comments": [{"path": "x", "side": "LEFT", "start_line": 0, "body": "b"}], }`,
			[]wantViolation{{"/comments/0/start_line", "", "`start_line` must be a whole number of at least 1, got 0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Parse([]byte(tt.src))
			if len(doc.Syntax) == 0 {
				t.Fatalf("test source has no syntax error")
			}
			got := validateSchema(doc)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tt.want), describeViolations(got))
			}
			for i, w := range tt.want {
				g := got[i]
				if want := nodeAt(t, doc.Root, w.ptr); g.Node != want || g.Missing != w.missing || g.Message != w.msg {
					t.Errorf("violation %d: got %s %q %q, want %s %q %q", i, g.Node.Pointer(doc.Root), g.Missing, g.Message, w.ptr, w.missing, w.msg)
				}
			}
		})
	}
}

func TestValidateSchemaConcurrent(t *testing.T) {
	doc := Parse([]byte(rejectTests[len(rejectTests)-1].src))
	want := validateSchema(doc)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := validateSchema(doc); !reflect.DeepEqual(got, want) {
				t.Errorf("got %v concurrently, want %v", got, want)
			}
		}()
	}
	wg.Wait()
}

func describeViolations(vs []SchemaViolation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "  %s [%d,%d) missing=%q: %s\n", v.Node.Kind, v.Node.Start, v.Node.End, v.Missing, v.Message)
	}
	return b.String()
}

// bigReview generates a review the size of a large real one: files of
// `perFile` diff lines of about 70 characters, and `comments` comments.
func bigReview(lines, comments int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"leanreview_review\": 1,\n  \"title\": \"big\",\n  \"patch\": [\n")
	const perFile = 1000
	n := 0
	for f := 0; n < lines; f++ {
		path := fmt.Sprintf("internal/pkg%03d/file%03d.go", f%97, f)
		head := []string{
			"diff --git a/" + path + " b/" + path,
			"--- a/" + path,
			"+++ b/" + path,
			fmt.Sprintf("@@ -1,%d +1,%d @@ func Example%d(ctx context.Context) error {", perFile, perFile, f),
		}
		for i := 0; n < lines && i < perFile; i++ {
			var line string
			if i < len(head) {
				line = head[i]
			} else {
				marker := " +-"[i%3 : i%3+1]
				line = fmt.Sprintf("%s\tresult%05d, err := calculate(input, \"key-%d\", opts) // note %d", marker, i, n, f)
			}
			q, _ := json.Marshal(line)
			b.WriteString("    ")
			b.Write(q)
			n++
			if n < lines {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("  ],\n  \"comments\": [\n")
	for i := 0; i < comments; i++ {
		fmt.Fprintf(&b, `    {
      "id": "c%d",
      "author": "assistant",
      "path": "internal/pkg%03d/file%03d.go",
      "side": "RIGHT",
      "start_line": %d,
      "body": "The error from calculate is assigned and then discarded; return it so that callers can react.",
      "state": "active",
      "snippet": "result, err := calculate(input)",
      "at": "2024-05-01T12:00:00Z",
      "replies": [
        { "author": "hduran", "body": "Agreed, but only log it: callers can't handle it." }
      ]
    }`, i, i%97, i%max(1, lines/perFile), 10+i%900)
		if i < comments-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}

var bigOnce = sync.OnceValue(func() []byte { return bigReview(100_000, 2_000) })

func BenchmarkUnmarshalAny(b *testing.B) {
	src := bigOnce()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseAndValidateSchema(b *testing.B) {
	src := bigOnce()
	DefaultSchema()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if vs := validateSchema(Parse(src)); len(vs) != 0 {
			b.Fatalf("got %d violations", len(vs))
		}
	}
}

func BenchmarkParseJSONAndValidateSchema(b *testing.B) {
	src := bigOnce()
	DefaultSchema()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		root, _ := ParseJSON(src)
		if vs := validateSchema(&Document{Text: NewText(src), Root: root}); len(vs) != 0 {
			b.Fatalf("got %d violations", len(vs))
		}
	}
}

func BenchmarkParseAndValidateSchemaPlain(b *testing.B) {
	src := bigOnce()
	v := plainValidator()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if vs := v.Validate(Parse(src)); len(vs) != 0 {
			b.Fatalf("got %d violations", len(vs))
		}
	}
}

// sortedByStart reports whether violations come in document order.
func sortedByStart(vs []SchemaViolation) bool {
	return sort.SliceIsSorted(vs, func(i, j int) bool { return vs[i].Node.Start < vs[j].Node.Start })
}

func TestValidateSchemaOrder(t *testing.T) {
	for _, tt := range rejectTests {
		if got := validateSchema(Parse([]byte(tt.src))); !sortedByStart(got) {
			t.Errorf("%s: got violations out of document order:\n%s", tt.name, describeViolations(got))
		}
	}
}

func BenchmarkValidateSchemaOnly(b *testing.B) {
	src := bigOnce()
	doc := Parse(src)
	DefaultSchema()
	for b.Loop() {
		validateSchema(doc)
	}
}

func BenchmarkParseOnly(b *testing.B) {
	src := bigOnce()
	for b.Loop() {
		Parse(src)
	}
}

// TestValidatorNumber checks the stand-ins given to the validator for
// numbers it cannot take: same sign, integer-ness and order against the
// short constants a schema uses, as exact arithmetic says.
func TestValidatorNumber(t *testing.T) {
	texts := []string{
		"0", "-0", "1", "72", "-3", "1.5", "7.2e1", "1E+2", "0.0001", "1e-3", "100e-2", "0.000e9",
		"1e400", "-1e400", "1.5e400", "1e-400", "-2.5e-400", "1e99999", "123456789e-9",
		"1" + strings.Repeat("0", 50), "1" + strings.Repeat("0", 50) + ".5", "-" + strings.Repeat("9", 50) + ".0",
		"0." + strings.Repeat("9", 60), "1." + strings.Repeat("0", 60) + "1", "1." + strings.Repeat("0", 60),
		"0." + strings.Repeat("0", 60) + "1", "12345678901234567890123456789012345678901234567890e-40",
	}
	constants := []string{"0", "1", "-1", "2", "0.5", "1e29", "-1e29", "123456789012345678901234567890"}
	for _, text := range texts {
		exact, ok := new(big.Rat).SetString(text)
		if !ok {
			t.Fatalf("big.Rat cannot read %q", text)
		}
		stand := validatorNumber(text)
		got, ok := new(big.Rat).SetString(string(stand))
		if !ok {
			t.Errorf("%s: got stand-in %q, which big.Rat cannot read", text, stand)
			continue
		}
		if len(stand) > 64 {
			t.Errorf("%s: got a %d-byte stand-in %q, want a short one", text, len(stand), stand)
		}
		if got.IsInt() != exact.IsInt() {
			t.Errorf("%s: got stand-in %s with IsInt %v, want %v", text, stand, got.IsInt(), exact.IsInt())
		}
		for _, c := range constants {
			cr, _ := new(big.Rat).SetString(c)
			if g, w := got.Cmp(cr), exact.Cmp(cr); g != w {
				t.Errorf("%s: got stand-in %s comparing %d to %s, want %d", text, stand, g, c, w)
			}
		}
	}
	// Beyond what big.Rat reads: sign and integer-ness by construction.
	for text, want := range map[string]string{
		"1e9999999": "1e30", "-1e9999999": "-1e30", "2.5e-9999999": "1e-31", "-1e-9999999": "-1e-31",
		"1.5e1000000000000000000000": "1e30", "1e-1000000000000000000000": "1e-31",
	} {
		if got := validatorNumber(text); string(got) != want {
			t.Errorf("%s: got stand-in %s, want %s", text, got, want)
		}
	}
}

// TestCommentShortcut pins the comment and reply schemas to what
// certainlyValidComment checks, and checks that it never vouches for a
// comment the schema rejects, and does vouch for the usual ones.
func TestCommentShortcut(t *testing.T) {
	var top map[string]any
	if err := json.Unmarshal(schema.JSON, &top); err != nil {
		t.Fatal(err)
	}
	// Annotations change nothing the validator decides.
	annotations := map[string]bool{"title": true, "description": true, "markdownDescription": true,
		"defaultSnippets": true, "errorMessage": true, "patternErrorMessage": true,
		"enumDescriptions": true, "markdownEnumDescriptions": true, "default": true}
	// strip removes annotations from a schema; names under "properties"
	// are members, not keywords, and stay.
	var strip func(v any, members bool) any
	strip = func(v any, members bool) any {
		switch v := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, c := range v {
				if members || !annotations[k] {
					out[k] = strip(c, !members && k == "properties")
				}
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, c := range v {
				out[i] = strip(c, false)
			}
			return out
		}
		return v
	}
	str := map[string]any{"type": "string"}
	line := map[string]any{"type": "integer", "minimum": 1.0}
	at := map[string]any{"type": "string", "format": "date-time"}
	want := map[string]any{
		"comments": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/comment"}},
		"comment": map[string]any{
			"type":     "object",
			"required": []any{"path", "side", "start_line", "body"},
			"properties": map[string]any{
				"id": str, "author": str, "path": str, "body": str, "snippet": str,
				"side": map[string]any{"anyOf": []any{
					map[string]any{"enum": []any{"RIGHT", "LEFT"}},
					map[string]any{"type": "string", "pattern": "^([Ll][Ee][Ff][Tt]|[Rr][Ii][Gg][Hh][Tt])$"},
				}},
				"start_line": line, "end_line": line,
				"state":   map[string]any{"type": "string", "enum": []any{"active", "dismissed", "orphaned", "stale"}},
				"at":      at,
				"replies": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/reply"}},
			},
		},
		"reply": map[string]any{
			"type":       "object",
			"required":   []any{"author", "body"},
			"properties": map[string]any{"author": str, "body": str, "at": at},
		},
	}
	defs := top["$defs"].(map[string]any)
	got := map[string]any{
		"comments": strip(top["properties"].(map[string]any)["comments"], false),
		"comment":  strip(defs["comment"], false),
		"reply":    strip(defs["reply"], false),
	}
	for k := range want {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("%s: got schema %v,\nwant %v\n(certainlyValidComment mirrors it: update both)", k, got[k], want[k])
		}
	}

	plain := plainValidator()
	if vs := plain.Validate(Parse([]byte(`{"leanreview_review": 1, "patch": [], "comments": [{"path": "p", "side": "RIGHT", "start_line": 1, "body": ""}]}`))); len(vs) != 0 {
		t.Errorf("got violations for the stub comment, want none:\n%s", describeViolations(vs))
	}
	if _, err := json.Marshal(stubComment); err != nil {
		t.Fatal(err)
	}

	variants := []struct {
		comment string
		vouch   bool // whether certainlyValidComment should vouch for it
	}{
		{comment(""), true},
		{comment(`"id": "c1", "author": "a", "end_line": 999999999, "state": "dismissed", "snippet": "s", "at": "2016-12-31T23:59:60Z", "replies": [{"author": "a", "body": "b", "at": "2024-05-01T12:00:00+02:00", "x": 1}], "extra": [1]`), true},
		{`{"path": "x", "side": "left", "start_line": 7, "body": "b"}`, true},
		{`{"path": "x", "side": "rIgHt", "start_line": 7, "body": "b"}`, true},
		{`{"path": "x", "side": "rıght", "start_line": 7, "body": "b"}`, false},
		{`{"path": "x", "side": "ＲＩＧＨＴ", "start_line": 7, "body": "b"}`, false},
		{`{"path": "x", "side": "RIGHT\n", "start_line": 7, "body": "b"}`, false},
		{`{"path": "x", "side": "RIGHTS", "start_line": 7, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "side": "MIDDLE", "start_line": 7, "body": "b"}`, false},
		{`{"path": "x", "side": "MIDDLE", "side": "LEFT", "start_line": 7, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": 1.0, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": 1e0, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": 0, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": -1, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": 1000000000, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": "1", "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "body": "b"}`, false},
		{`{"side": "LEFT", "start_line": 1, "body": "b"}`, false},
		{`{"path": "x", "side": "LEFT", "start_line": 1}`, false},
		{`{"path": null, "side": "LEFT", "start_line": 1, "body": "b"}`, false},
		{comment(`"end_line": 0`), false},
		{comment(`"state": "Active"`), false},
		{comment(`"state": null`), false},
		{comment(`"id": 1`), false},
		{comment(`"author": ["a"]`), false},
		{comment(`"snippet": false`), false},
		{comment(`"at": "2024-05-01 12:00:00Z"`), false},
		{comment(`"at": "2024-13-01T00:00:00Z"`), false},
		{comment(`"at": "2024-05-01T12:00:00"`), false},
		{comment(`"replies": {}`), false},
		{comment(`"replies": ["x"]`), false},
		{comment(`"replies": [{"author": "a"}]`), false},
		{comment(`"replies": [{"body": "b"}]`), false},
		{comment(`"replies": [{"author": "a", "body": 1}]`), false},
		{comment(`"replies": [{"author": "a", "body": "b", "at": "soon"}]`), false},
		{`"a string"`, false},
		{`[]`, false},
	}
	for _, tt := range variants {
		doc := Parse([]byte(review(tt.comment)))
		if len(doc.Syntax) > 0 {
			t.Fatalf("%s: test source has syntax errors: %v", tt.comment, doc.Syntax)
		}
		c := doc.Root.Member("comments").Elems()[0]
		vouch := certainlyValidComment(c, doc.Text)
		slow := plain.Validate(doc)
		if vouch && len(slow) > 0 {
			t.Errorf("%s: vouched for, but the schema rejects it:\n%s", tt.comment, describeViolations(slow))
		}
		if vouch != tt.vouch {
			t.Errorf("%s: got vouch %v, want %v", tt.comment, vouch, tt.vouch)
		}
		if fast := validateSchema(doc); !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: got with the shortcut:\n%swant as without it:\n%s", tt.comment, describeViolations(fast), describeViolations(slow))
		}
	}
	big := Parse(bigReview(10, 50))
	for i, c := range big.Root.Member("comments").Elems() {
		if !certainlyValidComment(c, big.Text) {
			t.Errorf("generated comment %d: got no vouch, want one (the shortcut would not apply)", i)
		}
	}
}
