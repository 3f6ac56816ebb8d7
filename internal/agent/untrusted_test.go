package agent

import (
	"context"
	"encoding/json"
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
