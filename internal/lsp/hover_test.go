package lsp

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// navReview has emoji, non-ASCII text and escapes before and inside every
// place the navigation tests point at, so that a column counted in the
// wrong unit lands on the wrong token.
//
//	é.go: ctx L1 R1 · name L2 · name R2 · x R3 · return L3 R4
//	😀1 anchors RIGHT 2–3; c2 anchors RIGHT 9 and its snippet is at RIGHT 4
const navReview = `{
  "leanreview_review": 1,
  "title": "😀 review of \"é\" handling",
  "patch": [
    "diff --git a/é.go b/é.go",
    "--- a/é.go",
    "+++ b/é.go",
    "@@ -1,3 +1,4 @@ func Ünïcode() {",
    " \tctx := \"😀\"",
    "-\tname := \u00e9",
    "+\tname := \"é\" // \\ ok",
    "+\tx := 😀 + 1",
    " \treturn"
  ],
  "comments": [
    {"id": "😀1", "author": "hé", "path": "é.go", "side": "RIGHT", "start_line": 2, "end_line": 3, "body": "Prefer \"é\" 😀", "state": "active"},
    {"id": "c2", "author": "zoë", "path": "é.go", "side": "RIGHT", "start_line": 9, "body": "🙈 drifted", "snippet": "return", "replies": [{"author": "😀", "body": "ok"}]}
  ]
}
`

// navEncodings are the two encodings a session can negotiate: the
// protocol's default, and UTF-8 when the client offers it.
var navEncodings = []struct {
	name  string
	offer []string
	enc   exchange.Encoding
}{
	{"utf-16", nil, exchange.UTF16},
	{"utf-8", []string{"utf-8", "utf-16"}, exchange.UTF8},
}

// navSession is one open document in a server that negotiated enc.
type navSession struct {
	t    *testing.T
	c    *testClient
	uri  protocol.DocumentURI
	text string
	enc  exchange.Encoding
	// opened counts the documents opened after the first, for their names.
	opened int
}

func navOpen(t *testing.T, text string, offer []string, enc exchange.Encoding) *navSession {
	t.Helper()
	c := newTestClient(t, Options{})
	if got := c.initialize(offer...).Capabilities.PositionEncoding; got != enc.String() {
		t.Fatalf("positionEncoding: got %q, want %q", got, enc)
	}
	uri := protocol.DocumentURI("file:///tmp/nav.review.json")
	c.open(uri, text)
	return &navSession{t: t, c: c, uri: uri, text: text, enc: enc}
}

