package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// TestPublishReusesOnlyWhatIsUnchanged edits a review the ways that move
// or change its diagnostics (a keystroke in a body, a line inserted above
// them, a re-anchored comment, a syntax error and its repair) and checks
// after each that what the client got equals the diagnostics of the same
// text opened fresh: a reused encoding must never be a stale one.
func TestPublishReusesOnlyWhatIsUnchanged(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 4, DiffLines: 400, Comments: 30, Seed: 7}))
	bodyAt := strings.LastIndex(src, `"body": "`) + len(`"body": "`)
	commentsAt := strings.Index(src, `"comments"`)
	lineAt := strings.Index(src, `"start_line": `) + len(`"start_line": `)
	edits := []struct {
		name string
		at   int // byte offset in the text before the edit
		del  int
		text string
	}{
		{"keystroke in a body", bodyAt, 0, "x"},
		{"line above every comment", commentsAt, 0, "\n  "},
		{"re-anchored comment", lineAt + 2, 1, "9"},
		{"syntax error", bodyAt, 0, `"`},
		{"repair", bodyAt + 2, 1, ""},
	}
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/reuse.review.json")
	c.open(uri, src)
	c.waitDiagnostics(uri, 1)
	text := src
	for i, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			version := int32(i + 2)
			m := exchange.NewMapper([]byte(text))
			conv := Converter{M: m, Enc: exchange.UTF16}
			rng := protocol.Range{Start: conv.Position(e.at), End: conv.Position(e.at + e.del)}
			c.change(uri, version, &rng, e.text)
			text = text[:e.at] + e.text + text[e.at+e.del:]
			got := c.waitDiagnostics(uri, version)

			fresh := newTestClient(t, Options{})
			fresh.initialize()
			fresh.open(uri, text)
			want := fresh.waitDiagnostics(uri, 1)
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(want)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Fatalf("after the edit, got diagnostics\n%s\nwant those of the text opened fresh\n%s", gotJSON, wantJSON)
			}
		})
	}
}

// TestPublishIsNotHTMLEscaped reads the publishDiagnostics notification
// as the bytes on the wire: code in messages (`a < b && c > d`) is sent as
// is, not as \u003c escapes a client must undo.
func TestPublishIsNotHTMLEscaped(t *testing.T) {
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	srv := NewServer(Options{Debounce: time.Millisecond})
	done := make(chan int, 1)
	go func() { done <- srv.Serve(context.Background(), pipeRWC{serverRead, serverWrite}) }()
	t.Cleanup(func() {
		clientWrite.Close()
		serverWrite.Close()
		<-done
	})
	send := func(msg string) {
		if _, err := fmt.Fprintf(clientWrite, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
			t.Fatal(err)
		}
	}
	in := bufio.NewReader(clientRead)
	read := func() []byte {
		h, err := textproto.NewReader(in).ReadMIMEHeader()
		if err != nil {
			t.Fatalf("reading a frame header: %v", err)
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			t.Fatalf("bad Content-Length %q", h.Get("Content-Length"))
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(in, body); err != nil {
			t.Fatal(err)
		}
		return body
	}
	review := `{"leanreview_review": 1, "patch": ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -1 +1 @@", "-x", "+if a < b && c > d {"], ` +
		`"comments": [{"id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 1, "body": "b", "snippet": "if a < b && c > e {"}]}`
	params, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///w/a.review.json", "languageId": "lreview", "version": 3, "text": review}})
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"textDocument":{"publishDiagnostics":{"relatedInformation":true}}}}}`)
	read() // the pipe holds one message at a time: take the reply first
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(params) + `}`)
	for {
		body := read()
		if !bytes.Contains(body, []byte(`"textDocument/publishDiagnostics"`)) {
			continue
		}
		var msg struct {
			Params protocol.PublishDiagnosticsParams `json:"params"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			t.Fatalf("publishDiagnostics is not JSON: %v\n%s", err, body)
		}
		if msg.Params.Version != 3 || len(msg.Params.Diagnostics) == 0 {
			t.Fatalf("got version %d with %d diagnostics, want version 3 with the snippet's", msg.Params.Version, len(msg.Params.Diagnostics))
		}
		if bytes.Contains(body, []byte(`\u003c`)) || bytes.Contains(body, []byte(`\u0026`)) || !bytes.Contains(body, []byte("RIGHT 1 is: if a < b && c > d {")) {
			t.Fatalf("got an HTML-escaped publish, want the code as written:\n%s", body)
		}
		return
	}
}

