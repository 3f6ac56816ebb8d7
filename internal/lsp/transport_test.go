package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/transport"
)

// wireClient talks to a Server over a real pipe byte by byte, as a broken
// or hostile client would: what it writes is not framed for it.
type wireClient struct {
	t      testing.TB
	w      io.WriteCloser
	msgs   chan map[string]json.RawMessage
	exit   chan int
	log    *syncBuffer
	writes sync.WaitGroup
	queue  chan []byte
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newWireClient(t testing.TB) *wireClient {
	t.Helper()
	return newWireClientWith(t, Options{})
}

// newWireClientWith serves with opts, less Debounce, Log and testRequests.
func newWireClientWith(t testing.TB, opts Options) *wireClient {
	t.Helper()
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	tappedClientWrite, tappedServerWrite, _ := tapConformance(t, clientWrite, serverWrite)
	c := &wireClient{t: t, w: tappedClientWrite, msgs: make(chan map[string]json.RawMessage, 1024), exit: make(chan int, 1), log: &syncBuffer{}}
	opts.Debounce, opts.Log, opts.testRequests = time.Millisecond, c.log, testMethods
	srv := NewServer(opts)
	go func() {
		c.exit <- srv.Serve(context.Background(), pipeRWC{serverRead, tappedServerWrite})
		serverWrite.Close()
	}()
	c.queue = make(chan []byte, 64)
	go c.readLoop(bufio.NewReader(clientRead))
	go c.writeLoop()
	t.Cleanup(func() {
		clientWrite.Close()
		clientRead.Close()
		close(c.queue)
		c.writes.Wait()
	})
	return c
}

// readLoop reads the server's messages; it ends when the server closes
// its side.
func (c *wireClient) readLoop(r *bufio.Reader) {
	defer close(c.msgs)
	for {
		var length int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("the server wrote a body that is not a JSON object: %q", body)
			return
		}
		c.msgs <- m
	}
}

// write sends raw bytes, in order, without waiting: the server may
// answer before it has read them all.
func (c *wireClient) write(b []byte) {
	c.writes.Add(1)
	c.queue <- b
}

func (c *wireClient) writeLoop() {
	for b := range c.queue {
		_, _ = c.w.Write(b)
		c.writes.Done()
	}
}

func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// response waits for the next response (a message with no method).
func (c *wireClient) response() (map[string]json.RawMessage, bool) {
	c.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return nil, false
			}
			if _, isCall := m["method"]; !isCall {
				return m, true
			}
		case <-timeout:
			c.t.Fatal("no response from the server in 60 s")
		}
	}
}

func (c *wireClient) initialize() {
	c.t.Helper()
	c.write([]byte(frame(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)))
	if m, ok := c.response(); !ok || string(m["id"]) != `"init"` {
		c.t.Fatalf("initialize: got %v, want the response to id \"init\"", m)
	}
}

const probe = `{"jsonrpc":"2.0","id":"probe","method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///nowhere.review.json"}}}`

// probed sends a request and checks that it is answered, with a result.
func (c *wireClient) probed() {
	c.t.Helper()
	c.write([]byte(frame(probe)))
	m, ok := c.response()
	if !ok {
		c.t.Fatalf("the server stopped before answering the probe; its log:\n%s", c.log)
	}
	if string(m["id"]) != `"probe"` || string(m["result"]) != "null" || m["error"] != nil {
		c.t.Fatalf("probe: got %s, want a null result for id \"probe\" (the document is not open)", marshal(m))
	}
}

func marshal(m map[string]json.RawMessage) string {
	b, _ := json.Marshal(m)
	return string(b)
}

func deep(levels int) string {
	return strings.Repeat("[", levels) + strings.Repeat("]", levels)
}

