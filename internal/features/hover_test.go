package features

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// hvSrc is a review laid out as leanreview writes it, with one comment of
// each kind hover and navigation tell apart:
//
//	c1 resolves at RIGHT 72 and has a reply; c2 (RIGHT 80) does not
//	resolve and its snippet is at RIGHT 74; c3 is dismissed on LEFT 72;
//	c4 names the new file's missing LEFT image; c5 spans RIGHT 71–73; the
//	sixth comment has no anchor yet; c7's side is not one; c8's path has
//	a typo.
const hvSrc = `{
  "leanreview_review": 1,
  "title": "auth refactor",
  "patch": [
    "diff --git a/internal/api/handler.go b/internal/api/handler.go",
    "--- a/internal/api/handler.go",
    "+++ b/internal/api/handler.go",
    "@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",
    "     ctx := context.Background()",
    "     defer cancel(ctx)",
    "-    result := calculate(input)",
    "+    result, err := calculate(input)",
    "+    _ = err",
    "     return result, nil",
    "diff --git a/docs/new.md b/docs/new.md",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/docs/new.md",
    "@@ -0,0 +1,2 @@",
    "+# Title",
    "+body text"
  ],
  "comments": [
    {"id": "c1", "author": "assistant", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "body": "` + "`err`" + ` is discarded.\nSecond line.", "state": "active", "replies": [{"author": "hduran", "body": "Agreed.", "x-note": 1}]},
    {"id": "c2", "author": "assistant", "path": "internal/api/handler.go", "side": "right", "start_line": 80, "body": "Returns too early.", "snippet": "return result, nil"},
    {"id": "c3", "author": "hduran", "path": "internal/api/handler.go", "side": "LEFT", "start_line": 72, "body": "Old code.", "state": "dismissed"},
    {"id": "c4", "path": "docs/new.md", "side": "LEFT", "start_line": 1, "body": "Where was it?", "state": "MIDDLE"},
    {"id": "c5", "author": "a_b", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 71, "end_line": 73, "body": "Whole block."},
    {"author": "late", "body": "No anchor yet."},
    {"id": "c7", "path": "internal/api/handler.go", "side": "UP", "start_line": 72, "body": "Bad side."},
    {"id": "c8", "path": "internal/api/handlr.go", "side": "RIGHT", "start_line": 72, "body": "Typo."}
  ]
}
`

func hvAnalysis(t *testing.T, src string) *anchor.Analysis {
	t.Helper()
	doc := exchange.Parse([]byte(src))
	return analyze(doc)
}

// hvAt returns the offset of the unique occurrence of needle in src,
// moved by delta.
func hvAt(t *testing.T, src, needle string, delta int) int {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 || strings.Contains(src[i+1:], needle) {
		t.Fatalf("needle %q is not in the source exactly once", needle)
	}
	return i + delta
}

func hvText(src string, r exchange.Range) string { return src[r.Start:r.End] }

