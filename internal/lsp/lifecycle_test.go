package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// rawClient speaks to a server message by message, choosing request ids,
// for the tests of the protocol's edges: lifecycle, cancellation, exit.
type rawClient struct {
	t      *testing.T
	stream jsonrpc2.Stream
	msgs   chan jsonrpc2.Message
	exit   chan int
}

func newRawClient(t *testing.T) *rawClient {
	t.Helper()
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	srv := NewServer(Options{Debounce: time.Millisecond, testRequests: testMethods})
	tappedClientWrite, tappedServerWrite, _ := tapConformance(t, clientWrite, serverWrite)
	c := &rawClient{t: t, stream: jsonrpc2.NewStream(pipeRWC{clientRead, tappedClientWrite}), msgs: make(chan jsonrpc2.Message, 100), exit: make(chan int, 1)}
	go func() { c.exit <- srv.Serve(context.Background(), pipeRWC{serverRead, tappedServerWrite}) }()
	go func() {
		for {
			msg, _, err := c.stream.Read(context.Background())
			if err != nil {
				close(c.msgs)
				return
			}
			c.msgs <- msg
		}
	}()
	t.Cleanup(func() { clientWrite.Close(); serverWrite.Close() })
	return c
}

func (c *rawClient) send(msg jsonrpc2.Message) {
	c.t.Helper()
	if _, err := c.stream.Write(context.Background(), msg); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rawClient) callID(id int32, method string, params any) {
	c.t.Helper()
	call, err := jsonrpc2.NewCall(jsonrpc2.NewNumberID(id), method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(call)
}

func (c *rawClient) notify(method string, params any) {
	c.t.Helper()
	n, err := jsonrpc2.NewNotification(method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(n)
}

// response waits for the response to id, skipping notifications.
func (c *rawClient) response(id int32) *jsonrpc2.Response {
	c.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case msg, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("stream closed before the response to %d", id)
			}
			if r, ok := msg.(*jsonrpc2.Response); ok && r.ID() == jsonrpc2.NewNumberID(id) {
				return r
			}
		case <-timeout:
			c.t.Fatalf("no response to request %d", id)
		}
	}
}

func errorCode(t *testing.T, r *jsonrpc2.Response) jsonrpc2.Code {
	t.Helper()
	var e *jsonrpc2.Error
	if !errors.As(r.Err(), &e) {
		t.Fatalf("got result %s, want an error", r.Result())
	}
	return e.Code
}

func (c *rawClient) exitCode() int {
	c.t.Helper()
	select {
	case code := <-c.exit:
		return code
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return -1
}

func TestLifecycle(t *testing.T) {
	c := newRawClient(t)
	c.callID(1, "textDocument/hover", map[string]any{})
	if got := errorCode(t, c.response(1)); got != jsonrpc2.ServerNotInitialized {
		t.Errorf("request before initialize: got code %d, want %d", got, jsonrpc2.ServerNotInitialized)
	}
	c.callID(2, "initialize", map[string]any{"capabilities": map[string]any{}})
	if r := c.response(2); r.Err() != nil {
		t.Fatalf("initialize: %v", r.Err())
	}
	c.callID(3, "initialize", map[string]any{"capabilities": map[string]any{}})
	if got := errorCode(t, c.response(3)); got != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: got code %d, want %d", got, jsonrpc2.InvalidRequest)
	}
	c.callID(4, "textDocument/noSuchMethod", map[string]any{})
	if got := errorCode(t, c.response(4)); got != jsonrpc2.MethodNotFound {
		t.Errorf("unknown method: got code %d, want %d", got, jsonrpc2.MethodNotFound)
	}
	c.callID(5, "shutdown", nil)
	// The wire carries "result": null; the library's decoder reads it as
	// no result at all.
	if r := c.response(5); r.Err() != nil || len(r.Result()) > 0 && string(r.Result()) != "null" {
		t.Errorf("shutdown: got result %s error %v, want null", r.Result(), r.Err())
	}
	c.callID(6, "textDocument/hover", map[string]any{})
	if got := errorCode(t, c.response(6)); got != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: got code %d, want %d", got, jsonrpc2.InvalidRequest)
	}
	c.notify("exit", nil)
	if got := c.exitCode(); got != 0 {
		t.Errorf("exit after shutdown: got code %d, want 0", got)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newRawClient(t)
	c.callID(1, "initialize", map[string]any{"capabilities": map[string]any{}})
	c.response(1)
	c.notify("exit", nil)
	if got := c.exitCode(); got != 1 {
		t.Errorf("exit without shutdown: got code %d, want 1", got)
	}
}

