package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stamp is the time every test's server writes into `at`.
var stamp = time.Date(2026, 12, 3, 14, 0, 0, 0, time.UTC)

// session is a client connected to a server over the SDK's in-memory
// transports, serving the files of root.
type session struct {
	t    testing.TB
	root string
	cs   *mcp.ClientSession
	// outputs are the tools' output schemas, resolved, to check every
	// structured result against, as a client that validates would.
	outputs map[string]*jsonschema.Resolved
}

// newSession starts a server on a fresh root holding files (name →
// content) and connects a client to it. opts.Root is set to the root.
func newSession(t testing.TB, opts Options, files map[string]string) *session {
	t.Helper()
	return newSessionAs(t, DefaultAuthor, opts, files)
}

// newSessionAs is newSession from a client that names itself client at
// initialize.
func newSessionAs(t testing.TB, client string, opts Options, files map[string]string) *session {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		writeFile(t, filepath.Join(root, name), content)
	}
	opts.Root = root
	if opts.Now == nil {
		opts.Now = func() time.Time { return stamp }
	}
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]*jsonschema.Resolved{}
	for _, tool := range tools.Tools {
		data, _ := json.Marshal(tool.OutputSchema)
		var sch jsonschema.Schema
		if err := json.Unmarshal(data, &sch); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
		if outputs[tool.Name], err = sch.Resolve(nil); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
	}
	return &session{t: t, root: root, cs: cs, outputs: outputs}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (s *session) read(name string) string {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(s.root, name))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}

// call calls tool with args and returns the result; a protocol error
// fails the test (a tool's failure must be a result).
func (s *session) call(tool string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: protocol error %v, want a tool result", tool, err)
	}
	return res
}

// ok calls tool, which must succeed, and decodes its structured content
// into out.
func (s *session) ok(tool string, args map[string]any, out any) string {
	s.t.Helper()
	res := s.call(tool, args)
	text := resultText(res)
	if res.IsError {
		s.t.Fatalf("%s(%v): error %q, want success", tool, args, text)
	}
	reflect.ValueOf(out).Elem().SetZero() // Unmarshal would merge into what is there
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		s.t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		s.t.Fatal(err)
	}
	if err := s.outputs[tool].Validate(v); err != nil {
		s.t.Fatalf("%s: its structured content does not match its output schema: %v\n%s", tool, err, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		s.t.Fatalf("%s: structured content %s: %v", tool, data, err)
	}
	return text
}

// refused calls tool, which must fail with a message holding every one
// of wants, and returns the message.
func (s *session) refused(tool string, args map[string]any, wants ...string) string {
	s.t.Helper()
	res := s.call(tool, args)
	text := resultText(res)
	if !res.IsError {
		s.t.Fatalf("%s(%v): success %q, want a refusal", tool, args, text)
	}
	for _, w := range wants {
		if !strings.Contains(text, w) {
			s.t.Errorf("%s: got error %q, want it to say %q", tool, text, w)
		}
	}
	return text
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
