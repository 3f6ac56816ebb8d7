package lsp

import (
	"strconv"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// encodeFast frames a notification or a successful response around the
// params or result jsonrpc2 already encoded: marshalling the message again
// would encode them twice more. It returns nil for what it does not
// handle (errors, requests), which then go through the usual marshal.
func encodeFast(msg jsonrpc2.Message) []byte {
	switch m := msg.(type) {
	case *jsonrpc2.Notification:
		body := append(make([]byte, 0, len(m.Params())+64), `{"jsonrpc":"2.0","method":`...)
		body = strconv.AppendQuote(body, m.Method())
		return appendMember(body, "params", m.Params())
	case *jsonrpc2.Response:
		if m.Err() != nil {
			return nil
		}
		id := m.ID()
		idText, err := fastjson.Marshal(&id)
		if err != nil {
			return nil
		}
		body, _ := responseBody(idText, m)
		return body
	}
	return nil
}

// appendMember closes an envelope with its params member, if any.
func appendMember(b []byte, name string, raw []byte) []byte {
	if len(raw) > 0 {
		b = append(append(append(b, `,"`...), name...), `":`...)
		b = append(b, raw...)
	}
	return append(b, '}')
}

// writeResult answers call id with raw, a result already in JSON, past
// jsonrpc2: its Replier encodes any result with encoding/json, which
// checks and copies a RawMessage byte by byte, milliseconds for the
// outline or the semantic tokens of a large review.
func (t *transport) writeResult(id jsonrpc2.ID, raw []byte) error {
	idText, ok := t.takeProxy(id)
	if !ok {
		var err error
		if idText, err = fastjson.Marshal(&id); err != nil {
			return err
		}
	}
	return t.writeParts([]byte(`{"jsonrpc":"2.0","id":`), idText, []byte(`,"result":`), raw, []byte{'}'})
}
