package transport

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// TestDecodeOpenParams decodes didOpen params as encoding/json does.
func TestDecodeOpenParams(t *testing.T) {
	for _, tc := range []struct {
		name, params, text string
	}{
		{"plain", `{"textDocument":{"uri":"file:///a","languageId":"lreview","version":3,"text":"{}"}}`, "{}"},
		{"escapes", `{"textDocument":{"uri":"file:///a","version":3,"text":"{\n  \"a\": \"x\\ty\\u00e9\\/\\\\\"\r\n}\u0008\f"}}`, "{\n  \"a\": \"x\\ty\\u00e9\\/\\\\\"\r\n}\b\f"},
		{"surrogate pair", `{"textDocument":{"uri":"file:///a","version":3,"text":"\ud83d\ude00 ok"}}`, "😀 ok"},
		{"lone surrogates", `{"textDocument":{"uri":"file:///a","version":3,"text":"\ud83d x \ude00\ud83d\u0041"}}`, "\uFFFD x \uFFFD\uFFFDA"},
		{"raw utf-8", `{"textDocument":{"uri":"file:///a","version":3,"text":"é😀"}}`, "é😀"},
		{"text first, unknown members", ` { "x": [1, {"y": null}, "s\"", -2.5e3, true, false] , "textDocument" : { "text" : "t" , "uri":"file:///a", "extra": {"a":[]}, "version": 3 } } `, "t"},
		{"empty text", `{"textDocument":{"uri":"file:///a","version":3,"text":""}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeOpenParams([]byte(tc.params))
			if err != nil {
				t.Fatalf("got error %v", err)
			}
			var want protocol.DidOpenTextDocumentParams
			if err := json.Unmarshal([]byte(tc.params), &want); err != nil {
				t.Fatalf("the test's params are not JSON: %v", err)
			}
			if string(got.TextDocument.Text) != want.TextDocument.Text || string(got.TextDocument.Text) != tc.text {
				t.Errorf("text: got %q, want %q (encoding/json: %q)", got.TextDocument.Text, tc.text, want.TextDocument.Text)
			}
			if got.TextDocument.URI != "file:///a" || got.TextDocument.Version != 3 {
				t.Errorf("got uri %q version %d, want file:///a version 3", got.TextDocument.URI, got.TextDocument.Version)
			}
		})
	}
}

// TestDecodeParamsRejects turns malformed params into errors that say
// where, never into a panic or a wrong text.
func TestDecodeParamsRejects(t *testing.T) {
	for _, params := range []string{
		``,
		`{`,
		`{"textDocument":{"uri":"file:///a","text":"abc`,
		`{"textDocument":{"uri":"file:///a","text":"a\qb"}}`,
		`{"textDocument":{"uri":"file:///a","text":"a\u12"}}`,
		`{"textDocument":{"uri":"file:///a","text":"a` + "\x01" + `b"}}`,
		`{"textDocument":{"uri":"file:///a","text":"a"}} x`,
		`{"textDocument":{"uri":"file:///a" "text":"a"}}`,
		`{"textDocument":{"uri":"file:///a","version":"3","text":"a"}}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":01.2.3}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":tru}`,
		`{"textDocument":["text"]}`,
		`{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":01}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":1.}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":{"y":[1,]}}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":{"y" 1}}`,
		`{"textDocument":{"uri":"file:///a","text":"a"},"x":"\u00g1"}`,
	} {
		if p, err := DecodeOpenParams([]byte(params)); err == nil {
			t.Errorf("%q: got text %q, want an error", params, p.TextDocument.Text)
		} else if !strings.Contains(err.Error(), "didOpen params") {
			t.Errorf("%q: got error %q, want one naming didOpen params", params, err)
		}
	}
	if _, err := DecodeChangeParams([]byte(`{"contentChanges":[{"text":"a"},]}`)); err == nil {
		t.Error("a trailing comma in contentChanges: got no error")
	}
}

func TestDecodeChangeParams(t *testing.T) {
	params := `{"textDocument":{"uri":"file:///a","version":7},"contentChanges":[` +
		`{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"rangeLength":2,"text":"x\"y"},` +
		`{"text":"whole \\n"},{"range":null,"text":""}]}`
	got, err := DecodeChangeParams([]byte(params))
	if err != nil {
		t.Fatal(err)
	}
	if got.TextDocument.URI != "file:///a" || got.TextDocument.Version != 7 || len(got.ContentChanges) != 3 {
		t.Fatalf("got %+v, want file:///a version 7 with 3 changes", got)
	}
	want := []struct {
		rng  *protocol.Range
		text string
	}{
		{&protocol.Range{Start: protocol.Position{Line: 1, Character: 2}, End: protocol.Position{Line: 1, Character: 4}}, `x"y`},
		{nil, `whole \n`},
		{nil, ``},
	}
	for i, w := range want {
		ch := got.ContentChanges[i]
		if string(ch.Text) != w.text || (ch.Range == nil) != (w.rng == nil) || ch.Range != nil && *ch.Range != *w.rng {
			t.Errorf("change %d: got range %v text %q, want range %v text %q", i, ch.Range, ch.Text, w.rng, w.text)
		}
	}
}

// TestDecodeTextLikeEncodingJSON round-trips random strings, escapes and
// all, through encoding/json and the dedicated decoder.
func TestDecodeTextLikeEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab\"\\/\n\r\t\b\f\x00\x1f<>&é😀\u2028\ufffd")
	for range 500 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteRune(alphabet[r.IntN(len(alphabet))])
		}
		text := b.String()
		raw, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///a", "version": 1, "text": text}})
		got, err := DecodeOpenParams(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if string(got.TextDocument.Text) != text || !utf8.Valid(got.TextDocument.Text) {
			t.Fatalf("%s: got %q, want %q", raw, got.TextDocument.Text, text)
		}
	}
}

// FuzzDecodeOpenParamsInPlace: whatever the params, a decode in place
// gives encoding/json's text, and never decodes params that are not
// JSON.
func FuzzDecodeOpenParamsInPlace(f *testing.F) {
	for _, s := range []string{
		`{"textDocument":{"uri":"file:///a","version":3,"text":"a\n\"\u00e9\ud83d\ude00"}}`,
		`{"textDocument":{"text":"a\\b\n","uri":"file:///a" "version":1}}`,
		`{"textDocument":{"text":"a\nb\q"}}`,
		`{"textDocument":{"version":"1","text":"\t"}}`,
		`{"textDocument":{"text":"\ud83d\u12"}}`,
	} {
		f.Add([]byte(s))
	}
	// Invalid UTF-8 is kept as sent, where encoding/json makes U+FFFD.
	f.Fuzz(func(t *testing.T, params []byte) {
		valid := json.Valid(params)
		var want protocol.DidOpenTextDocumentParams
		wantErr := json.Unmarshal(params, &want)
		got, err := DecodeOpenParams(append([]byte(nil), params...))
		switch {
		case err != nil:
			// Not JSON, or not the shape (which includes nesting past
			// maxParamsDepth, where encoding/json goes on).
		case !valid:
			t.Fatalf("%q: decoded, but it is not JSON", params)
		case wantErr == nil && exactKeys(params) && utf8.Valid(params) && string(got.TextDocument.Text) != want.TextDocument.Text:
			t.Fatalf("%q: got text %q, want %q", params, got.TextDocument.Text, want.TextDocument.Text)
		}
	})
}

// exactKeys reports whether params spell "text" and "textDocument" in
// one case only: encoding/json matches member names in any case, the
// protocol does not.
func exactKeys(params []byte) bool {
	lower := bytes.ToLower(params)
	return bytes.Count(lower, []byte("text")) == bytes.Count(params, []byte("text")) &&
		bytes.Count(lower, []byte("textdocument")) == bytes.Count(params, []byte("textDocument"))
}
