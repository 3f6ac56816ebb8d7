package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// testClient drives a real Server over an in-memory pipe, as an editor
// would: every test in this package talks the wire protocol.
type testClient struct {
	t    testing.TB
	conn jsonrpc2.Conn
	exit chan int
	// srv is the server, for tests that must wait for its internal state.
	srv *Server

	mu          sync.Mutex
	diagnostics map[protocol.DocumentURI][]publishedDiagnostics
	logs        []string
	// messages are the window/showMessage notifications' texts.
	messages []string
	notify   chan struct{}
	// versionsOnly makes the client note which versions got diagnostics
	// without decoding them, so that benchmarks time the server rather
	// than this client's decoding.
	versionsOnly bool
	// raw writes framed messages past the client's encoder (benchmarks).
	raw io.Writer
	// serverWrite is the server's end of the pipe to the client; drain
	// closes it once the server has exited.
	serverWrite io.Closer
	// shown are the window/showDocument requests the server sent, which
	// the client answers with success.
	shown []protocol.ShowDocumentParams
	// applied are the workspace/applyEdit requests the server sent, which
	// the client answers with success.
	applied []protocol.ApplyWorkspaceEditParams
	// stall, when set, holds the client's reading at the next
	// publishDiagnostics until it is closed, as a busy editor does;
	// stalledAt, when set, is told the version it holds at, if it has
	// room.
	stall     chan struct{}
	stalledAt chan int32
	// conf checks the server's messages against the LSP meta model
	// (nil in benchmarks, or without the model).
	conf *conformance
	// registrations are the client/registerCapability requests the
	// server sent; the client answers that it registered.
	registrations []protocol.RegistrationParams
	// unregistrations are the client/unregisterCapability requests.
	unregistrations []protocol.UnregistrationParams
	// marker, when set with versionsOnly, is looked for in each publish's
	// raw params; marked notes the files whose publish held it.
	marker []byte
	marked map[protocol.DocumentURI]bool
	// lensRefreshes counts the workspace/codeLens/refresh requests the
	// server sent, which the client answers with null.
	lensRefreshes int
}