func TestPlaceAt(t *testing.T) {
	doc := exchange.Parse([]byte(hvSrc))
	for _, tc := range []struct {
		needle string
		delta  int
		kind   PlaceKind
		text   string // the place's range
		member string
		owner  string
		cmt    int
		reply  int
		line   int // patch line, -1 for none
	}{
		{`"title"`, 0, PlaceKey, `"title"`, "title", exchange.OwnerReview, -1, -1, -1},
		{`"title"`, 6, PlaceKey, `"title"`, "title", exchange.OwnerReview, -1, -1, -1}, // on the closing quote
		{`"title"`, 7, PlaceValue, strings.TrimSpace(hvSrc), "", "", -1, -1, -1},       // the colon: the root object
		{`"auth refactor"`, 3, PlaceValue, `"auth refactor"`, "title", exchange.OwnerReview, -1, -1, -1},
		{`"+    _ = err"`, 0, PlacePatchLine, `"+    _ = err"`, "", "", -1, -1, 8},         // the opening quote
		{`"+    _ = err"`, 13, PlacePatchLine, `"+    _ = err"`, "", "", -1, -1, 8},        // the closing quote
		{`"+    _ = err",`, 14, PlaceValue, "", "patch", exchange.OwnerReview, -1, -1, -1}, // the comma: the array (text checked below)
		{`"diff --git a/internal`, 5, PlacePatchLine, `"diff --git a/internal/api/handler.go b/internal/api/handler.go"`, "", "", -1, -1, 0},
		{`"side": "right"`, 1, PlaceKey, `"side"`, "side", exchange.OwnerComment, 1, -1, -1},
		{`"right"`, 2, PlaceValue, `"right"`, "side", exchange.OwnerComment, 1, -1, -1},
		{`"start_line": 80`, 15, PlaceValue, `80`, "start_line", exchange.OwnerComment, 1, -1, -1},
		{`{"id": "c3"`, 0, PlaceValue, "", "", "", 2, -1, -1}, // the comment's brace: the comment object
		{`"author": "hduran", "body": "Agreed."`, 2, PlaceKey, `"author"`, "author", exchange.OwnerReply, 0, 0, -1},
		{`"Agreed."`, 1, PlaceValue, `"Agreed."`, "body", exchange.OwnerReply, 0, 0, -1},
		{`"x-note"`, 1, PlaceKey, `"x-note"`, "x-note", exchange.OwnerReply, 0, 0, -1},
		{`"late"`, 1, PlaceValue, `"late"`, "author", exchange.OwnerComment, 5, -1, -1},
	} {
		t.Run(fmt.Sprint(tc.needle, "+", tc.delta), func(t *testing.T) {
			off := hvAt(t, hvSrc, tc.needle, tc.delta)
			p := PlaceAt(doc, off)
			text := hvText(hvSrc, p.Range)
			if tc.text == "" {
				tc.text = text // checked by the other fields
			}
			if p.Kind != tc.kind || text != tc.text || p.Member() != tc.member || p.Owner != tc.owner || p.Comment != tc.cmt || p.Reply != tc.reply || p.PatchLine != tc.line {
				t.Errorf("PlaceAt(%q%+d): got kind %d %q member %q owner %q comment %d reply %d line %d, want kind %d %q member %q owner %q comment %d reply %d line %d",
					tc.needle, tc.delta, p.Kind, text, p.Member(), p.Owner, p.Comment, p.Reply, p.PatchLine,
					tc.kind, tc.text, tc.member, tc.owner, tc.cmt, tc.reply, tc.line)
			}
		})
	}
	if p := PlaceAt(doc, len(hvSrc)-1); p.Kind != PlaceNone {
		t.Errorf("PlaceAt(after the root): got kind %d, want none", p.Kind)
	}
}

// In the single-string form and in multi-line elements, each line of the
// string is a place of its own, from its first character to the escape
// that ends it.
func TestPlaceAtSharedLines(t *testing.T) {
	src := `{"leanreview_review": 1, "patch": "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+\u00e9\n", "comments": []}`
	doc := exchange.Parse([]byte(src))
	for _, tc := range []struct {
		needle string
		delta  int
		text   string
		line   int
	}{
		{`"diff`, 0, `diff --git a/x b/x`, 0}, // the opening quote belongs to the first line
		{`--- a/x`, 2, `--- a/x`, 1},
		{`\n+++`, 0, `--- a/x`, 1}, // the escape ending a line is part of it
		{`+\u00e9`, 3, `+\u00e9`, 5},
		{`\u00e9\n"`, 7, `+\u00e9`, 5}, // the closing quote: the last line
	} {
		t.Run(fmt.Sprint(tc.needle, "+", tc.delta), func(t *testing.T) {
			p := PlaceAt(doc, hvAt(t, src, tc.needle, tc.delta))
			if p.Kind != PlacePatchLine || hvText(src, p.Range) != tc.text || p.PatchLine != tc.line {
				t.Errorf("PlaceAt(%q%+d): got kind %d %q line %d, want a patch line %q, line %d", tc.needle, tc.delta, p.Kind, hvText(src, p.Range), p.PatchLine, tc.text, tc.line)
			}
		})
	}
}

