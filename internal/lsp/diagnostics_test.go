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

// TestEncodeReusesOnlyStablePositions publishes diagnostics of random
// texts, then of random edits of them: each publish must be the bytes
// encoded afresh, whatever encodings the publish before left.
func TestEncodeReusesOnlyStablePositions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "é", "😀", "\n", "\r\n", "\r", " ", "{}"}
	randText := func(n int) []byte {
		var b []byte
		for range n {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		return b
	}
	randDiags := func(n int) []exchange.Diagnostic {
		var ds []exchange.Diagnostic
		for k := range 30 {
			a, b := r.IntN(n+1), r.IntN(n+1)
			d := exchange.Diagnostic{Range: exchange.Range{Start: min(a, b), End: max(a, b)}, Code: "c", Message: fmt.Sprint(k % 3)}
			if k%4 == 0 {
				c := r.IntN(n + 1)
				d.Related = []exchange.Related{{Range: exchange.Range{Start: c, End: c}, Message: "r"}}
				d.Fixes = []exchange.Fix{{Title: "f", Edits: []exchange.Edit{{Start: c, End: c, NewText: "x"}}}}
			}
			ds = append(ds, d)
		}
		exchange.SortDiagnostics(ds)
		return ds
	}
	for _, enc := range []exchange.Encoding{exchange.UTF16, exchange.UTF8, exchange.UTF32} {
		var before *encodedDiagnostics
		text := randText(200)
		ds := randDiags(len(text))
		for round := range 200 {
			if round > 0 {
				at := r.IntN(len(text) + 1)
				del := min(r.IntN(4), len(text)-at)
				next := bytes.Join([][]byte{text[:at], randText(r.IntN(3)), text[at+del:]}, nil)
				prevText := text
				text = next
				// The same findings at the same offsets, whose positions
				// the edit may have moved, or moved with the text after
				// the edit, as an analysis moves them; now and then new
				// ones.
				move := func(o int) int { return min(o, len(text)) }
				if round%3 != 0 {
					move = movedByEdit(at, del, len(text)-len(prevText))
				}
				for i := range ds {
					ds[i] = ds[i].Moved(func(rg exchange.Range) exchange.Range {
						return exchange.Range{Start: move(rg.Start), End: move(rg.End)}
					})
				}
				if round%5 == 0 {
					ds = randDiags(len(text))
				}
			}
			conv := Converter{M: exchange.NewMapper(text), Enc: enc}
			cur, parts, err := encodeDiagnostics("file:///r", int32(round+1), conv, ds, before)
			if err != nil {
				t.Fatal(err)
			}
			before = cur
			_, freshParts, _ := encodeDiagnostics("file:///r", int32(round+1), conv, ds, nil)
			got, want := bytes.Join(parts, nil), bytes.Join(freshParts, nil)
			if !bytes.Equal(got, want) || !json.Valid(got) {
				t.Fatalf("%v round %d: got\n%s\nwant\n%s", enc, round, got, want)
			}
		}
	}
}

// movedByEdit moves an offset as an analysis moves a finding when del
// bytes at at were replaced, the text growing by delta: those after the
// edit move with the text, those in it go to its start.
func movedByEdit(at, del, delta int) func(int) int {
	return func(o int) int {
		switch {
		case o >= at+del:
			return o + delta
		case o > at:
			return at
		}
		return o
	}
}

// TestPublishEncodesOnlyWhatMoved types in the first comment of a
// review with findings on most comments: the findings after it move in
// bytes, not in positions, and are sent as encoded before.
func TestPublishEncodesOnlyWhatMoved(t *testing.T) {
	src := string(reviewgen.Generate(reviewgen.Config{Files: 4, DiffLines: 400, Comments: 80, DriftedFraction: 0.5, Seed: 7}))
	bodyAt := strings.Index(src, `"body": "`) + len(`"body": "`)
	c := newTestClient(t, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///w/moved.review.json")
	c.open(uri, src)
	all := len(c.waitDiagnostics(uri, 1))
	m := exchange.NewMapper([]byte(src))
	at := m.Position(bodyAt, exchange.UTF16)
	rng := protocol.Range{Start: protocol.Position{Line: uint32(at.Line), Character: uint32(at.Character)}}
	rng.End = rng.Start
	c.change(uri, 2, &rng, "x")
	c.waitDiagnostics(uri, 2)
	c.srv.mu.Lock()
	cache := c.srv.files[uri].latest.cache
	c.srv.mu.Unlock()
	cache.mu.Lock()
	encoded := cache.diags.encoded
	cache.mu.Unlock()
	if all < 20 || encoded > 3 {
		t.Fatalf("a keystroke in the first comment encoded %d of %d diagnostics; want at most those on its line", encoded, all)
	}
}
