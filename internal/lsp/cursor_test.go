package lsp

import (
	"context"
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

// TestShowBodyWaitsForItsChange: the command of "Reply to …" that comes
// before the change making the reply (Helix sends a code action's command
// first) shows the new body once the change comes. The command's view is
// taken before the change, as the server takes a request's when it
// arrives; the change is sent once the command waits, and the command is
// told of the newer version when it is made (it would give up after
// bodyWait, with an error, if it were not).
func TestShowBodyWaitsForItsChange(t *testing.T) {
	waiting := make(chan struct{}, 1)
	s := caOpenWith(t, testreviews.WorktreeReview, []string{"utf-16"}, Options{bodyWaiting: func() {
		select {
		case waiting <- struct{}{}:
		default:
		}
	}})
	at := s.pos(`"c2"`, 1)
	var reply *protocol.CodeAction
	for _, a := range s.actions(protocol.Range{Start: at, End: at}, nil, nil) {
		if a.Title == "Reply to c2" {
			reply = &a
		}
	}
	if reply == nil || reply.Command == nil || reply.Command.Command != CommandShowBody {
		t.Fatalf("got %+v, want Reply to c2 with %s", reply, CommandShowBody)
	}
	v := s.c.srv.view()
	defer v.release()
	done := make(chan error, 1)
	go func() {
		_, err := showBody(context.Background(), v, reply.Command.Arguments)
		done <- err
	}()
	<-waiting
	s.apply(*reply)
	if err := <-done; err != nil {
		t.Fatalf("showBody: %v", err)
	}
	s.c.mu.Lock()
	shown := slices.Clone(s.c.shown)
	s.c.mu.Unlock()
	if len(shown) != 1 || shown[0].Selection == nil {
		t.Fatalf("showBody: got %+v, want one showDocument with a cursor", shown)
	}
	off := navOffset(t, s.text, shown[0].Selection.Start, s.enc)
	if !strings.HasSuffix(s.text[:off], `"body": "`) || !strings.HasPrefix(s.text[off:], `",`) {
		t.Errorf("the cursor is not inside the new empty body: …%s|%s…", s.text[max(0, off-30):off], s.text[off:min(len(s.text), off+10)])
	}
}