func TestHover(t *testing.T) {
	an := hvAnalysis(t, hvSrc)
	for _, tc := range []struct {
		name   string
		needle string
		delta  int
		text   string   // the hover's range
		want   []string // substrings, in order
		not    []string
	}{
		{
			name: "resolved comment", needle: `"start_line": 72, "body": "` + "`err`", delta: 14, text: "72",
			want: []string{
				"**Comment `c1`** by **assistant** · active · 1 reply\n\n`internal/api/handler.go` · RIGHT 72\n\n```diff\n",
				"  70 70  │     ctx := context.Background()\n",
				"  71 71  │     defer cancel(ctx)\n",
				"- 72     │     result := calculate(input)\n",
				"+    72 >│     result, err := calculate(input)\n",
				"+    73  │     _ = err\n",
				"  73 74  │     return result, nil\n```",
			},
			not: []string{"snippet", "does not resolve"},
		},
		{
			name: "comment seen from its reply's body", needle: `"Agreed."`, delta: 2, text: `"Agreed."`,
			want: []string{"**Comment `c1`**", "+    72 >│"},
		},
		{
			name: "unresolved comment with a drift candidate", needle: `"Returns too early."`, delta: 0, text: `"Returns too early."`,
			want: []string{
				"**Comment `c2`** by **assistant** · active\n\n",
				"`internal/api/handler.go` · RIGHT 80 · **does not resolve** (`line-not-in-image`): RIGHT 80 is not in the patch; the nearest hunk shows RIGHT 70–74.",
				"\n\nSnippet found at RIGHT 74 (nearest):\n\n```diff\n",
				"+    73  │     _ = err\n  73 74 >│     return result, nil\n```",
			},
			not: []string{"Drift candidates"}, // one candidate: the block says it all
		},
		{
			name: "dismissed comment on the old image", needle: `"Old code."`, delta: 1, text: `"Old code."`,
			want: []string{"**Comment `c3`** by **hduran** · dismissed", "`internal/api/handler.go` · LEFT 72", "- 72    >│     result := calculate(input)", "+    72  │"},
		},
		{
			name: "no such image", needle: `"Where was it?"`, delta: 1, text: `"Where was it?"`,
			want: []string{"**Comment `c4`** · MIDDLE", "`docs/new.md` · LEFT 1 · **does not resolve** (`no-such-image`): `docs/new.md` is a new file: it has no LEFT (old) image."},
		},
		{
			name: "unknown path", needle: `"Typo."`, delta: 1, text: `"Typo."`,
			want: []string{"`internal/api/handlr.go` · RIGHT 72 · **does not resolve** (`unknown-path`): no file `internal/api/handlr.go` in the patch; did you mean `internal/api/handler.go`?"},
			not:  []string{"```"},
		},
		{
			name: "unreadable side", needle: `"Bad side."`, delta: 1, text: `"Bad side."`,
			want: []string{"**Comment `c7`** · active\n\nThe anchor cannot be read yet"},
		},
		{
			name: "range, author with Markdown characters", needle: `"Whole block."`, delta: 1, text: `"Whole block."`,
			want: []string{"by **a\\_b**", "RIGHT 71–73", "  70 70  │", "  71 71 >│", "- 72     │", "+    72 >│", "+    73 >│", "  73 74  │", "```"},
		},
		{
			name: "anchorless comment", needle: `"No anchor yet."`, delta: 1, text: `"No anchor yet."`,
			want: []string{"**Comment `#6`** by **late** · active\n\nThe anchor cannot be read yet"},
		},
		{
			name: "comment member key", needle: `"side": "right"`, delta: 2, text: `"side"`,
			want: []string{"`side` — **Side** (required)\n\nWhich image of the diff `start_line` counts in"},
		},
		{
			name: "recommended id", needle: `"id": "c2"`, delta: 1, text: `"id"`,
			want: []string{"`id` — **Comment id** (recommended)"},
		},
		{
			name: "review member key", needle: `"patch"`, delta: 1, text: `"patch"`,
			want: []string{"`patch` — **Patch** (required)\n\nThe whole git-style unified diff"},
		},
		{
			name: "reply member key", needle: `"author": "hduran", "body": "Agreed."`, delta: 3, text: `"author"`,
			want: []string{"`author` — **Author** (required)\n\nWho wrote the reply"},
		},
		{
			name: "unknown member", needle: `"x-note"`, delta: 0, text: `"x-note"`,
			want: []string{"`x-note` is not a member of a reply: readers ignore it, and leanreview's rewrite drops it."},
		},
		{
			name: "side value in any case", needle: `"right"`, delta: 1, text: `"right"`,
			want: []string{"`RIGHT` — The **new** image"},
		},
		{
			name: "state value", needle: `"dismissed"`, delta: 1, text: `"dismissed"`,
			want: []string{"`dismissed` — A person rejected it"},
		},
		{
			name: "invalid state value", needle: `"MIDDLE"`, delta: 1, text: `"MIDDLE"`,
			want: []string{"`MIDDLE` is not a valid `state`. It is one of:\n", "\n- `active` — ", "\n- `stale` — "},
		},
		{
			name: "context line", needle: `"     return result, nil"`, delta: 3, text: `"     return result, nil"`,
			want: []string{"**LEFT 73 · RIGHT 74** · context line · `internal/api/handler.go`"},
			not:  []string{"comment"},
		},
		{
			name: "added line with comments", needle: `"+    result, err`, delta: 3, text: `"+    result, err := calculate(input)"`,
			want: []string{
				"**RIGHT 72** · added line · `internal/api/handler.go`\n\n2 comments:\n",
				"\n- **assistant** · `c1` · active — `err` is discarded.",
				"\n- **a\\_b** · `c5` · active — Whole block.",
			},
			not: []string{"Second line"},
		},
		{
			name: "removed line with a dismissed comment", needle: `"-    result`, delta: 1, text: `"-    result := calculate(input)"`,
			want: []string{"**LEFT 72** · removed line", "1 comment:\n\n- **hduran** · `c3` · dismissed — Old code."},
		},
		{
			name: "hunk header", needle: `"@@ -70,4`, delta: 1, text: `"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {"`,
			want: []string{"**Hunk** of `internal/api/handler.go` · shows LEFT 70–73 · RIGHT 70–74\n\n3 comments:"},
		},
		{
			name: "file header", needle: `"new file mode`, delta: 1, text: `"new file mode 100644"`,
			want: []string{"**File** `docs/new.md` · new file · 1 hunk\n\n1 comment:\n\n- **(no author)** · `c4` · MIDDLE — Where was it?"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := HoverAt(an, hvAt(t, hvSrc, tc.needle, tc.delta))
			if !ok {
				t.Errorf("%s: got no hover, want one", tc.name)
				return
			}
			if got := hvText(hvSrc, h.Range); got != tc.text {
				t.Errorf("%s: got range %q, want %q", tc.name, got, tc.text)
			}
			rest := h.Markdown
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("%s: got hover\n%s\nwant it to contain, after what came before,\n%s", tc.name, h.Markdown, w)
					break
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tc.not {
				if strings.Contains(h.Markdown, w) {
					t.Errorf("%s: got hover\n%s\nwant no %q", tc.name, h.Markdown, w)
				}
			}
		})
	}
	for _, tc := range []struct {
		needle string
		delta  int
	}{
		{`"auth refactor"`, 1},         // a review value: nothing to add
		{`"leanreview_review": 1`, 21}, // the version
		{`],`, 1},                      // between members
	} {
		t.Run(fmt.Sprint(tc.needle, "+", tc.delta), func(t *testing.T) {
			if h, ok := HoverAt(an, hvAt(t, hvSrc, tc.needle, tc.delta)); ok {
				t.Errorf("hover at %q%+d: got %q, want none", tc.needle, tc.delta, h.Markdown)
			}
		})
	}
}