type publishedDiagnostics struct {
	Version     int32                 `json:"version"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

// newTestClient starts a server and connects a client to it; the server is
// shut down when the test ends.
func newTestClient(t testing.TB, opts Options) *testClient {
	t.Helper()
	if opts.Debounce == 0 {
		opts.Debounce = 5 * time.Millisecond
	}
	if opts.testRequests == nil {
		opts.testRequests = testMethods
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC) }
	}
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	srv := NewServer(opts)
	tappedClientWrite, tappedServerWrite, conf := tapConformance(t, clientWrite, serverWrite)
	c := &testClient{conf: conf, t: t, srv: srv, exit: make(chan int, 1), diagnostics: map[protocol.DocumentURI][]publishedDiagnostics{}, notify: make(chan struct{}, 1)}
	go func() { c.exit <- srv.Serve(context.Background(), pipeRWC{serverRead, tappedServerWrite}) }()
	c.raw = tappedClientWrite
	c.serverWrite = serverWrite
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{clientRead, tappedClientWrite}))
	c.conn.Go(context.Background(), c.handle)
	t.Cleanup(func() {
		c.conn.Close()
		clientWrite.Close()
		serverWrite.Close()
	})
	return c
}

func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	// The server's requests are answered off the reading loop, as an
	// editor's event loop answers them: an answer written from the loop
	// could wait on the server, itself writing into the unbuffered pipe
	// this loop reads (an OS pipe would have room for both).
	if _, isCall := req.(*jsonrpc2.Call); isCall {
		inner := reply
		reply = func(ctx context.Context, result any, err error) error {
			go func() { _ = inner(ctx, result, err) }()
			return nil
		}
	}
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI protocol.DocumentURI `json:"uri"`
			publishedDiagnostics
		}
		if c.versionsOnly {
			var v struct {
				URI     protocol.DocumentURI `json:"uri"`
				Version int32                `json:"version"`
			}
			_ = fastjson.Unmarshal(req.Params(), &v)
			p.URI, p.Version = v.URI, v.Version
			if c.marker != nil && bytes.Contains(req.Params(), c.marker) {
				c.mu.Lock()
				if c.marked == nil {
					c.marked = map[protocol.DocumentURI]bool{}
				}
				c.marked[v.URI] = true
				c.mu.Unlock()
			}
			p.Diagnostics = []protocol.Diagnostic{{}}
		} else if err := fastjson.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad publishDiagnostics: %v", err)
		}
		c.mu.Lock()
		stall, stalledAt := c.stall, c.stalledAt
		c.mu.Unlock()
		if stall != nil {
			select {
			case stalledAt <- p.Version:
			default: // nobody waits to hear (or stalledAt is nil)
			}
			<-stall
		}
		c.mu.Lock()
		// Keep the last few versions only: benchmarks publish thousands.
		list := append(c.diagnostics[p.URI], p.publishedDiagnostics)
		c.diagnostics[p.URI] = list[max(0, len(list)-8):]
		c.mu.Unlock()
	case "window/showDocument":
		var p protocol.ShowDocumentParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad showDocument: %v", err)
		}
		c.mu.Lock()
		c.shown = append(c.shown, p)
		c.mu.Unlock()
		return reply(ctx, protocol.ShowDocumentResult{Success: true}, nil)
	case "workspace/applyEdit":
		var p protocol.ApplyWorkspaceEditParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad applyEdit: %v", err)
		}
		c.mu.Lock()
		c.applied = append(c.applied, p)
		c.mu.Unlock()
		return reply(ctx, protocol.ApplyWorkspaceEditResponse{Applied: true}, nil)
	case "client/registerCapability":
		var p protocol.RegistrationParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad registerCapability: %v", err)
		}
		c.mu.Lock()
		c.registrations = append(c.registrations, p)
		c.mu.Unlock()
	case "client/unregisterCapability":
		var p protocol.UnregistrationParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad unregisterCapability: %v", err)
		}
		c.mu.Lock()
		c.unregistrations = append(c.unregistrations, p)
		c.mu.Unlock()
	case "workspace/codeLens/refresh":
		c.mu.Lock()
		c.lensRefreshes++
		c.mu.Unlock()
	case "window/logMessage":
		var p protocol.LogMessageParams
		_ = json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.logs = append(c.logs, p.Message)
		c.mu.Unlock()
	case "window/showMessage":
		var p protocol.ShowMessageParams
		_ = json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.messages = append(c.messages, p.Message)
		c.mu.Unlock()
	}
	select {
	case c.notify <- struct{}{}:
	default:
	}
	return reply(ctx, nil, nil)
}

// call sends a request and decodes its result into result (may be nil).
func (c *testClient) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var raw json.RawMessage
	if _, err := c.conn.Call(ctx, method, params, &raw); err != nil {
		return err
	}
	if result != nil && len(raw) > 0 {
		return fastjson.Unmarshal(raw, result)
	}
	return nil
}

// mustCall is call that fails the test on error.
func (c *testClient) mustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *testClient) notifyServer(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize runs the handshake as a full-featured editor does (see
// fullCapabilities), offering the given position encodings.
func (c *testClient) initialize(encodings ...string) initializeResult {
	c.t.Helper()
	return c.initializeWith(fullCapabilities(encodings...))
}

// fullCapabilities are those of an editor that takes everything the
// server can send but snippets: code action literals, markdown, the
// outline as a tree, tags, window/showDocument.
func fullCapabilities(encodings ...string) map[string]any {
	markup := []string{"markdown", "plaintext"}
	return map[string]any{
		"general": map[string]any{"positionEncodings": encodings},
		"window":  map[string]any{"showDocument": map[string]any{"support": true}},
		"textDocument": map[string]any{
			"hover": map[string]any{"contentFormat": markup},
			"completion": map[string]any{
				"completionItem": map[string]any{
					"documentationFormat":   markup,
					"preselectSupport":      true,
					"insertTextModeSupport": map[string]any{"valueSet": []int{1, 2}},
				},
				"completionItemKind": map[string]any{"valueSet": kinds(25)},
			},
			"codeAction": map[string]any{
				"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "source"}}},
				"isPreferredSupport":       true,
			},
			"documentSymbol": map[string]any{
				"hierarchicalDocumentSymbolSupport": true,
				"tagSupport":                        map[string]any{"valueSet": []int{1}},
				"symbolKind":                        map[string]any{"valueSet": kinds(26)},
			},
			"publishDiagnostics": map[string]any{
				"relatedInformation": true,
				"tagSupport":         map[string]any{"valueSet": []int{1, 2}},
			},
		},
	}
}

// kinds is the valueSet 1 to n: every kind of an enumeration.
func kinds(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// initializeWith runs the handshake declaring capabilities.
func (c *testClient) initializeWith(capabilities map[string]any) initializeResult {
	c.t.Helper()
	params := map[string]any{
		"processId":    nil,
		"rootUri":      nil,
		"capabilities": capabilities,
	}
	var res initializeResult
	c.mustCall("initialize", params, &res)
	c.notifyServer("initialized", map[string]any{})
	return res
}

func (c *testClient) open(uri protocol.DocumentURI, text string) {
	c.t.Helper()
	c.notifyServer("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "lreview", "version": 1, "text": text},
	})
}

// change sends one ranged edit (or the whole text when rng is nil).
func (c *testClient) change(uri protocol.DocumentURI, version int32, rng *protocol.Range, text string) {
	c.t.Helper()
	ch := map[string]any{"text": text}
	if rng != nil {
		ch["range"] = rng
	}
	c.notifyServer("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{ch},
	})
}

// waitDiagnostics waits for the diagnostics of uri's version.
func (c *testClient) waitDiagnostics(uri protocol.DocumentURI, version int32) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		for _, p := range c.diagnostics[uri] {
			if p.Version == version {
				c.mu.Unlock()
				return p.Diagnostics
			}
		}
		c.mu.Unlock()
		select {
		case <-c.notify:
		case <-time.After(10 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

// shutdown ends the session properly and returns the server's exit code.
func (c *testClient) shutdown() int {
	c.t.Helper()
	c.mustCall("shutdown", nil, nil)
	c.notifyServer("exit", nil)
	select {
	case code := <-c.exit:
		return code
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return -1
}
