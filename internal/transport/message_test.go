package transport

import (
	"strings"
	"testing"
	"unsafe"
)

// TestParseMessage: one walk validates a body and keeps the members
// JSON-RPC names, in any order and spelling, as slices of it.
func TestParseMessage(t *testing.T) {
	for _, tt := range []struct {
		body, params string // params "" when absent or null
		code         int64
	}{
		{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"a":1}}`, `{"a":1}`, 0},
		{" \r\n{ \"params\" :\t[1] , \"method\":\"m\",\"jsonrpc\" : \"2.0\" }\n", `[1]`, 0},
		{`{"jsonrpc":"2.0","method":"m","params":"s\"}"}`, `"s\"}"`, 0},
		{`{"jsonrpc":"2.0","method":"m","params":3}`, `3`, 0},
		{`{"jsonrpc":"2.0","method":"m","params":null}`, ``, 0},
		{`{"jsonrpc":"2.0","method":"m"}`, ``, 0},
		{`{"jsonrpc":"2.0","method":"m","params":{},"x":0}`, `{}`, 0},
		{`{"jsonrpc":"2.0","method":"m","params":{},"params":[2]}`, `[2]`, 0},
		{`{"jsonrpc":"2.0","method":"m","par\u0061ms":{}}`, `{}`, 0},
		{`{"jsonrpc":"2.0","method":"m","params":{}} `, `{}`, 0},
		{`{"jsonrpc":"2.0" "method":"m","params":{}}`, ``, codeParseError},
		{`{"jsonrpc":"2.0",,"method":"m","params":{}}`, ``, codeParseError},
		{`{"jsonrpc":"2.0","method":"m","params":{},}`, ``, codeParseError},
		{`{"jsonrpc":"2.0","method":"m","params"{}}`, ``, codeParseError},
		{`{"jsonrpc":"2.0","method":"m","params":1 2}`, ``, codeParseError},
		{`{"jsonrpc":"2.0","method":"m","params":{}`, ``, codeParseError},
		{`{"jsonrpc":"2.0","method":"m","params":"a\qb"}`, ``, codeParseError},
		{`{"jsonrpc":"2.0","method":"m","params":"a` + "\x01" + `"}`, ``, codeParseError},
		{`{"jsonrpc":"1.0","method":"m","params":"a` + "\x01" + `"}`, ``, codeParseError},
		{`{"jsonrpc":"1.0","method":"m"}`, ``, codeInvalidRequest},
		{`{"jsonrpc":"2.0","method":"m","params":` + deep(MaxNesting) + `}`, ``, codeInvalidRequest},
	} {
		msg, code, problem := parseMessage([]byte(tt.body))
		if code != tt.code || code == 0 && (string(msg.Params) != tt.params || msg.Method == "" || cap(msg.Params) != len(msg.Params)) {
			var params []byte
			if msg != nil {
				params = msg.Params
			}
			t.Errorf("%.80s: got params %q, code %d (%s); want %q, code %d", tt.body, params, code, problem, tt.params, tt.code)
		}
	}
}

// TestTextDecodedInPlace: the document is a slice of the params, which
// hold no second copy of it; unless the message is much longer than the
// text (its escapes, its other members), which the text would keep alive:
// then it is a copy, and the message can go.
func TestTextDecodedInPlace(t *testing.T) {
	long := strings.Repeat("abcdefgh", 200)
	for _, tc := range []struct {
		text    string
		inPlace bool
	}{
		{long + `a\"b\\n\u00e9\ud83d\ude00z`, true},
		{`a\"b\\n\u00e9\ud83d\ude00z`, false},
	} {
		raw := []byte(`{"textDocument":{"uri":"file:///a","version":1,"text":"` + tc.text + `"}}`)
		want := strings.TrimSuffix(tc.text, `a\"b\\n\u00e9\ud83d\ude00z`) + "a\"b\\né😀z"
		p, err := DecodeOpenParams(raw)
		if err != nil {
			t.Fatal(err)
		}
		text := p.TextDocument.Text
		at := uintptr(unsafe.Pointer(unsafe.SliceData(text))) - uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
		if string(text) != want || (at < uintptr(len(raw))) != tc.inPlace || cap(text) != len(text) {
			t.Errorf("%d-byte text: got %.20q… at byte %d of the %d-byte params with capacity %d, want in place %v, capped", len(want), text, at, len(raw), cap(text), tc.inPlace)
		}
	}
	c, err := DecodeChangeParams([]byte(`{"textDocument":{"uri":"file:///a","version":2},"contentChanges":[{"text":"\u0041"},{"text":"B\n"}]}`))
	if err != nil || len(c.ContentChanges) != 2 || string(c.ContentChanges[0].Text) != "A" || string(c.ContentChanges[1].Text) != "B\n" {
		t.Errorf("got %+v, %v; want the texts A and B\\n", c, err)
	}
}
