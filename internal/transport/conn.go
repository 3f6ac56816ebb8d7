package transport

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// Conn is the session's connection: the read loop that hands each
// message to the server in order, the replies, and the requests and
// notifications the server sends. Every message is written as its parts,
// the envelope around a result or params encoded once: a result already
// in JSON (the outline, the semantic tokens, the diagnostics) is never
// encoded, checked or copied again.
type Conn struct {
	t     *Transport
	drain func() // see NewConn

	seq     atomic.Int64
	mu      sync.Mutex
	pending map[string]chan *Message // the server's requests, by idKey
	done    chan struct{}
}

var errConnClosed = errors.New("the connection is closed")

// NewConn returns the connection over t. Drain, when not nil, waits for
// the requests being handled: Run calls it when the stream ends, before
// it closes the connection, so that a client that pipes its requests in
// and closes its end is answered.
func NewConn(t *Transport, drain func()) *Conn {
	return &Conn{t: t, drain: drain, pending: map[string]chan *Message{}, done: make(chan struct{})}
}

// Run reads messages until the stream ends: requests and notifications
// go to handle, one after the other; responses to the server's requests
// to their callers.
func (c *Conn) Run(ctx context.Context, handle func(context.Context, *Message)) {
	defer close(c.done)
	for {
		msg, err := c.t.read(ctx)
		if err != nil {
			if c.drain != nil {
				c.drain()
			}
			_ = c.t.Close()
			return
		}
		if msg.Method != "" {
			handle(ctx, msg)
			continue
		}
		c.mu.Lock()
		ch := c.pending[msg.Key]
		delete(c.pending, msg.Key)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg // buffered: the caller may have gone
		}
	}
}

// Done is closed when the read loop ends.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Close closes the stream under the connection.
func (c *Conn) Close() error { return c.t.Close() }

// Reply answers msg, when it is a request, with result or err; a result
// that is a json.RawMessage is sent as it is.
func (c *Conn) Reply(msg *Message, result any, err error) error {
	if !msg.HasID {
		return nil
	}
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		return c.t.WriteParts(responseHead(msg.id), errorMember(int64(rpcErr.Code), rpcErr.Message))
	}
	raw, err := encoded(result)
	if err != nil {
		return err
	}
	return c.t.WriteParts(responseHead(msg.id), []byte(`,"result":`), raw, []byte{'}'})
}

// encoded is v in JSON: as it is when it is already, null when absent.
func encoded(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok && len(raw) > 0 {
		return raw, nil
	}
	return fastjson.Marshal(v)
}

// responseHead opens a response to id, copied byte for byte (null when
// nil): the client matches replies by the id exactly as it sent it.
func responseHead(id []byte) []byte {
	if id == nil {
		id = []byte("null")
	}
	return append(append(make([]byte, 0, len(id)+24), `{"jsonrpc":"2.0","id":`...), id...)
}

// errorMember is the rest of an error response, the one way the server
// writes one (no error it sends carries data).
func errorMember(code int64, message string) []byte {
	b := strconv.AppendInt(append([]byte(nil), `,"error":{"code":`...), code, 10)
	b = jsontext.AppendQuote(append(b, `,"message":`...), message)
	return append(b, "}}"...)
}

// Notify sends a notification.
func (c *Conn) Notify(_ context.Context, method string, params any) error {
	raw, err := encoded(params)
	if err != nil {
		return err
	}
	head := jsontext.AppendQuote([]byte(`{"jsonrpc":"2.0","method":`), method)
	return c.t.WriteParts(head, []byte(`,"params":`), raw, []byte{'}'})
}

// Call sends a request and waits for its response, whose result it
// decodes into result (unless nil). It returns the request's id. A nil
// params sends none: the requests LSP declares without params
// (workspace/codeLens/refresh) have no params member, not a null one,
// which JSON-RPC does not allow.
func (c *Conn) Call(ctx context.Context, method string, params, result any) (int64, error) {
	id := c.seq.Add(1)
	parts := [][]byte{jsontext.AppendQuote([]byte(`{"jsonrpc":"2.0","method":`), method)}
	if params != nil {
		raw, err := encoded(params)
		if err != nil {
			return id, err
		}
		parts = append(parts, []byte(`,"params":`), raw)
	}
	idText := strconv.AppendInt(nil, id, 10)
	key, _ := IDKey(idText) // the key the response's id is read into
	ch := make(chan *Message, 1)
	c.mu.Lock()
	c.pending[key] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}()
	parts = append(parts, append(append([]byte(`,"id":`), idText...), '}'))
	if err := c.t.WriteParts(parts...); err != nil {
		return id, err
	}
	select {
	case resp := <-ch:
		if resp.err != nil && string(resp.err) != "null" {
			rpcErr := &jsonrpc2.Error{}
			if err := fastjson.Unmarshal(resp.err, rpcErr); err != nil {
				return id, err
			}
			return id, rpcErr
		}
		if result == nil || resp.result == nil {
			return id, nil
		}
		return id, fastjson.Unmarshal(resp.result, result)
	case <-ctx.Done():
		return id, ctx.Err()
	case <-c.done:
		return id, errConnClosed
	}
}
