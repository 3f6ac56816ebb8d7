package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestForgedCursorIsRefused: a cursor with the right key and a start past
// the list is refused with a message by every paged tool, and the
// session goes on.
func TestForgedCursorIsRefused(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"pr.review.json": fixture(t)})
	for _, tool := range []string{"lreview_comments", "lreview_check", "lreview_locate"} {
		res := s.call(tool, map[string]any{"file": "pr.review.json", "limit": 1})
		var out struct {
			NextCursor string `json:"next_cursor"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, &out); err != nil || out.NextCursor == "" {
			t.Fatalf("%s with limit 1: got %s, want a next_cursor", tool, data)
		}
		_, key, _ := strings.Cut(out.NextCursor, "-")
		for _, start := range []string{"1000", "4", "99999999999"} {
			cursor := start + "-" + key
			s.refused(tool, map[string]any{"file": "pr.review.json", "cursor": cursor}, "cursor: ", "past the end of the list (", "call again without cursor")
		}
	}
	var out CommentsOutput
	s.ok("lreview_comments", map[string]any{"file": "pr.review.json"}, &out)
	if len(out.Comments) != 4 {
		t.Errorf("after the forged cursors: got %d comments, want 4", len(out.Comments))
	}
}

// TestPanicIsAToolError: a tool's panic is its error result, and the
// session answers the next call.
func TestPanicIsAToolError(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t"}, nil)
	type in struct {
		X string `json:"x,omitempty"`
	}
	addTool(srv, &mcp.Tool{Name: "boom"}, nil, func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, struct{}, error) {
		var list []int
		_ = list[1000:] // a bug that reads past a slice
		return nil, struct{}{}, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	for range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("got protocol error %v, want a tool result", err)
		}
		if text := resultText(res); !res.IsError || !strings.Contains(text, "boom: internal error (runtime error: slice bounds out of range") || !strings.Contains(text, "the server goes on") {
			t.Errorf("got %v %q, want an error result naming the panic", res.IsError, text)
		}
	}
}

// TestAgentIdentityIsFixedAtStart: the agent writes as the client named
// itself at initialize, or as --agent when given, and no call chooses
// another name: the author argument is refused, and a person's words stay
// a person's.
func TestAgentIdentityIsFixedAtStart(t *testing.T) {
	s := newSessionAs(t, "claude-code", Options{}, map[string]string{"pr.review.json": fixture(t)})
	var c Comment
	s.ok("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 11, "body": "Why?"}, &c)
	if c.Author != "claude-code" {
		t.Errorf("added a comment by %q, want claude-code (the client's name)", c.Author)
	}
	var rp ReplyOutput
	s.ok("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c1", "body": "ok"}, &rp)
	if rp.Reply.Author != "claude-code" {
		t.Errorf("replied as %q, want claude-code", rp.Reply.Author)
	}
	var ed EditCommentOutput
	s.ok("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": c.ID, "body": "Why twice?"}, &ed)
	s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c2", "body": "x"}, `comment c2 was written by "assistant", and you write as "claude-code"`)
	for _, tool := range []string{"lreview_add_comment", "lreview_reply", "lreview_edit_comment", "lreview_delete_comment"} {
		s.refused(tool, map[string]any{"file": "pr.review.json", "id": "c1", "reply": 1, "author": "hduran", "body": "I approve; ship it."},
			"author: "+tool+" takes no author", "fixed when the server starts")
	}
	if got := s.read("pr.review.json"); !strings.Contains(got, `{ "author": "hduran", "body": "Agreed." }`) {
		t.Errorf("hduran's reply changed:\n%s", got)
	}

	// --agent wins over the client's name.
	s = newSessionAs(t, "hduran", Options{Agent: "review-bot"}, map[string]string{"pr.review.json": fixture(t)})
	s.ok("lreview_add_comment", map[string]any{"file": "pr.review.json", "path": "app/users.py", "side": "RIGHT", "start_line": 11, "body": "Why?"}, &c)
	if c.Author != "review-bot" {
		t.Errorf("with --agent review-bot: added a comment by %q", c.Author)
	}
	s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c1", "reply": 1}, `reply 1 of c1 was written by "hduran", and you write as "review-bot"`)
}

// TestPersonsDecisionsAreNotTheAgents: a comment whose state is not
// exactly a valid one counts as a person's decision, as a dismissed one
// does: the agent neither edits nor removes it nor its replies, nor sets
// its state; it may still reply.
func TestPersonsDecisionsAreNotTheAgents(t *testing.T) {
	dismissedWithReply := strings.Replace(fixture(t), `"body": "Test an existing user too.",
      "state": "dismissed"`, `"body": "Test an existing user too.",
      "state": "dismissed",
      "replies": [{ "author": "assistant", "body": "Will do." }, { "author": "hduran", "body": "No: the fixture has none." }]`, 1)
	s := newSession(t, Options{}, map[string]string{"pr.review.json": dismissedWithReply})
	s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c4", "reply": 1, "body": "Won't."}, "comment c4 was dismissed by a person", "lreview_reply")
	s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c4", "reply": 1}, "comment c4 was dismissed by a person")
	if s.read("pr.review.json") != dismissedWithReply {
		t.Fatal("a refused call wrote the file")
	}
	var rp ReplyOutput
	s.ok("lreview_reply", map[string]any{"file": "pr.review.json", "id": "c4", "body": "Understood."}, &rp)

	for _, state := range []string{`"Dismissed"`, `" dismissed"`, `"DISMISSED"`, `"resolved"`, `7`, `null`, `"active", "state": "dismissed"`} {
		review := strings.Replace(fixture(t), `"body": "The row is fetched twice.",`, `"body": "The row is fetched twice.",
      "state": `+state+`,`, 1)
		s := newSession(t, Options{}, map[string]string{"pr.review.json": review})
		s.refused("lreview_edit_comment", map[string]any{"file": "pr.review.json", "id": "c2", "body": "x"}, "id: comment c2 ", "lreview_reply")
		s.refused("lreview_delete_comment", map[string]any{"file": "pr.review.json", "id": "c2"}, "id: comment c2 ")
		for _, to := range []string{"active", "stale", "orphaned"} {
			s.refused("lreview_set_state", map[string]any{"file": "pr.review.json", "id": "c2", "state": to}, "state: comment c2 ", "a person's decision stays as it is")
		}
		if s.read("pr.review.json") != review {
			t.Errorf("state %s: a refused call wrote the file", state)
		}
	}
}

// TestLocateSeesASameStatRewrite: lreview_locate and
// lreview_apply_suggestion see a source file rewritten in place with the
// same size, inode and modification time; before, the old text was
// reported and every apply answered "changed since it was read".
func TestLocateSeesASameStatRewrite(t *testing.T) {
	s := newSession(t, Options{}, map[string]string{"d.diff": coderDiff, "x.go": coderSource})
	var nw NewOutput
	s.ok("lreview_new", map[string]any{"diff_file": "d.diff", "file": "r.review.json"}, &nw)
	var c Comment
	s.ok("lreview_add_comment", map[string]any{"file": "r.review.json", "path": "x.go", "side": "RIGHT", "start_line": 4, "end_line": 5,
		"body": "```suggestion\n\tb := 1\n\treturn b\n```"}, &c)
	var loc LocateOutput
	s.ok("lreview_locate", map[string]any{"file": "r.review.json"}, &loc)
	name := filepath.Join(s.root, "x.go")
	before, _ := os.Stat(name)
	// The same bytes but two lines swapped at the top: same size.
	rewritten := strings.Replace(coderSource, "// Package x.\n// It is small.\n", "// It is small.\n// Package x.\n", 1)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(rewritten)
	f.Close()
	if err := os.Chtimes(name, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	var ap ApplyOutput
	s.ok("lreview_apply_suggestion", map[string]any{"file": "r.review.json", "id": "c1"}, &ap)
	want := strings.Replace(rewritten, "\ta := 1\n\treturn a\n", "\tb := 1\n\treturn b\n", 1)
	if got := s.read("x.go"); got != want {
		t.Errorf("x.go after the apply:\n%s\nwant\n%s", got, want)
	}
}
