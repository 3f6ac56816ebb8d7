package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

func (s *navSession) references(needle string, delta int, includeDecl bool) []protocol.Location {
	s.t.Helper()
	p := s.params(s.pos(needle, delta))
	p["context"] = map[string]any{"includeDeclaration": includeDecl}
	var locs []protocol.Location
	s.c.mustCall("textDocument/references", p, &locs)
	return locs
}

// navRefReview adds a comment on the last line to navReview's, with a
// string before its start_line that looks like one.
const navRefReview = `{
  "leanreview_review": 1,
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
    {"id": "😀1", "path": "é.go", "side": "RIGHT", "start_line": 2, "end_line": 3, "body": "Prefer \"é\" 😀"},
    {"id": "c2", "path": "é.go", "side": "RIGHT", "start_line": 3, "body": "🙈 \"start_line\": 3"},
    {"id": "c3", "path": "é.go", "side": "LEFT", "start_line": 3, "body": "old 😀", "state": "dismissed"}
  ]
}
`

func TestReferences(t *testing.T) {
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, navRefReview, e.offer, e.enc)
			for _, tc := range []struct {
				name   string
				needle string
				decl   bool
				want   []string // unique texts: an element, or a start_line number and what follows it
			}{
				{"an added line: the start_line of each comment on it", `"+\tx := 😀 + 1"`, false,
					[]string{`2, "end_line": 3`, `3, "body": "🙈`}},
				{"with the declaration: the element first", `"+\tx := 😀 + 1"`, true,
					[]string{`"+\tx := 😀 + 1"`, `2, "end_line": 3`, `3, "body": "🙈`}},
				{"a context line in both images: the dismissed comment on LEFT 3", `" \treturn"`, false,
					[]string{`3, "body": "old 😀"`}},
				{"a line no comment is on", `" \tctx`, false, nil},
				{"a ranged comment: its lines as one location, then the other comment on them", `"Prefer \"é\" 😀"`, false,
					[]string{"\"+\\tname := \\\"é\\\" // \\\\ ok\",\n    \"+\\tx := 😀 + 1\"", `3, "body": "🙈`}},
				{"a one-line comment with the declaration: its start_line, its line, the ranged comment", `"🙈 \"start_line`, true,
					[]string{`3, "body": "🙈`, `"+\tx := 😀 + 1"`, `2, "end_line": 3`}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					locs := s.references(tc.needle, 2, tc.decl)
					if len(locs) != len(tc.want) {
						var got []string
						for _, l := range locs {
							got = append(got, s.rangeText(l.Range))
						}
						t.Errorf("%s: got %q, want %d locations", tc.name, got, len(tc.want))
						return
					}
					for i, w := range tc.want {
						want := s.rangeOf(w)
						if w[0] != '"' {
							// A start_line value: the number alone.
							want.End = s.pos(w, 1)
						}
						if locs[i].URI != s.uri || locs[i].Range != want {
							t.Errorf("%s: location %d: got %+v over %q, want %+v", tc.name, i, locs[i].Range, s.rangeText(locs[i].Range), want)
						}
					}
				})
			}
		})
	}
}