// testMethods are test-only requests, given to the servers the tests
// start through Options.testRequests: one that waits to be cancelled, one
// that panics, one that counts itself while it runs.
var testMethods = map[string]requestFunc{
	"lreview/test/block": func(ctx context.Context, v *requestView, _ json.RawMessage) (any, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			return "not cancelled", nil
		}
	},
	"lreview/test/panic": func(ctx context.Context, v *requestView, _ json.RawMessage) (any, error) {
		var m map[string]int
		//lint:ignore SA5000 the handler must fail with a real runtime panic
		m["boom"]++
		return nil, nil
	},
	"lreview/test/blockCounted": func(ctx context.Context, v *requestView, _ json.RawMessage) (any, error) {
		blockedRunning.Add(1)
		defer blockedRunning.Add(-1)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			return "not cancelled", nil
		}
	},
}

func TestCancelNumericAndStringIDs(t *testing.T) {
	c := newRawClient(t)
	c.callID(1, "initialize", map[string]any{"capabilities": map[string]any{}})
	c.response(1)
	c.callID(7, "lreview/test/block", nil)
	c.notify("$/cancelRequest", map[string]any{"id": 7})
	if got := errorCode(t, c.response(7)); got != protocol.CodeRequestCancelled {
		t.Errorf("cancelled numeric id: got code %d, want %d", got, protocol.CodeRequestCancelled)
	}
	call, _ := jsonrpc2.NewCall(jsonrpc2.NewStringID("abc"), "lreview/test/block", nil)
	c.send(call)
	c.notify("$/cancelRequest", map[string]any{"id": "abc"})
	timeout := time.After(5 * time.Second)
	for done := false; !done; {
		select {
		case msg := <-c.msgs:
			if r, ok := msg.(*jsonrpc2.Response); ok && r.ID() == jsonrpc2.NewStringID("abc") {
				if got := errorCode(t, r); got != protocol.CodeRequestCancelled {
					t.Errorf("cancelled string id: got code %d, want %d", got, protocol.CodeRequestCancelled)
				}
				done = true
			}
		case <-timeout:
			t.Fatal("string-id request was not cancelled")
		}
	}
}

func TestPanicInHandlerIsAnErrorReply(t *testing.T) {
	c := newTestClient(t, Options{})
	c.initialize()
	err := c.call("lreview/test/panic", nil, nil)
	var e *jsonrpc2.Error
	if !errors.As(err, &e) || e.Code != jsonrpc2.InternalError {
		t.Fatalf("got %v, want an InternalError reply", err)
	}
	// The session carries on: a real request still works.
	uri := protocol.DocumentURI("file:///tmp/ok.review.json")
	c.open(uri, exampleReview)
	if ds := c.waitDiagnostics(uri, 1); len(ds) == 0 {
		t.Errorf("no diagnostics after the panic; want the example's hunk-count warning")
	}
	c.mu.Lock()
	logged := strings.Join(c.logs, "\n")
	c.mu.Unlock()
	if !strings.Contains(logged, "panic in lreview/test/panic") {
		t.Errorf("log messages %q do not mention the panic", logged)
	}
	if code := c.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}
