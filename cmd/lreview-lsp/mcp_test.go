package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/agent"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// e2eDiff is the change the agent reviews.
const e2eDiff = `diff --git a/internal/api/handler.go b/internal/api/handler.go
index 81bb0e4..79b18f5 100644
--- a/internal/api/handler.go
+++ b/internal/api/handler.go
@@ -70,4 +70,6 @@ func Handle(input Input) (Output, error) {
     ctx := context.Background()
     defer cancel(ctx)
-    result := calculate(input)
+    result, err := calculate(input)
+    _ = err
+    log.Printf("handled %v 😀", input)
     return result, nil
`

// TestMCPEndToEnd runs the built command as an agent's MCP client would,
// through the SDK's command transport, and lives the agent's loop: start
// a review, comment three times (once by snippet), let a person dismiss
// one comment and answer another in the file, read that back, check.
func TestMCPEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "change.diff"), []byte(e2eDiff), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := startMCP(t, root)
	call := func(tool string, args map[string]any, out any) {
		t.Helper()
		callTool(t, cs, tool, args, out)
	}
	const file = "pr.review.json"

	var created agent.NewOutput
	call("lreview_new", map[string]any{"diff_file": "change.diff", "file": file, "title": "handler: return the error"}, &created)
	if !slices.Equal(created.Files, []string{"internal/api/handler.go"}) {
		t.Fatalf("new: got %+v", created)
	}
	path := "internal/api/handler.go"
	var c1, c2, c3 agent.Comment
	call("lreview_add_comment", map[string]any{"file": file, "path": path, "side": "RIGHT", "start_line": 72, "body": "`err` is discarded: return it."}, &c1)
	call("lreview_add_comment", map[string]any{"file": file, "path": path, "side": "LEFT", "start_line": 72, "body": "Why was this changed?"}, &c2)
	call("lreview_add_comment", map[string]any{"file": file, "path": path, "side": "RIGHT", "snippet": `log.Printf("handled %v 😀", input)`, "body": "Log at debug level."}, &c3)
	if c3.StartLine != 74 || c3.EndLine != 74 || c3.ID != "c3" {
		t.Fatalf("by snippet: got %+v, want c3 on RIGHT 74", c3)
	}

	// The person, in their editor: dismisses c2, answers c1.
	full := filepath.Join(root, file)
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	text := personEdit(t, string(data))
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}

	var got agent.CommentsOutput
	call("lreview_comments", map[string]any{"file": file}, &got)
	var summary []string
	for _, c := range got.Comments {
		line := c.ID + " " + c.State + " " + c.Anchor.Status + " " + c.Side + " " + strings.Join(c.Lines, "|")
		for _, r := range c.Replies {
			line += " reply " + r.Author + ": " + r.Body
		}
		summary = append(summary, line)
	}
	want := []string{
		"c1 active ok RIGHT +    result, err := calculate(input) reply hduran: Done — it returns now.",
		"c2 dismissed ok LEFT -    result := calculate(input)",
		`c3 active ok RIGHT +    log.Printf("handled %v 😀", input)`,
	}
	if !slices.Equal(summary, want) {
		t.Errorf("comments after the person's edit:\ngot  %q\nwant %q", summary, want)
	}

	var chk agent.CheckOutput
	call("lreview_check", map[string]any{"file": file}, &chk)
	if !chk.Clean || len(chk.Diagnostics) != 0 {
		t.Errorf("check: got %+v, want clean with no diagnostic", chk)
	}
}

// startMCP builds the command and connects to `lreview-lsp mcp --root
// root` through the SDK's command transport, from another directory: the
// root is the flag's, not the working directory.
func startMCP(t *testing.T, root string) *mcp.ClientSession {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lreview-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "mcp", "--root", root)
	cmd.Dir = t.TempDir()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls tool and decodes its structured result into out; a tool
// error fails the test.
func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s: %v", tool, res.Content[0].(*mcp.TextContent).Text)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: its structured content %s: %v", tool, data, err)
	}
}

// personEdit does what a person does to the review in an editor: marks
// c2 dismissed and replies to c1, by hand.
func personEdit(t *testing.T, text string) string {
	t.Helper()
	c2 := strings.Index(text, `"id": "c2"`)
	if c2 < 0 {
		t.Fatalf("no c2 in\n%s", text)
	}
	state := strings.Index(text[c2:], `"state": "active"`)
	if state < 0 {
		t.Fatalf("no c2 state in\n%s", text)
	}
	text = text[:c2+state] + `"state": "dismissed"` + text[c2+state+len(`"state": "active"`):]
	c1 := strings.Index(text, `"id": "c1"`)
	if c1 < 0 {
		t.Fatalf("no c1 in\n%s", text)
	}
	end := strings.Index(text[c1:], "\n    }")
	if end < 0 {
		t.Fatalf("no end of c1 in\n%s", text)
	}
	at := c1 + end
	return text[:at] + ",\n      \"replies\": [\n        {\"author\": \"hduran\", \"body\": \"Done — it returns now.\"}\n      ]" + text[at:]
}

// TestMCPParallelCalls issues 20 lreview_add_comment and 10 lreview_reply
// calls at once to the built command through the SDK's client, as agent
// hosts do: all 30 land, with distinct ids, in a valid, formatted file.
func TestMCPParallelCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "change.diff"), []byte(e2eDiff), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := startMCP(t, root)
	const file = "pr.review.json"
	var created agent.NewOutput
	callTool(t, cs, "lreview_new", map[string]any{"diff_file": "change.diff", "file": file}, &created)
	var first agent.Comment
	callTool(t, cs, "lreview_add_comment", map[string]any{"file": file, "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 72, "body": "first"}, &first)
	var wg sync.WaitGroup
	failures := make(chan string, 30)
	for i := range 30 {
		wg.Go(func() {
			args := map[string]any{"file": file, "body": fmt.Sprintf("call %d", i)}
			tool := "lreview_reply"
			if i < 20 {
				tool = "lreview_add_comment"
				args["path"], args["side"], args["start_line"] = "internal/api/handler.go", "RIGHT", 70+i%6
			} else {
				args["id"] = first.ID
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				failures <- fmt.Sprintf("%s %d: %v", tool, i, err)
			} else if res.IsError {
				failures <- fmt.Sprintf("%s %d: %s", tool, i, res.Content[0].(*mcp.TextContent).Text)
			}
		})
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	doc := exchange.Parse(data)
	ids := map[string]bool{}
	for _, c := range doc.Review.Comments {
		ids[c.ID] = true
	}
	if len(doc.Syntax) > 0 || len(doc.Review.Comments) != 21 || len(ids) != 21 || len(doc.Review.Comments[0].Replies) != 10 {
		t.Errorf("got %d comments (%d ids), %d replies, syntax %v; want 21, 21, 10, none", len(doc.Review.Comments), len(ids), len(doc.Review.Comments[0].Replies), doc.Syntax)
	}
	if f, err := exchange.Format(doc); err != nil || !bytes.Equal(f, data) {
		t.Errorf("the file is not formatted (%v)", err)
	}
}
