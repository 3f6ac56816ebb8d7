package lsp

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The notifications that carry documents skip jsonrpc2. Its decoder would
// copy a didOpen's params, the whole document, out of the body before the
// server decodes them again; instead the transport hands the params over
// as a slice of the body, and the server decodes the text in place (see
// paramsReader.text). jsonrpc2 calls its handler from its read loop, one
// message after the other, so a notification handled inside Read, before
// the next message is read, keeps its place among the others.

// textHandler handles a text notification whose params are a slice of
// its own message body, which nothing else holds.
type textHandler func(ctx context.Context, method string, params []byte)

// isTextMethod reports whether method is a notification the transport
// hands to its textHandler.
func isTextMethod(method string) bool {
	switch method {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose":
		return true
	}
	return false
}

// bareParams returns the params of a body that is exactly one object of
// "jsonrpc", "method" and "params", in any order, each once and spelt
// without escapes: the values of jsonrpc and method were checked by
// readEnvelope, and this checks every byte around the three values, so
// that the params' own decoder has the last word on the message. Any
// other body (more members, duplicates, params null) returns false and
// goes the general way through jsonrpc2.
func bareParams(body []byte, sc *envelopeScanner) ([]byte, bool) {
	order := [3]int{memJSONRPC, memMethod, memParams}
	for _, m := range order {
		if mb := sc.members[m]; !mb.present || mb.depth != 1 || mb.end <= mb.start {
			return nil, false
		}
	}
	slices.SortFunc(order[:], func(a, b int) int { return cmp.Compare(sc.members[a].start, sc.members[b].start) })
	at := 0
	for k, m := range order {
		sep := byte(',')
		if k == 0 {
			sep = '{'
		}
		mb := sc.members[m]
		if mb.start < at || !isMemberHead(body[at:mb.start], sep, memberNames[m]) {
			return nil, false
		}
		at = mb.end
	}
	if end := jsontext.SkipSpace(body, at); end >= len(body) || body[end] != '}' || jsontext.SkipSpace(body, end+1) < len(body) {
		return nil, false
	}
	p := sc.members[memParams]
	params := body[p.start:p.end:p.end]
	if string(params) == "null" {
		return nil, false // jsonrpc2 hands null params over as none
	}
	return params, true
}

var memberNames = [...]string{memJSONRPC: "jsonrpc", memMethod: "method", memParams: "params"}

// isMemberHead reports whether gap is sep, then "name", then a colon,
// with white space around each.
func isMemberHead(gap []byte, sep byte, name string) bool {
	ws := func() {
		gap = gap[jsontext.SkipSpace(gap, 0):]
	}
	next := func(want string) bool {
		ws()
		if !bytes.HasPrefix(gap, []byte(want)) {
			return false
		}
		gap = gap[len(want):]
		return true
	}
	ok := next(string(sep)) && next(`"`+name+`"`) && next(":")
	ws()
	return ok && len(gap) == 0
}