// A long range shows its ends and says how many lines it leaves out.
func TestHoverElidesLongRanges(t *testing.T) {
	patch := []string{"--- a/long.txt", "+++ b/long.txt", "@@ -0,0 +1,40 @@"}
	for i := 1; i <= 40; i++ {
		patch = append(patch, "+line "+strings.Repeat("x", i%3))
	}
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1, "patch": [`)
	for i, l := range patch {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(jsontext.Quote(l))
	}
	b.WriteString(`], "comments": [{"path": "long.txt", "side": "RIGHT", "start_line": 5, "end_line": 30, "body": "long"}]}`)
	src := b.String()
	an := hvAnalysis(t, src)
	h, ok := HoverAt(an, hvAt(t, src, `"long"}`, 1))
	if !ok {
		t.Fatal("got no hover, want one")
	}
	block := h.Markdown[strings.Index(h.Markdown, "```diff\n")+8:]
	block = block[:strings.Index(block, "```")]
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	want := []string{
		"+     3  │ line ",
		"+     4  │ line x",
		"+     5 >│ line xx",
	}
	if len(lines) != hoverMaxLines || !slices.Equal(lines[:3], want) {
		t.Fatalf("got block\n%s\nwant %d lines starting with\n%s", block, hoverMaxLines, strings.Join(want, "\n"))
	}
	if got, want := lines[hoverMaxLines/2], "         ┆ … 15 more lines"; got != want {
		t.Errorf("got elision line %q, want %q", got, want)
	}
	if got, want := lines[len(lines)-1], "+    32  │ line xx"; got != want {
		t.Errorf("got last line %q, want %q", got, want)
	}
}

