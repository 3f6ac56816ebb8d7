package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

type readOnly struct{ io.Reader }

func (readOnly) Write(p []byte) (int, error) { return len(p), nil }
func (readOnly) Close() error                { return nil }

// BenchmarkReadDidOpen reads the didOpen of the 8 MB generated review
// through jsonrpc2's own stream (the baseline) and through the transport,
// which adds its envelope scan: the difference is what the checks cost.
// Then to the document's text: the general way (jsonrpc2's decode, then
// the params' own) and the way the server takes, handing the params over
// in place.
func BenchmarkReadDidOpen(b *testing.B) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/open.review.json", "languageId": "lreview", "version": 1, "text": string(generatedReview())}}})
	if err != nil {
		b.Fatal(err)
	}
	framed := []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	streams := []struct {
		name string
		new  func(io.ReadWriteCloser) jsonrpc2.Stream
	}{
		{"jsonrpc2", jsonrpc2.NewStream},
		{"transport", func(rwc io.ReadWriteCloser) jsonrpc2.Stream { return newTransport(rwc, nil, nil) }},
	}
	for _, s := range streams {
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(framed)))
			for b.Loop() {
				st := s.new(readOnly{bytes.NewReader(framed)})
				msg, _, err := st.Read(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := msg.(*jsonrpc2.Notification); !ok {
					b.Fatalf("got %T, want a notification", msg)
				}
			}
		})
	}
	b.Run("transport+params", func(b *testing.B) {
		b.SetBytes(int64(len(framed)))
		for b.Loop() {
			msg, _, err := newTransport(readOnly{bytes.NewReader(framed)}, nil, nil).Read(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if p, err := decodeOpenParams(msg.(*jsonrpc2.Notification).Params()); err != nil || len(p.TextDocument.Text) == 0 {
				b.Fatalf("no text (%v)", err)
			}
		}
	})
	b.Run("transport+params-in-place", func(b *testing.B) {
		b.SetBytes(int64(len(framed)))
		for b.Loop() {
			t := newTransport(readOnly{bytes.NewReader(framed)}, nil, nil)
			var text []byte
			t.text = func(_ context.Context, _ string, params []byte) {
				p, err := decodeOpenParams(params)
				if err != nil {
					b.Fatal(err)
				}
				text = p.TextDocument.Text
			}
			if _, _, err := t.Read(context.Background()); err != io.EOF || len(text) == 0 {
				b.Fatalf("got %v and %d bytes of text, want the text then the end of the stream", err, len(text))
			}
		}
	})
}

// BenchmarkReadDeepNesting reads a request whose params nest 1,000,000
// arrays (2 MB): jsonrpc2 decodes it recursively (at 2,000,000 its stack
// overflows); the transport refuses it after one scan.
func BenchmarkReadDeepNesting(b *testing.B) {
	body := `{"jsonrpc":"2.0","id":1,"method":"x","params":` + deep(1_000_000) + `}`
	framed := []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	b.Run("jsonrpc2", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = jsonrpc2.NewStream(readOnly{bytes.NewReader(framed)}).Read(context.Background())
		}
		reportPeakRSS(b)
	})
	b.Run("transport", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = newTransport(readOnly{bytes.NewReader(framed)}, nil, nil).Read(context.Background())
		}
		reportPeakRSS(b)
	})
}

func BenchmarkEnvelopeScan(b *testing.B) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/open.review.json", "languageId": "lreview", "version": 1, "text": string(generatedReview())}}})
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		sc := newEnvelopeScanner(MaxNesting)
		sc.feed(body)
		sc.finish()
	}
}