// TestAbuseIsAnsweredAndSurvived sends, after the handshake, one broken
// or hostile message: the server must answer it with the error JSON-RPC
// 2.0 names (ids exactly as sent, null when there is none to echo), and
// answer the next request.
func TestAbuseIsAnsweredAndSurvived(t *testing.T) {
	big := strings.Repeat("a", transport.MaxMessageSize)
	tests := []struct {
		name   string
		stream string
		// wantID and wantCode are the id (as JSON text) and error code of
		// the reply; an empty wantID means no reply is expected.
		wantID   string
		wantCode int
	}{
		{"not JSON", frame(`hello`), "null", -32700},
		{"truncated", frame(`{"jsonrpc":"2.0","id":1,`), "null", -32700},
		{"bad bracket", frame(`{"jsonrpc":"2.0","id":1,"method":"x","params":[}`), "null", -32700},
		{"text after the object", frame(`{"jsonrpc":"2.0","id":1,"method":"x"} x`), "null", -32700},
		{"empty body", frame(``), "null", -32700},
		{"bad JSON in params", frame(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a" 1}}`), "null", -32700},
		{"empty object", frame(`{}`), "null", -32600},
		{"only jsonrpc", frame(`{"jsonrpc":"2.0"}`), "null", -32600},
		{"jsonrpc 1.0", frame(`{"jsonrpc":"1.0","id":1,"method":"shutdown"}`), "null", -32600},
		{"jsonrpc missing", frame(`{"id":1,"method":"shutdown"}`), "null", -32600},
		{"jsonrpc a number", frame(`{"jsonrpc":2.0,"id":1,"method":"shutdown"}`), "null", -32600},
		{"method a number", frame(`{"jsonrpc":"2.0","id":1,"method":3}`), "null", -32600},
		{"empty batch", frame(`[]`), "null", -32600},
		{"batch", frame(`[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`), "null", -32600},
		{"a string", frame(`"x"`), "null", -32600},
		{"id a float", frame(`{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}`), "null", -32600},
		{"id an object", frame(`{"jsonrpc":"2.0","id":{},"method":"shutdown"}`), "null", -32600},
		{"id an array", frame(`{"jsonrpc":"2.0","id":[1],"method":"shutdown"}`), "null", -32600},
		{"id a bool", frame(`{"jsonrpc":"2.0","id":true,"method":"shutdown"}`), "null", -32600},
		{"id 2^63", frame(`{"jsonrpc":"2.0","id":9223372036854775808,"method":"shutdown"}`), "null", -32600},
		{"id 1e400", frame(`{"jsonrpc":"2.0","id":1e400,"method":"shutdown"}`), "null", -32600},
		{"response without id", frame(`{"jsonrpc":"2.0","result":null}`), "null", -32600},
		{"id without method or result", frame(`{"jsonrpc":"2.0","id":4}`), "null", -32600},
		{"id empty string", frame(`{"jsonrpc":"2.0","id":"","method":"no/such"}`), `""`, -32601},
		{"id 2^63-1", frame(`{"jsonrpc":"2.0","id":9223372036854775807,"method":"no/such"}`), "9223372036854775807", -32601},
		{"id -2^63", frame(`{"jsonrpc":"2.0","id":-9223372036854775808,"method":"no/such"}`), "-9223372036854775808", -32601},
		{"id 2^32", frame(`{"jsonrpc":"2.0","id":4294967296,"method":"no/such"}`), "4294967296", -32601},
		{"id -0", frame(`{"jsonrpc":"2.0","id":-0,"method":"no/such"}`), "-0", -32601},
		{"id null", frame(`{"jsonrpc":"2.0","id":null,"method":"no/such"}`), "null", -32601},
		{"id escaped", frame(`{"jsonrpc":"2.0","id":"a\u00e9\"b","method":"no/such"}`), `"a\u00e9\"b"`, -32601},
		{"id with HTML characters", frame(`{"jsonrpc":"2.0","id":"a<b&c>","method":"no/such"}`), `"a<b&c>"`, -32601},
		{"id like a stand-in", frame(`{"jsonrpc":"2.0","id":"\u0000lreview-id-1","method":"no/such"}`), `"\u0000lreview-id-1"`, -32601},
		{"id after params", frame(`{"jsonrpc":"2.0","method":"no/such","params":{"id":1},"id":2}`), "2", -32601},
		{"nesting 2,000,000 in params", frame(`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":` + deep(2_000_000) + `}`), "7", -32600},
		{"nesting 2,000,000, id last", frame(`{"jsonrpc":"2.0","method":"x","params":` + deep(2_000_000) + `,"id":"deep"}`), `"deep"`, -32600},
		{"nesting 2,000,000, bare", frame(deep(2_000_000)), "null", -32600},
		{"nesting 1000 is fine", frame(`{"jsonrpc":"2.0","id":8,"method":"no/such","params":` + deep(transport.MaxNesting-1) + `}`), "8", -32601},
		{"over the size limit", frame(`{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":{"x":"` + big + `"}}`), "9", -32600},
		{"header line without colon", "Garbage\r\n" + frame(`{"jsonrpc":"2.0","id":10,"method":"no/such"}`), "10", -32601},
		{"LF-only header", "Content-Length: 44\n\n" + `{"jsonrpc":"2.0","id":11,"method":"no/such"}`, "11", -32601},
		{"lowercase, extra headers", "content-length: 44\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Other: 1\r\n\r\n" + `{"jsonrpc":"2.0","id":12,"method":"no/such"}`, "12", -32601},
		{"Content-Length shorter than the body", "Content-Length: 20\r\n\r\n" + `{"jsonrpc":"2.0","id":13,"method":"no/such"}`, "null", -32700},
		{"a line break between messages", "\r\n" + frame(`{"jsonrpc":"2.0","id":14,"method":"no/such"}`), "14", -32601},
		{"a notification that is not known", frame(`{"jsonrpc":"2.0","method":"no/such"}`), "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newWireClient(t)
			c.initialize()
			c.write([]byte(tt.stream))
			if tt.wantID != "" {
				m, ok := c.response()
				if !ok {
					t.Fatalf("the server stopped; its log:\n%s", c.log)
				}
				var e struct{ Code int }
				_ = json.Unmarshal(m["error"], &e)
				if string(m["id"]) != tt.wantID || e.Code != tt.wantCode {
					t.Fatalf("got %s, want id %s and error code %d", marshal(m), tt.wantID, tt.wantCode)
				}
			}
			c.probed()
		})
	}
}

// TestUnframableStreamEndsWithAReason sends headers that leave no way to
// find the next message: the server must say why on its log, in one line,
// and end the session.
func TestUnframableStreamEndsWithAReason(t *testing.T) {
	tests := []struct {
		name, stream, want string
	}{
		{"no Content-Length", "Content-Type: x\r\n\r\n{}", "no Content-Length"},
		{"garbage length", "Content-Length: abc\r\n\r\n{}", `Content-Length "abc" is not a byte count`},
		{"negative length", "Content-Length: -5\r\n\r\n{}", `Content-Length "-5" is not a byte count`},
		{"length 10^12", "Content-Length: 1000000000000\r\n\r\n{}", "Content-Length 1000000000000 is beyond any message"},
		{"two lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "two Content-Length headers disagree"},
		{"end inside a body", "Content-Length: 100\r\n\r\n{}", "the stream ended inside a 100-byte message body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newWireClient(t)
			c.initialize()
			c.write([]byte(tt.stream))
			c.writes.Wait()
			c.w.Close()
			select {
			case code := <-c.exit:
				if code != 1 {
					t.Errorf("exit code %d, want 1", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not end")
			}
			log := c.log.String()
			if !strings.Contains(log, tt.want) || !strings.HasSuffix(log, "; closing the connection\n") {
				t.Errorf("log %q, want a line with %q ending the session", log, tt.want)
			}
		})
	}
}

// FuzzServeStream feeds arbitrary bytes, framing included, to a server
// after the handshake, then a probe request, then ends the stream. The
// server must not panic, and must either answer the probe or, when the
// bytes left it no way to find the probe, end with a reason on its log.
func FuzzServeStream(f *testing.F) {
	seeds := []string{
		frame(`hello`), frame(`{}`), frame(`[]`), frame(`{"jsonrpc":"2.0","id":"","method":"no/such"}`),
		frame(`{"jsonrpc":"2.0","id":1e400,"method":"x"}`), frame(`{"jsonrpc":"2.0","method":"x","params":` + deep(3000) + `}`),
		"Content-Length: 20\r\n\r\n" + `{"jsonrpc":"2.0","id":13,"method":"no/such"}`,
		"Garbage\r\n" + frame(`{"jsonrpc":"2.0","id":10,"method":"no/such"}`),
		"Content-Length: 44\n\n" + `{"jsonrpc":"2.0","id":11,"method":"no/such"}`,
		"Content-Length: -1\r\n\r\n", "Content-Length: 99999999999\r\n\r\n",
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.review.json","version":1,"text":"{\"leanreview_review\": 1}"}}}`),
		frame(`{"jsonrpc":"2.0","id":2,"method":"$/cancelRequest","params":{"id":""}}`),
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.review.json","version":1,"text":"{"aé\
" "x"}}}`),
		frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.review.json","version":2},"contentChanges":[{"text":"{}"},{"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":1}},"text":""a":1"}]}}`),
		frame(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///a.review.json"}}}`),
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newWireClient(t)
		c.initialize()
		c.write(append(append([]byte(nil), data...), frame(probe)...))
		c.writes.Wait()
		c.w.Close()
		refused := false
		for {
			m, ok := c.response()
			if !ok {
				// The server ended without answering the probe. It may
				// when it could no longer frame the stream (and says why),
				// when the bytes held an exit notification, or when the
				// probe became part of a broken body it answered with an
				// error.
				if log := c.log.String(); !strings.Contains(log, "closing the connection") && !bytes.Contains(data, []byte("exit")) && !refused {
					t.Fatalf("the server stopped without answering the probe nor saying why; log:\n%s", log)
				}
				return
			}
			var e struct{ Code int }
			_ = json.Unmarshal(m["error"], &e)
			refused = refused || e.Code == -32700 || e.Code == -32600
			if string(m["id"]) == `"probe"` {
				return
			}
		}
	})
}

