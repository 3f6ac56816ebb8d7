package lsp

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"sync"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// rawWriter sends a message that is already encoded. publishDiagnostics
// uses it: jsonrpc2 re-encodes a notification's params twice more, with
// HTML escaping, which on a large review costs more than building them.
type rawWriter interface {
	WriteRaw(body []byte) error
}

// frameStream is jsonrpc2's header-framed stream with two shortcuts on the
// way out: a notification or a successful response is framed around the
// params or result jsonrpc2 already encoded (its own Write encodes them
// again, and its envelope once more), and WriteRaw sends a message this
// package encoded itself. One mutex orders all writes.
type frameStream struct {
	jsonrpc2.Stream
	w  io.Writer
	mu sync.Mutex
	// buf is reused between messages: a large reply would otherwise
	// allocate its size again for every frame.
	buf []byte
}

func newFrameStream(rwc io.ReadWriteCloser) *frameStream {
	return &frameStream{Stream: jsonrpc2.NewStream(rwc), w: rwc}
}

// Write implements jsonrpc2.Stream.
func (s *frameStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var body []byte
	switch m := msg.(type) {
	case *jsonrpc2.Notification:
		body = append(s.take(len(m.Params())+64), `{"jsonrpc":"2.0","method":`...)
		body = strconv.AppendQuote(body, m.Method())
		body = appendMember(body, "params", m.Params())
	case *jsonrpc2.Response:
		if m.Err() != nil {
			break
		}
		id := m.ID()
		idText, err := fastjson.Marshal(&id)
		if err != nil {
			break
		}
		body = append(s.take(len(m.Result())+64), `{"jsonrpc":"2.0","id":`...)
		body = append(body, idText...)
		result := m.Result()
		if len(result) == 0 {
			result = []byte("null")
		}
		body = append(append(append(body, `,"result":`...), result...), '}')
	}
	if body == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.Stream.Write(ctx, msg)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.writeFrame(body)
	if cap(body) <= 16<<20 && cap(body) > cap(s.buf) {
		s.buf = body
	}
	return int64(len(body)), err
}

// appendMember closes an envelope with its params member, if any.
func appendMember(b []byte, name string, raw []byte) []byte {
	if len(raw) > 0 {
		b = append(append(append(b, `,"`...), name...), `":`...)
		b = append(b, raw...)
	}
	return append(b, '}')
}

// take returns the reusable buffer, emptied, with room for n bytes. It is
// handed out again only once the write that used it is done (see Write).
func (s *frameStream) take(n int) []byte {
	s.mu.Lock()
	b := s.buf
	s.buf = nil
	s.mu.Unlock()
	if cap(b) < n {
		return make([]byte, 0, n)
	}
	return b[:0]
}

// WriteRaw sends one framed message whose body is complete JSON.
func (s *frameStream) WriteRaw(body []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeFrame(body)
}

// writeFrame writes body with its header; s.mu must be held.
func (s *frameStream) writeFrame(body []byte) error {
	if _, err := fmt.Fprintf(s.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return fmt.Errorf("write data to conn: %w", err)
	}
	if _, err := s.w.Write(body); err != nil {
		return fmt.Errorf("write data to conn: %w", err)
	}
	return nil
}
