package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

func (s *navSession) definition(needle string, delta int) []protocol.Location {
	s.t.Helper()
	var locs []protocol.Location
	s.c.mustCall("textDocument/definition", s.params(s.pos(needle, delta)), &locs)
	return locs
}

// navSpan is the text of the one location definition gives for 😀1's
// range, RIGHT 2–3: from its first element to its last, so that the
// editor jumps instead of offering a list.
const navSpan = "\"+\\tname := \\\"é\\\" // \\\\ ok\",\n    \"+\\tx := 😀 + 1\""

func TestDefinition(t *testing.T) {
	for _, e := range navEncodings {
		t.Run(e.name, func(t *testing.T) {
			s := navOpen(t, navReview, e.offer, e.enc)
			for _, tc := range []struct {
				name   string
				needle string
				delta  int
				want   []string // the elements the locations cover, exactly
			}{
				{"start_line value: one location over the anchored lines", `"start_line": 2`, 14,
					[]string{navSpan}},
				{"end_line key", `"end_line": 3`, 2,
					[]string{navSpan}},
				{"side value, cursor just after it", `"RIGHT", "start_line": 2`, 7,
					[]string{navSpan}},
				{"an anchor that does not resolve: its drift candidate", `"start_line": 9`, 14,
					[]string{`" \treturn"`}},
				{"path: the file's first header line", `"path": "é.go", "side": "RIGHT", "start_line": 9`, 10,
					[]string{`"diff --git a/é.go b/é.go"`}},
				{"body: nothing", `"🙈 drifted"`, 1, nil},
				{"a reply's author: nothing", `"author": "😀"`, 12, nil},
			} {
				t.Run(tc.name, func(t *testing.T) {
					locs := s.definition(tc.needle, tc.delta)
					var got []string
					for _, l := range locs {
						if l.URI != s.uri {
							t.Errorf("%s: got URI %q, want %q", tc.name, l.URI, s.uri)
						}
						got = append(got, s.rangeText(l.Range))
					}
					if len(got) != len(tc.want) {
						t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
						return
					}
					for i := range got {
						if want := s.rangeOf(tc.want[i]); got[i] != tc.want[i] || locs[i].Range != want {
							t.Errorf("%s: location %d: got %+v over %q, want %+v over %q", tc.name, i, locs[i].Range, got[i], want, tc.want[i])
						}
					}
				})
			}
		})
	}
}
