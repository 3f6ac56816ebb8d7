package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/agent"
)

// rawMCP is the built command on real pipes, spoken to line by line.
type rawMCP struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
}

func startRawMCP(t *testing.T, root string) *rawMCP {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lreview-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "mcp", "--root", root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("lreview-lsp mcp: %v, want exit 0 at the end of its input; stderr:\n%s", err, stderr.String())
		}
	})
	return &rawMCP{t: t, in: in, out: bufio.NewReaderSize(out, 1<<20), cmd: cmd}
}

func (m *rawMCP) send(line string) {
	m.t.Helper()
	if _, err := io.WriteString(m.in, line+"\n"); err != nil {
		m.t.Fatalf("the server stopped reading: %v", err)
	}
}

// reply reads the next message the server writes.
func (m *rawMCP) reply() map[string]any {
	m.t.Helper()
	line, err := m.out.ReadBytes('\n')
	if err != nil {
		m.t.Fatalf("no reply (the server exited?): %v", err)
	}
	var msg map[string]any
	if err := json.Unmarshal(line, &msg); err != nil {
		m.t.Fatalf("reply %q: %v", line, err)
	}
	return msg
}

// TestMCPSurvivesMalformedLines sends the built command, over real pipes,
// each line a host could send by mistake: every one gets the JSON-RPC
// error the specification gives, and a valid call after it is answered.
func TestMCPSurvivesMalformedLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and sends 64 MiB")
	}
	m := startRawMCP(t, t.TempDir())
	m.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := m.reply(); r["result"] == nil {
		t.Fatalf("initialize: got %v", r)
	}
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	huge := `{"jsonrpc":"2.0","id":99,"method":"tools/list","params":{"x":"` + strings.Repeat("a", agent.MaxMessage) + `"}}`
	for i, tc := range []struct {
		name, line string
		code       float64
		id         any
		says       string
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":2,"method":`, -32700, nil, "not JSON"},
		{"plain text", `hello`, -32700, nil, "not JSON"},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`, -32600, nil, "batch"},
		{"empty batch", `[]`, -32600, nil, "batch"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, nil, `"id" is {"a":1}`},
		{"no jsonrpc", `{"id":4,"method":"tools/list"}`, -32600, 4.0, `"jsonrpc" is missing`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"five","method":"tools/list"}`, -32600, "five", `"jsonrpc" is "1.0"`},
		{"not an object", `42`, -32600, nil, "JSON object"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, -32600, nil, `"id" is null`},
		{"fractional id", `{"jsonrpc":"2.0","id":5.5,"method":"tools/list"}`, -32600, nil, `"id" is 5.5`},
		{"over the limit", huge, -32600, nil, "longer than 67108864 bytes"},
	} {
		m.send(tc.line)
		r := m.reply()
		e, _ := r["error"].(map[string]any)
		if e == nil || e["code"] != tc.code || r["id"] != tc.id || !strings.Contains(e["message"].(string), tc.says) {
			t.Errorf("%s: got %v, want error %v saying %q for id %v", tc.name, r, tc.code, tc.says, tc.id)
		}
		// The session goes on: a valid call is answered.
		id := 100 + i
		m.send(`{"jsonrpc":"2.0","id":` + jsonNumber(id) + `,"method":"tools/list"}`)
		if r := m.reply(); r["id"] != float64(id) || r["result"] == nil {
			t.Fatalf("after %s: got %v, want the tools listed", tc.name, r)
		}
	}
}

func jsonNumber(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
