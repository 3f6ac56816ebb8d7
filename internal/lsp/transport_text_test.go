package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// textSession sends msg to a fresh server, after the handshake unless
// early, and after shutdown when down, then a request, and returns what
// the server sent until that request's reply (publishDiagnostics left
// out: they come whenever an analysis ends).
func textSession(t *testing.T, early, down bool, msg string) []string {
	t.Helper()
	c := newWireClient(t)
	handshake := frame(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	if !early {
		c.write([]byte(handshake))
	}
	if down {
		c.write([]byte(frame(`{"jsonrpc":"2.0","id":"down","method":"shutdown"}`)))
	}
	c.write([]byte(frame(msg)))
	if early {
		c.write([]byte(handshake))
	}
	c.write([]byte(frame(`{"jsonrpc":"2.0","id":"last","method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///t.review.json"}}}`)))
	var got []string
	timeout := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				t.Fatalf("the server stopped; its log:\n%s\ngot so far: %q", c.log, got)
			}
			if string(m["method"]) == `"textDocument/publishDiagnostics"` || string(m["id"]) == `"init"` {
				continue
			}
			got = append(got, marshal(m))
			if string(m["id"]) == `"last"` {
				return got
			}
		case <-timeout:
			t.Fatalf("no reply in 60 s; got %q", got)
		}
	}
}

// TestTextNotificationsWhateverTheirMembers: a text notification, good or
// bad, has the same effect, replies and log lines with a member more that
// the server ignores, before initialize and after shutdown too (the
// transport once sent the two by different ways).
func TestTextNotificationsWhateverTheirMembers(t *testing.T) {
	const uri = `"file:///t.review.json"`
	open := func(td string) string {
		return `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":` + td + `}}`
	}
	text, _ := json.Marshal(exampleReview)
	tests := []struct {
		name, msg   string
		early, down bool
	}{
		{"open", open(`{"uri":` + uri + `,"languageId":"lreview","version":1,"text":` + string(text) + `}`), false, false},
		{"open with escapes", open(`{"uri":` + uri + `,"version":1,"text":"{\"a\u00e9\ud83d\ude00\":\n\t1}"}`), false, false},
		{"open before initialize", open(`{"uri":` + uri + `,"version":1,"text":"{}"}`), true, false},
		{"open after shutdown", open(`{"uri":` + uri + `,"version":1,"text":"{}"}`), false, true},
		{"version a string", open(`{"uri":` + uri + `,"version":"1","text":"{\n}"}`), false, false},
		{"text a number", open(`{"uri":` + uri + `,"version":1,"text":1}`), false, false},
		{"params an array", `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":[]}`, false, false},
		{"params null", `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":null}`, false, false},
		{"params nest 100 deep", open(`{"uri":` + uri + `,"x":` + deep(100) + `}`), false, false},
		{"not JSON after the text", open(`{"uri":` + uri + `,"text":"a\nb\"c" "version":1}`), false, false},
		{"not JSON before initialize", open(`{"uri":` + uri + `,"text":"a\nb\"c" "version":1}`), true, false},
		{"bad escape in the text", open(`{"uri":` + uri + `,"version":1,"text":"a\nb\qc"}`), false, false},
		{"control character in the text", open(`{"uri":` + uri + `,"version":1,"text":"a\n` + "\x01" + `"}`), false, false},
		{"change a document not open", `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"text":"x"}]}}`, false, false},
		{"change after shutdown", `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"text":"x"}]}}`, false, true},
		{"change with a bad range", `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"range":{"start":1},"text":"x"}]}}`, false, false},
		{"change not JSON", `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":` + uri + `,"version":2},"contentChanges":[{"text":"x\n" "range":null}]}}`, false, false},
		{"close", `{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":` + uri + `}}}`, false, false},
		{"close of the wrong shape", `{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":3}}`, false, false},
		{"close not JSON", `{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":}}}`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withMore := strings.TrimSuffix(tt.msg, "}") + `,"x":0}`
			want := textSession(t, tt.early, tt.down, withMore)
			got := textSession(t, tt.early, tt.down, tt.msg)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("the server sent\n%s\nand with a member it ignores\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestTextNotificationsKeepTheirPlace: requests between text
// notifications see the document as the notifications before them left
// it.
func TestTextNotificationsKeepTheirPlace(t *testing.T) {
	c := newWireClient(t)
	c.initialize()
	text, _ := json.Marshal(exampleReview)
	const td = `"textDocument":{"uri":"file:///order.review.json"}`
	symbols := func(id string) string {
		return frame(`{"jsonrpc":"2.0","id":"` + id + `","method":"textDocument/documentSymbol","params":{` + td + `}}`)
	}
	c.write([]byte(frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///order.review.json","version":1,"text":`+string(text)+`}}}`) +
		symbols("1") +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///order.review.json","version":2},"contentChanges":[{"text":"{}"}]}}`) +
		symbols("2") +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{`+td+`}}`) +
		symbols("3")))
	results := map[string]string{}
	for len(results) < 3 {
		m, ok := c.response()
		if !ok {
			t.Fatalf("the server stopped; its log:\n%s", c.log)
		}
		results[string(m["id"])] = string(m["result"]) + string(m["error"])
	}
	// Request 1 came after the open: it finds the document. Answered
	// once version 2 came, it is answered from that one (a request whose
	// version a newer one superseded is answered from the newest: "[]"),
	// or refused with ContentModified naming the version it was about,
	// its own or the newest, which the close then superseded.
	if r := results[`"1"`]; len(r) < 100 && r != "[]" && !strings.Contains(r, "version 1 is no longer the latest") && !strings.Contains(r, "version 2 is no longer the latest") {
		t.Errorf("symbols after didOpen: got %s, want the example's", r)
	}
	if r := results[`"2"`]; r != "[]" && !strings.Contains(r, "version 2 is no longer the latest") {
		t.Errorf("symbols after didChange to {}: got %s, want []", r)
	}
	if r := results[`"3"`]; r != "null" {
		t.Errorf("symbols after didClose: got %s, want null", r)
	}
}

// TestTextNotificationPanicIsLogged: a panic in a text notification's
// handler is logged, and the session goes on.
func TestTextNotificationPanicIsLogged(t *testing.T) {
	c := newWireClientWith(t, Options{testNotifications: map[string]notificationFunc{
		"textDocument/didClose": func(context.Context, *Server, json.RawMessage) error { panic("boom") },
	}})
	c.initialize()
	c.write([]byte(frame(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///p.review.json"}}}`)))
	m := c.notification("window/logMessage")
	var p struct{ Message string }
	_ = json.Unmarshal(m["params"], &p)
	if !strings.HasPrefix(p.Message, "panic in textDocument/didClose: boom") {
		t.Errorf("got log message %.80q, want the panic", p.Message)
	}
	c.probed()
}