// notification waits for the next notification of method.
func (c *wireClient) notification(method string) map[string]json.RawMessage {
	c.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server stopped before sending %s; its log:\n%s", method, c.log)
			}
			if string(m["method"]) == `"`+method+`"` {
				return m
			}
		case <-timeout:
			c.t.Fatalf("no %s from the server in 60 s", method)
		}
	}
}

// TestOversizedDidOpenIsDiagnosed opens a document over the message size
// limit: the server cannot read it, so it says so on the document, and
// answers requests about it as about a document that is not open.
func TestOversizedDidOpenIsDiagnosed(t *testing.T) {
	c := newWireClient(t)
	c.initialize()
	uri := "file:///tmp/huge.review.json"
	text := strings.Repeat("x", transport.MaxMessageSize)
	c.write([]byte(frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + uri + `","languageId":"lreview","version":1,"text":"` + text + `"}}}`)))
	m := c.notification("textDocument/publishDiagnostics")
	var p struct {
		URI         string
		Diagnostics []struct {
			Code     string
			Severity int
			Message  string
		}
	}
	if err := json.Unmarshal(m["params"], &p); err != nil {
		t.Fatal(err)
	}
	if p.URI != uri || len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "too-large" || p.Diagnostics[0].Severity != 1 ||
		!strings.Contains(p.Diagnostics[0].Message, fmt.Sprintf("over the server's limit of %d bytes", transport.MaxMessageSize)) {
		t.Fatalf("got %s, want one error diagnostic too-large on %s naming the limit", m["params"], uri)
	}
	c.write([]byte(frame(`{"jsonrpc":"2.0","id":"sym","method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"` + uri + `"}}}`)))
	if r, ok := c.response(); !ok || string(r["id"]) != `"sym"` || string(r["result"]) != "null" {
		t.Fatalf("got %s, want a null result", marshal(r))
	}
}