// TestEncodeDiagnosticsAsProtocol: the publish written in one pass is,
// byte for byte, the protocol form of the same diagnostics encoded as the
// transport encodes replies, on random texts (emoji, CRLF, lone CRs) in
// each position encoding, with strings JSON escapes (quotes, controls,
// U+2028, invalid UTF-8, < > &), and on every diagnostic of the 8 MB
// review.
func TestEncodeDiagnosticsAsProtocol(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "é", "😀", "\n", "\r\n", "\r", " ", "{}"}
	randText := func(n int) []byte {
		var b []byte
		for range n {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		return b
	}
	words := []string{"", "plain", `say "hi"\`, "tab\tbell\x07", "a < b && c > d", "line\u2028sep", "bad\xffutf8", "😀é"}
	word := func() string { return words[r.IntN(len(words))] }
	randDiags := func(n int) []exchange.Diagnostic {
		off := func() int { return r.IntN(n + 1) }
		var ds []exchange.Diagnostic
		for range 40 {
			a, b := off(), off()
			d := exchange.Diagnostic{Range: exchange.Range{Start: min(a, b), End: max(a, b)}, Severity: exchange.Severity(r.IntN(5)),
				Code: word(), Message: word(), Unnecessary: r.IntN(3) == 0}
			for range r.IntN(3) {
				rel := exchange.Related{Range: exchange.Range{Start: off(), End: n}, Message: word()}
				if r.IntN(2) == 0 {
					rel.File, rel.FileStart, rel.FileEnd = "dir/"+word()+".go", 1+r.IntN(9), 10+r.IntN(9)
				}
				d.Related = append(d.Related, rel)
			}
			if r.IntN(3) == 0 {
				d.Reason = word()
			}
			for range r.IntN(3) {
				f := exchange.Fix{Title: word(), Preferred: r.IntN(2) == 0, Safe: r.IntN(2) == 0}
				for range r.IntN(3) {
					at := off()
					f.Edits = append(f.Edits, exchange.Edit{Start: at, End: at, NewText: word()})
				}
				d.Fixes = append(d.Fixes, f)
			}
			ds = append(ds, d)
		}
		exchange.SortDiagnostics(ds)
		return ds
	}
	check := func(name string, text []byte, enc exchange.Encoding, version int32, ds []exchange.Diagnostic) {
		t.Helper()
		uri := protocol.DocumentURI("file:///w/a%20b.review.json")
		conv := Converter{M: exchange.NewMapper(text), Enc: enc}
		got := written(t, encodeDiagnostics(uri, version, conv, ds))
		want, err := encodePublish(&protocol.PublishDiagnosticsParams{URI: uri, Version: uint32(version), Diagnostics: conv.Diagnostics(uri, ds)})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || !json.Valid(got) {
			t.Fatalf("%s: got\n%s\nwant\n%s", name, got, want)
		}
	}
	for _, enc := range []exchange.Encoding{exchange.UTF16, exchange.UTF8, exchange.UTF32} {
		for round := range 100 {
			text := randText(r.IntN(200))
			check(fmt.Sprintf("%v round %d", enc, round), text, enc, int32(round), randDiags(len(text)))
		}
	}
	if testing.Short() {
		return
	}
	src := generatedReview()
	an := anchor.CheckDocument(exchange.Parse(src), nil)
	if len(an.Diagnostics) < 500 {
		t.Fatalf("the 8 MB review has %d diagnostics, want hundreds", len(an.Diagnostics))
	}
	check("the 8 MB review", src, exchange.UTF16, 7, an.Diagnostics)
}

// written returns what body writes, and checks that it writes the same
// bytes each time it is called, as Transport.WriteStream needs.
func written(t *testing.T, body func(emit func([]byte) error) error) []byte {
	t.Helper()
	var runs [2][]byte
	for i := range runs {
		if err := body(func(p []byte) error { runs[i] = append(runs[i], p...); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(runs[0], runs[1]) {
		t.Fatalf("a body wrote %d bytes, then %d others", len(runs[0]), len(runs[1]))
	}
	return runs[0]
}