// A snippet found at two places as near each: both are listed, neither
// is the nearest.
func TestHoverSnippetMismatch(t *testing.T) {
	src := `{"leanreview_review": 1, "patch": ["--- a/t.go", "+++ b/t.go", "@@ -10,5 +10,5 @@", " x := 1", " pad()", "-old()", "+mid()", " pad()", " x := 1"],
  "comments": [{"id": "t1", "path": "t.go", "side": "RIGHT", "start_line": 12, "snippet": "x := 1", "body": "tie"}]}`
	an := hvAnalysis(t, src)
	h, ok := HoverAt(an, hvAt(t, src, `"tie"`, 1))
	want := "`t.go` · RIGHT 12\n\n```diff\n  10 10  │ x := 1\n  11 11  │ pad()\n- 12     │ old()\n+    12 >│ mid()\n  13 13  │ pad()\n  14 14  │ x := 1\n```\n\n" +
		"**The snippet does not match these lines.**\n\nDrift candidates:\n\n- snippet found at RIGHT 10: `x := 1`\n- snippet found at RIGHT 14: `x := 1`"
	if !ok || !strings.HasSuffix(h.Markdown, want) {
		t.Errorf("got hover\n%s\nwant it to end with\n%s", h.Markdown, want)
	}
}

func TestDefinition(t *testing.T) {
	an := hvAnalysis(t, hvSrc)
	elem := func(s string) string { return `"` + s + `"` }
	for _, tc := range []struct {
		name   string
		needle string
		delta  int
		want   []string
	}{
		{"start_line value", `"start_line": 72, "body": "` + "`err`", 14, []string{elem("+    result, err := calculate(input)")}},
		{"start_line value, cursor after it", `"start_line": 72, "body": "` + "`err`", 16, []string{elem("+    result, err := calculate(input)")}}, // on the comma
		{"side key", `handler.go", "side": "RIGHT", "start_line": 72`, 14, []string{elem("+    result, err := calculate(input)")}},
		{"range: one location from its first to its last line", `"end_line": 73`, 12, []string{strings.Join([]string{
			elem("     defer cancel(ctx)"), elem("-    result := calculate(input)"), elem("+    result, err := calculate(input)"), elem("+    _ = err"),
		}, ",\n    ")}},
		{"unresolved: the drift candidate", `"start_line": 80`, 14, []string{elem("     return result, nil")}},
		{"path: the file's first header line", `"path": "docs/new.md"`, 10, []string{elem("diff --git a/docs/new.md b/docs/new.md")}},
		{"no such image, no candidate: the file", `"path": "docs/new.md", "side": "LEFT", "start_line": 1`, 40, []string{elem("diff --git a/docs/new.md b/docs/new.md")}},
		{"dismissed comment still resolves", `"side": "LEFT", "start_line": 72`, 30, []string{elem("-    result := calculate(input)")}},
		{"unreadable anchor, path: the file", `"side": "UP"`, -13, []string{elem("diff --git a/internal/api/handler.go b/internal/api/handler.go")}},
		{"unreadable anchor, start_line: the file", `"UP", "start_line": 72`, 20, []string{elem("diff --git a/internal/api/handler.go b/internal/api/handler.go")}},
		{"no anchor at all", `"late"`, 1, nil},
		{"unknown path", `handlr.go"`, 1, nil},
		{"unknown path, start_line", `handlr.go", "side": "RIGHT", "start_line": 72`, 43, nil},
		{"body is not an anchor member", `"Whole block."`, 1, nil},
		{"a reply's author is not an anchor member", `"hduran", "body": "Agreed."`, 1, nil},
		{"a patch line has no definition", `"+    _ = err"`, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, rg := range Definition(an, hvAt(t, hvSrc, tc.needle, tc.delta)) {
				got = append(got, hvText(hvSrc, rg))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}

func TestReferences(t *testing.T) {
	an := hvAnalysis(t, hvSrc)
	for _, tc := range []struct {
		name   string
		needle string
		decl   bool
		want   []string // range texts, each followed by what comes after it to tell them apart
	}{
		{"added line", `"+    result, err`, false, []string{`72, "body": "`, `71, "end_line": 73`}},
		{"added line with the declaration", `"+    _ = err"`, true, []string{`"+    _ = err",`, `71, "end_line": 73`}},
		{"removed line: the dismissed comment", `"-    result`, false, []string{`72, "body": "Old code."`}},
		{"unanchored line", `"     return result, nil"`, false, nil},
		{"hunk header: the comments in the hunk", `"@@ -70,4`, false, []string{`72, "body": "` + "`err`", `72, "body": "Old code."`, `71, "end_line": 73`}},
		{"file header: the comments naming the file", `"+++ b/docs/new.md"`, false, []string{`1, "body": "Where was it?"`}},
		{"a ranged comment: its lines, then the comments on them", `"Whole block."`, false, []string{`"     defer cancel(ctx)",`, `72, "body": "` + "`err`"}},
		{"a comment with the declaration: its start_line first", `"Whole block."`, true, []string{`71, "end_line": 73`, `"     defer cancel(ctx)",`, `72, "body": "` + "`err`"}},
		{"a reply inside a comment: the comment's lines", `"Agreed."`, false, []string{`"+    result, err := calculate(input)"`, `71, "end_line": 73`}},
		{"a comment that does not resolve: nothing", `"Returns too early."`, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, rg := range References(an, hvAt(t, hvSrc, tc.needle, 1), tc.decl) {
				got = append(got, hvSrc[rg.Start:])
			}
			ok := len(got) == len(tc.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.HasPrefix(got[i], tc.want[i])
			}
			if !ok {
				var short []string
				for _, g := range got {
					short = append(short, g[:min(len(g), 40)])
				}
				t.Errorf("%s: got ranges starting %q, want %q", tc.name, short, tc.want)
			}
		})
	}
	// The ranged comment's span is one range over its lines.
	if rs := References(an, hvAt(t, hvSrc, `"Whole block."`, 1), false); len(rs) == 0 || !strings.HasSuffix(hvText(hvSrc, rs[0]), `"+    _ = err"`) {
		t.Errorf("references from c5: got %v, want its span first, ending at RIGHT 73", rs)
	}
}

func TestCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a.go", "`a.go`"},
		{"a`b", "`` a`b ``"},
		{" x", "`  x `"}, // CommonMark strips one space from each end
		{"``", "``` `` ```"},
		{"", "`\"\"`"},
	} {
		if got := code(tc.in); got != tc.want {
			t.Errorf("code(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}