// navPosition converts a byte offset by counting, independently of the
// server's Mapper: lines end at "\n"; columns are UTF-16 units or bytes.
func navPosition(text string, off int, enc exchange.Encoding) protocol.Position {
	line := strings.Count(text[:off], "\n")
	prefix := text[strings.LastIndex(text[:off], "\n")+1 : off]
	col := len(prefix)
	if enc == exchange.UTF16 {
		col = len(utf16.Encode([]rune(prefix)))
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// navOffset is navPosition's inverse.
func navOffset(t *testing.T, text string, p protocol.Position, enc exchange.Encoding) int {
	t.Helper()
	off := 0
	for i := uint32(0); i < p.Line; i++ {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			t.Fatalf("position %v is past the last line", p)
		}
		off += nl + 1
	}
	for units := uint32(0); units < p.Character; {
		r, size := utf8.DecodeRuneInString(text[off:])
		if size == 0 || r == '\n' {
			t.Fatalf("position %v is past the end of its line", p)
		}
		off += size
		switch {
		case enc == exchange.UTF8:
			units += uint32(size)
		case r >= 0x10000:
			units += 2
		default:
			units++
		}
	}
	return off
}

// pos is the position of the unique occurrence of needle, moved by delta
// bytes.
func (s *navSession) pos(needle string, delta int) protocol.Position {
	s.t.Helper()
	i := strings.Index(s.text, needle)
	if i < 0 || strings.Contains(s.text[i+1:], needle) {
		s.t.Fatalf("needle %q is not in the document exactly once", needle)
	}
	return navPosition(s.text, i+delta, s.enc)
}

// rangeText is the document text a range covers.
func (s *navSession) rangeText(r protocol.Range) string {
	s.t.Helper()
	return s.text[navOffset(s.t, s.text, r.Start, s.enc):navOffset(s.t, s.text, r.End, s.enc)]
}

// rangeOf is the exact range of the unique occurrence of needle.
func (s *navSession) rangeOf(needle string) protocol.Range {
	s.t.Helper()
	return protocol.Range{Start: s.pos(needle, 0), End: s.pos(needle, len(needle))}
}

func (s *navSession) params(pos protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": s.uri}, "position": pos}
}

func (s *navSession) hover(needle string, delta int) *protocol.Hover {
	s.t.Helper()
	var h *protocol.Hover
	s.c.mustCall("textDocument/hover", s.params(s.pos(needle, delta)), &h)
	return h
}

func TestHover(t *testing.T) {
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, navReview, e.offer, e.enc)
			for _, tc := range []struct {
				name   string
				needle string
				delta  int
				rng    string   // the exact text the hover's range covers
				want   []string // substrings of the Markdown, in order
			}{
				{
					name: "a comment: its lines with their numbers", needle: `"Prefer \"é\" 😀"`, delta: 14, rng: `"Prefer \"é\" 😀"`,
					want: []string{
						"**Comment `😀1`** by **hé** · active\n\n`é.go` · RIGHT 2–3\n\n```diff\n",
						"  1 1  │ \tctx := \"😀\"\n",
						"- 2    │ \tname := é\n",
						"+   2 >│ \tname := \"é\" // \\ ok\n",
						"+   3 >│ \tx := 😀 + 1\n",
						"  3 4  │ \treturn\n```",
					},
				},
				{
					name: "a comment that does not resolve: reason and candidate", needle: `"🙈 drifted"`, delta: 1, rng: `"🙈 drifted"`,
					want: []string{
						"**Comment `c2`** by **zoë** · active · 1 reply\n\n",
						"`é.go` · RIGHT 9 · **does not resolve** (`line-not-in-image`): RIGHT 9 is not in the patch; the nearest hunk shows RIGHT 1–4.",
						"Snippet found at RIGHT 4 (nearest):\n\n```diff\n",
						"  3 4 >│ \treturn\n```",
					},
				},
				{
					name: "an added line: numbers, kind, file, comments", needle: `"+\tx := 😀 + 1"`, delta: 8, rng: `"+\tx := 😀 + 1"`,
					want: []string{"**RIGHT 3** · added line · `é.go`\n\n1 comment:\n\n- **hé** · `😀1` · active — Prefer \"é\" 😀"},
				},
				{
					name: "a context line: both numbers", needle: `" \treturn"`, delta: 4, rng: `" \treturn"`,
					want: []string{"**LEFT 3 · RIGHT 4** · context line · `é.go`"},
				},
				{
					name: "a comment's member key: the schema's description", needle: `"start_line": 9`, delta: 3, rng: `"start_line"`,
					want: []string{"`start_line` — **Start line** (required)\n\n1-based line number in the file of the chosen `side`"},
				},
				{
					name: "a reply's member key", needle: `"author": "😀"`, delta: 1, rng: `"author"`,
					want: []string{"`author` — **Author** (required)\n\nWho wrote the reply"},
				},
				{
					name: "a review member key", needle: `"title"`, delta: 1, rng: `"title"`,
					want: []string{"`title` — **Title**\n\nHuman-readable title of the review."},
				},
				{
					name: "a side value", needle: `"RIGHT", "start_line": 9`, delta: 2, rng: `"RIGHT"`,
					want: []string{"`RIGHT` — The **new** image: added (`+`) and context lines, numbered by the new file."},
				},
				{
					name: "a state value", needle: `"active"`, delta: 1, rng: `"active"`,
					want: []string{"`active` — The comment stands: the next party must address it. **The default.**"},
				},
			} {
				t.Run(tc.name, func(t *testing.T) {
					h := s.hover(tc.needle, tc.delta)
					if h == nil {
						t.Errorf("%s: got no hover, want one", tc.name)
						return
					}
					if h.Contents.Kind != protocol.Markdown {
						t.Errorf("%s: got contents kind %q, want markdown", tc.name, h.Contents.Kind)
					}
					if h.Range == nil {
						t.Errorf("%s: got no range, want %q", tc.name, tc.rng)
					} else if got := s.rangeText(*h.Range); got != tc.rng {
						t.Errorf("%s: got range over %q, want %q", tc.name, got, tc.rng)
					}
					rest := h.Contents.Value
					for _, w := range tc.want {
						i := strings.Index(rest, w)
						if i < 0 {
							t.Errorf("%s: got hover\n%s\nwant it to contain, after what came before,\n%s", tc.name, h.Contents.Value, w)
							break
						}
						rest = rest[i+len(w):]
					}
				})
			}
			// The exact range of a hovered element: its quotes included,
			// columns in the negotiated unit.
			h := s.hover(`"+\tx := 😀 + 1"`, 1)
			if want := s.rangeOf(`"+\tx := 😀 + 1"`); h == nil || h.Range == nil || *h.Range != want {
				t.Errorf("hover range on an element: got %+v, want %+v", h, want)
			}
			// Where there is nothing to say, the result is null.
			if h := s.hover(`"😀 review`, 3); h != nil {
				t.Errorf("hover on the title: got %q, want null", h.Contents.Value)
			}
		})
	}
}

// Hovering follows the edits: the analysis is the document's latest.
func TestHoverAfterChange(t *testing.T) {
	s := navOpen(t, navReview, nil, exchange.UTF16)
	rng := s.rangeOf(`"start_line": 9`)
	s.c.change(s.uri, 2, &rng, `"start_line": 4`)
	s.text = strings.Replace(s.text, `"start_line": 9`, `"start_line": 4`, 1)
	h := s.hover(`"🙈 drifted"`, 1)
	if h == nil || !strings.Contains(h.Contents.Value, "`é.go` · RIGHT 4\n\n```diff\n") || strings.Contains(h.Contents.Value, "does not resolve") {
		t.Errorf("hover after moving c2 to RIGHT 4: got %+v, want it resolved at RIGHT 4", h)
	}
}
