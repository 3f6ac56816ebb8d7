package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// The benchmarks here set the transport beside go.lsp.dev/jsonrpc2's own
// stream, doing the same work: the figures ARCHITECTURE.md ("The
// transport") gives for the choice.

type readOnly struct{ io.Reader }

func (readOnly) Write(p []byte) (int, error) { return len(p), nil }
func (readOnly) Close() error                { return nil }

// BenchmarkReadDidOpen reads the didOpen of the 8 MB generated review,
// then decodes its params to the document's text: through jsonrpc2's
// stream (which decodes the message and copies the params out of it), and
// through the transport (which validates the message in one walk and
// hands the params over as a slice of it, decoded in place).
func BenchmarkReadDidOpen(b *testing.B) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/open.review.json", "languageId": "lreview", "version": 1, "text": string(generatedReview())}}})
	if err != nil {
		b.Fatal(err)
	}
	framed := []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	b.Run("jsonrpc2", func(b *testing.B) {
		b.SetBytes(int64(len(framed)))
		for b.Loop() {
			msg, _, err := jsonrpc2.NewStream(readOnly{bytes.NewReader(framed)}).Read(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if p, err := DecodeOpenParams(msg.(*jsonrpc2.Notification).Params()); err != nil || len(p.TextDocument.Text) == 0 {
				b.Fatalf("no text (%v)", err)
			}
		}
	})
	b.Run("ours", func(b *testing.B) {
		b.SetBytes(int64(len(framed)))
		for b.Loop() {
			msg, err := New(readOnly{bytes.NewReader(framed)}, nil, nil).read(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if p, err := DecodeOpenParams(msg.Params); err != nil || len(p.TextDocument.Text) == 0 {
				b.Fatalf("no text (%v)", err)
			}
		}
	})
}

// BenchmarkReplyRawResult answers a request with a result already in
// JSON, 2,000,000 semantic-token integers (6 MB, about the full tokens
// of the generated review): jsonrpc2 marshals the response, which checks
// and copies the raw result; the transport writes it as it is.
func BenchmarkReplyRawResult(b *testing.B) {
	raw := []byte(`{"resultId":"1","data":[`)
	for i := range 2_000_000 {
		if i > 0 {
			raw = append(raw, ',')
		}
		raw = strconv.AppendInt(raw, int64(i%97), 10)
	}
	raw = append(raw, "]}"...)
	b.Run("jsonrpc2", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		st := jsonrpc2.NewStream(readOnly{bytes.NewReader(nil)})
		for b.Loop() {
			resp, err := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(7), json.RawMessage(raw), nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.Write(context.Background(), resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ours", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		c := NewConn(New(readOnly{bytes.NewReader(nil)}, nil, nil), nil)
		msg := &Message{Method: "textDocument/semanticTokens/full", HasID: true, id: []byte("7"), Key: "n7"}
		for b.Loop() {
			if err := c.Reply(msg, json.RawMessage(raw), nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkReadDeepNesting reads a request whose params nest 1,000,000
// arrays (2 MB): jsonrpc2 decodes it recursively (at 2,000,000 its stack
// overflows); the transport refuses it after one walk.
func BenchmarkReadDeepNesting(b *testing.B) {
	body := `{"jsonrpc":"2.0","id":1,"method":"x","params":` + deep(1_000_000) + `}`
	framed := []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	b.Run("jsonrpc2", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = jsonrpc2.NewStream(readOnly{bytes.NewReader(framed)}).Read(context.Background())
		}
		reportPeakRSS(b)
	})
	b.Run("ours", func(b *testing.B) {
		for b.Loop() {
			if _, err := New(readOnly{bytes.NewReader(framed)}, nil, nil).read(context.Background()); err != io.EOF {
				b.Fatalf("got %v, want the message refused and the end of the stream", err)
			}
		}
		reportPeakRSS(b)
	})
}
