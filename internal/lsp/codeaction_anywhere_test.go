package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestCommentFixesFromAnywhereInTheComment asks for the code actions as
// Helix does (the cursor only, no diagnostic named) at every column of
// every line of a drifted comment, from its opening brace to its closing
// one: the comment's fixes are offered everywhere, the preferred one
// first, and each change has one title wherever it is asked.
func TestCommentFixesFromAnywhereInTheComment(t *testing.T) {
	for _, tc := range []struct {
		name, text, fix string
	}{
		{"snippet mismatch", driftReview("71"), "Re-anchor c1 to RIGHT 72"},
		{"stale and mismatched", strings.Replace(driftReview("71"), `"state": "active"`, `"state": "stale"`, 1), "Re-anchor c1 by content to RIGHT 72"},
		{"line not in the image", driftReview("99"), "Re-anchor c1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := caOpen(t, tc.text)
			open := strings.Index(s.text, `"id": "c1"`)
			open = strings.LastIndex(s.text[:open], "{")
			end := open + strings.Index(s.text[open:], "\n    }") + len("\n    }")
			first := strings.Count(s.text[:open], "\n")
			last := strings.Count(s.text[:end], "\n")
			lines := strings.Split(s.text, "\n")
			titles := map[string]string{} // edit → title
			for line := first; line <= last; line++ {
				for col := range len(lines[line]) + 1 {
					off := len(strings.Join(lines[:line], "\n")) + 1 + col
					if line == 0 {
						off = col
					}
					if off <= open || off >= end {
						continue // outside the braces
					}
					at := protocol.Position{Line: uint32(line), Character: uint32(col)}
					as := s.actions(protocol.Range{Start: at, End: at}, nil, []protocol.Diagnostic{})
					if len(as) == 0 || !strings.HasPrefix(as[0].Title, tc.fix) || !as[0].IsPreferred {
						t.Fatalf("line %d column %d: got%s\nwant %q first, preferred", line+1, col+1, caTitles(as), tc.fix)
					}
					for _, a := range as {
						key := fmt.Sprint(a.Edit)
						if prev, ok := titles[key]; ok && prev != a.Title {
							t.Fatalf("line %d column %d: one change titled %q here and %q elsewhere", line+1, col+1, a.Title, prev)
						}
						titles[key] = a.Title
					}
				}
			}
		})
	}
}
