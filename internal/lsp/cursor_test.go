package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestBodyCursorAfterAction: "Comment on …", asked at column 1 of a patch
// line (its indentation), and "Reply to …" carry lreview.showBody; run once
// the edit is applied, it shows the review with the cursor in the new
// empty body. The review holds
// characters outside the BMP before the places, so the encodings differ.
func TestBodyCursorAfterAction(t *testing.T) {
	for _, encoding := range []string{"utf-16", "utf-8"} {
		t.Run(encoding, func(t *testing.T) {
			text := strings.Replace(testreviews.WorktreeReview, `"c2"`, `"c2 🚀"`, 1)
			s := caOpen(t, text, encoding)
			line := strings.Count(text[:strings.Index(text, `"+    _ = err`)], "\n")
			col1 := protocol.Position{Line: uint32(line)}
			for _, c := range []struct {
				at    protocol.Position
				title string
			}{
				{col1, "Comment on RIGHT 73"},
				{s.pos(`"c2 🚀"`, 1), "Reply to c2 🚀"},
			} {
				var action *protocol.CodeAction
				for _, a := range s.actions(protocol.Range{Start: c.at, End: c.at}, nil, nil) {
					if a.Title == c.title {
						action = &a
					}
				}
				if action == nil || action.Command == nil || action.Command.Command != CommandShowBody {
					t.Fatalf("%s: got %+v, want the action with %s", c.title, action, CommandShowBody)
				}
				// As an editor does: the edit, its change sent, then the command.
				s.apply(*action)
				s.c.mustCall("workspace/executeCommand", map[string]any{"command": action.Command.Command, "arguments": action.Command.Arguments}, nil)
				s.c.mu.Lock()
				shown := s.c.shown[len(s.c.shown)-1]
				s.c.mu.Unlock()
				if string(shown.URI) != string(s.uri) || shown.Selection == nil || shown.Selection.Start != shown.Selection.End || !shown.TakeFocus {
					t.Fatalf("%s: showDocument %+v, want the review, a cursor, focused", c.title, shown)
				}
				off := navOffset(t, s.text, shown.Selection.Start, s.enc)
				if !strings.HasSuffix(s.text[:off], `"body": "`) || !strings.HasPrefix(s.text[off:], `",`) {
					t.Errorf("%s: the cursor is not inside the new empty body: …%s|%s…", c.title, s.text[max(0, off-30):off], s.text[off:min(len(s.text), off+10)])
				}
			}
		})
	}
}

// TestHelixShowsDocuments: Helix answers window/showDocument without
// declaring it; the server offers lreview.showBody to it all the same,
// and not to a client that declares nothing and is not Helix.
func TestHelixShowsDocuments(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{{"helix", true}, {"other", false}} {
		c := newTestClient(t, Options{})
		var res struct {
			Capabilities struct {
				ExecuteCommandProvider struct {
					Commands []string `json:"commands"`
				} `json:"executeCommandProvider"`
			} `json:"capabilities"`
		}
		c.mustCall("initialize", map[string]any{"clientInfo": map[string]any{"name": tc.name, "version": "25.01.1"}, "capabilities": map[string]any{}}, &res)
		if got := slices.Contains(res.Capabilities.ExecuteCommandProvider.Commands, CommandShowBody); got != tc.want {
			t.Errorf("%s: %s offered %v, want %v", tc.name, CommandShowBody, got, tc.want)
		}
	}
}
