package transport

import (
	"reflect"
	"testing"
)

// TestEnvelopeScanInChunks: the scanner finds the same members and depth
// whether a body comes whole or one byte at a time, as an oversized body
// read through does.
func TestEnvelopeScanInChunks(t *testing.T) {
	bodies := []struct {
		body            string
		id, method, uri string
		tooDeep, params bool
	}{
		{body: `{"jsonrpc":"2.0","id":"a\"b\\","method":"m"}`, id: `"a\"b\\"`, method: `"m"`},
		{body: `{"params":{"textDocument":{"uri":"file:///x","text":"a\\\"}"}},"id":12,"method":"textDocument/didOpen"}`, id: "12", method: `"textDocument/didOpen"`, uri: `"file:///x"`, params: true},
		{body: `{"params":[{"textDocument":{"uri":"no"}}],"id":-3}`, id: "-3", params: true},
		{body: ` { "id" : 1e400 , "method" : "x" } `, id: "1e400", method: `"x"`},
		{body: `{"id":{"id":2},"method":"x"}`, id: `{"id":2}`, method: `"x"`},
		{body: `{"id":1,"params":3}`, id: "1", params: true},
		{body: `{"params":"x\"" , "id":1}`, id: "1", params: true},
		{body: `{"a":"x`},
		{body: `{"id":"x\"}"} {"id":2}`, id: `2`}, // the last one read
		{body: `{"id":5,"params":` + deep(MaxNesting) + `}`, id: "5", tooDeep: true, params: true},
		{body: `{"params":` + deep(MaxNesting-1) + `,"id":6}`, id: "6", params: true},
	}
	for _, tt := range bodies {
		whole := newEnvelopeScanner(MaxNesting)
		whole.feed([]byte(tt.body))
		whole.finish()
		bytewise := newEnvelopeScanner(MaxNesting)
		for i := range len(tt.body) {
			bytewise.feed([]byte{tt.body[i]})
		}
		bytewise.finish()
		for name, sc := range map[string]*envelopeScanner{"whole": whole, "byte by byte": bytewise} {
			got := []any{string(sc.members[memID].raw), string(sc.members[memMethod].raw), string(sc.members[memURI].raw), sc.nest.TooDeep(), sc.members[memParams].present}
			want := []any{tt.id, tt.method, tt.uri, tt.tooDeep, tt.params}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %.60s: got id, method, uri, too deep, params = %q, want %q", name, tt.body, got, want)
			}
		}
		if w, b := whole.members[memID], bytewise.members[memID]; w.start != b.start || w.end != b.end || tt.id != "" && tt.body[w.start:w.end] != tt.id {
			t.Errorf("%.60s: id at %d:%d whole, %d:%d byte by byte, want the span of %s", tt.body, w.start, w.end, b.start, b.end, tt.id)
		}
	}
}