// TestStandInIDOnSuccess: a successful reply to a request whose id got a
// stand-in carries the id byte for byte, `<`, `>` and `&` included.
func TestStandInIDOnSuccess(t *testing.T) {
	for _, id := range []string{`"a<b&c>"`, `""`, `9007199254740993`} {
		t.Run(id, func(t *testing.T) {
			c := newWireClient(t)
			c.initialize()
			c.write([]byte(frame(`{"jsonrpc":"2.0","id":` + id + `,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///not/open.review.json"},"position":{"line":0,"character":0}}}`)))
			m, ok := c.response()
			if !ok || string(m["id"]) != id || string(m["result"]) != "null" || m["error"] != nil {
				t.Fatalf("got %s, want id %s and result null", marshal(m), id)
			}
			c.probed()
		})
	}
}

// TestRawResultsCarryTheIDAsSent: the outline and the semantic tokens of
// an open review, answered past jsonrpc2 as JSON already encoded, carry
// the request's id byte for byte too, stand-in or not.
func TestRawResultsCarryTheIDAsSent(t *testing.T) {
	c := newWireClient(t)
	c.initialize()
	uri := "file:///w/raw.review.json"
	text, _ := json.Marshal(exampleReview)
	c.write([]byte(frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + uri + `","languageId":"lreview","version":1,"text":` + string(text) + `}}}`)))
	c.notification("textDocument/publishDiagnostics")
	for _, id := range []string{`"a<b&c>"`, `""`, `9007199254740993`, `7`, `"plain"`} {
		for _, method := range []string{"textDocument/documentSymbol", "textDocument/semanticTokens/full"} {
			c.write([]byte(frame(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{"textDocument":{"uri":"` + uri + `"}}}`)))
			m, ok := c.response()
			var result any
			if !ok || string(m["id"]) != id || m["error"] != nil || json.Unmarshal(m["result"], &result) != nil || result == nil {
				t.Fatalf("%s with id %s: got %s, want that id and a result", method, id, marshal(m))
			}
		}
	}
	c.probed()
}

// TestCancelIDsThatNeedStandIns cancels requests whose ids jsonrpc2
// cannot hold as sent: the cancellation reaches them, and the reply
// carries the id exactly.
func TestCancelIDsThatNeedStandIns(t *testing.T) {
	for _, id := range []string{`""`, `9007199254740993`, `-0`, `"\u00e9"`, `null`} {
		t.Run(id, func(t *testing.T) {
			c := newWireClient(t)
			c.initialize()
			c.write([]byte(frame(`{"jsonrpc":"2.0","id":` + id + `,"method":"lreview/test/block"}`)))
			c.write([]byte(frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":` + id + `}}`)))
			m, ok := c.response()
			var e struct{ Code int }
			_ = json.Unmarshal(m["error"], &e)
			if !ok || string(m["id"]) != id || e.Code != -32800 {
				t.Fatalf("got %s, want id %s and RequestCancelled (-32800)", marshal(m), id)
			}
			c.probed()
		})
	}
}
