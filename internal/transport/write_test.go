package transport

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// bufferRWC is a connection whose writes land in a buffer.
type bufferRWC struct {
	bytes.Buffer
}

func (*bufferRWC) Read([]byte) (int, error) { return 0, io.EOF }
func (*bufferRWC) Close() error             { return nil }

// TestWriteStream writes a body emitted in parts from one reused buffer,
// as a review's publish is: the message is framed with the body's whole
// length and reads back whole; a body that emits other bytes the second
// time fails and sends nothing (it fit the buffer), and the next message
// reads as the next.
func TestWriteStream(t *testing.T) {
	var wire bufferRWC
	tr := New(&wire, nil, nil)
	want := `{"jsonrpc":"2.0","method":"m","params":["` + strings.Repeat("x", 100000) + `"]}`
	body := func(emit func([]byte) error) error {
		buf := make([]byte, 0, 1000)
		for rest := want; rest != ""; {
			n := min(len(rest), 999)
			if err := emit(append(buf[:0], rest[:n]...)); err != nil {
				return err
			}
			rest = rest[n:]
		}
		return nil
	}
	if err := tr.WriteStream(body); err != nil {
		t.Fatal(err)
	}
	calls := 0
	shifting := func(emit func([]byte) error) error {
		calls++
		return emit([]byte(strings.Repeat("y", calls)))
	}
	if err := tr.WriteStream(shifting); err == nil {
		t.Fatal("a body that wrote 2 bytes, measured at 1: no error")
	}
	if err := tr.WriteParts([]byte(`{"jsonrpc":"2.0","method":"n"}`)); err != nil {
		t.Fatal(err)
	}
	reader := New(pipeRWC{Reader: &wire.Buffer, WriteCloser: nopCloser{io.Discard}}, nil, nil)
	msg, err := reader.read(context.Background())
	if err != nil || msg.Method != "m" || len(msg.Params) != len(want)-len(`{"jsonrpc":"2.0","method":"m","params":}`) {
		t.Fatalf("got %q with %d bytes of params, %v; want m with the whole body", msg.Method, len(msg.Params), err)
	}
	if msg, err := reader.read(context.Background()); err != nil || msg.Method != "n" {
		t.Fatalf("after the failed write, got %+v, %v; want n", msg, err)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
