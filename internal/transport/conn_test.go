package transport

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestConnCalls: the server's requests are numbered from 1, matched to
// their responses by id, an error response is the error, and a request
// still waiting when the stream ends fails instead of waiting for ever.
func TestConnCalls(t *testing.T) {
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	c := NewConn(New(pipeRWC{serverRead, serverWrite}, nil, nil), nil)
	go c.Run(context.Background(), func(context.Context, *Message) {})
	type answer struct {
		res struct{ Applied bool }
		err error
	}
	answers := make(chan answer, 3)
	call := func() {
		var a answer
		_, a.err = c.Call(context.Background(), "workspace/applyEdit", map[string]any{"edit": map[string]any{}}, &a.res)
		answers <- a
	}
	client := New(pipeRWC{clientRead, clientWrite}, nil, nil)
	go call()
	req, err := client.read(context.Background())
	if err != nil || req.Method != "workspace/applyEdit" || string(req.id) != "1" || string(req.Params) != `{"edit":{}}` {
		t.Fatalf("got %+v, %v; want request 1 of workspace/applyEdit with its params", req, err)
	}
	go call()
	req2, err := client.read(context.Background())
	if err != nil || string(req2.id) != "2" {
		t.Fatalf("got %+v, %v; want request 2", req2, err)
	}
	// Answered in the other order, each by its id.
	_ = client.WriteParts([]byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32803,"message":"no"}}`))
	_ = client.WriteParts([]byte(`{"jsonrpc":"2.0","result":{"applied":true},"id":1}`))
	var rpcErr *jsonrpc2.Error
	for range 2 {
		a := <-answers
		switch {
		case a.err == nil && a.res.Applied:
		case errors.As(a.err, &rpcErr) && rpcErr.Code == -32803 && rpcErr.Message == "no":
		default:
			t.Errorf("got %+v, %v; want applied, or the error -32803 no", a.res, a.err)
		}
	}
	go call()
	if _, err := client.read(context.Background()); err != nil {
		t.Fatal(err)
	}
	clientWrite.Close()
	if a := <-answers; !errors.Is(a.err, errConnClosed) {
		t.Errorf("the stream ended: got %v, want %v", a.err, errConnClosed)
	}
	if _, err := bufio.NewReader(clientRead).ReadByte(); err == nil || !strings.Contains(err.Error(), "closed") && err != io.EOF {
		t.Errorf("after the stream ended, the server's side: got %v, want it closed", err)
	}
}

// TestConnCallWithoutParams: a request LSP declares without params
// (workspace/codeLens/refresh) goes without a params member, not with a
// null one, which JSON-RPC does not allow.
func TestConnCallWithoutParams(t *testing.T) {
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	defer clientWrite.Close()
	c := NewConn(New(pipeRWC{serverRead, serverWrite}, nil, nil), nil)
	go c.Run(context.Background(), func(context.Context, *Message) {})
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "workspace/codeLens/refresh", nil, nil)
		done <- err
	}()
	in := bufio.NewReader(clientRead)
	var length int
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\r\n" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(in, body); err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","method":"workspace/codeLens/refresh","id":1}`; string(body) != want {
		t.Errorf("got %s, want %s", body, want)
	}
	client := New(pipeRWC{strings.NewReader(""), clientWrite}, nil, nil)
	_ = client.WriteParts([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`))
	if err := <-done; err != nil {
		t.Errorf("the call's answer: %v", err)
	}
}
