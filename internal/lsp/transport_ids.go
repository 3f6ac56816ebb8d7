package lsp

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// Request ids as the client sent them. jsonrpc2's ID holds an int32 or a
// non-empty string, and writes a string back with its own escaping; an id
// it would alter gets a stand-in on the way in, and the response gets the
// id back, spelt as sent, on the way out.

// checkID checks an id: a string, an integer that fits in 64 bits, or
// null (JSON-RPC allows it). It returns the id's key for $/cancelRequest
// and whether jsonrpc2's ID would alter it.
func checkID(m member) (canonical string, proxy bool, problem string) {
	raw := m.raw
	if m.long {
		return "", false, fmt.Sprintf(`"id" is longer than %d bytes`, maxCapture)
	}
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if stdjson.Unmarshal(raw, &s) != nil {
			return "", false, `"id" is not a valid string`
		}
		// jsonrpc2 writes the string back with its own escaping: an id
		// spelt with escapes, HTML characters or non-ASCII bytes is kept
		// as sent.
		return "s" + s, s == "" || strings.HasPrefix(s, proxyPrefix) || bytes.ContainsAny(raw[1:len(raw)-1], "\\<>&") || !isASCII(raw), ""
	case string(raw) == "null":
		return "null", true, ""
	case isInteger(raw):
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return "", false, fmt.Sprintf(`"id" %.40s does not fit in 64 bits`, raw)
		}
		return "n" + string(raw), n != int64(int32(n)) || strconv.FormatInt(n, 10) != string(raw), ""
	}
	return "", false, fmt.Sprintf(`"id" is %.40s, want a string or an integer`, raw)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// isInteger reports whether raw is a JSON number without fraction or
// exponent.
func isInteger(raw []byte) bool {
	if len(raw) > 0 && raw[0] == '-' {
		raw = raw[1:]
	}
	if len(raw) == 0 || len(raw) > 1 && raw[0] == '0' {
		return false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// standIn replaces the id of body with a stand-in jsonrpc2 keeps intact,
// and remembers the id as sent for the response. Only bodies with such
// ids ("", null, past int32, or not canonical) pay for the copy.
func (t *transport) standIn(body []byte, id member, canonical string) []byte {
	t.idMu.Lock()
	t.seq++
	proxy := jsonrpc2.NewStringID(proxyPrefix + strconv.Itoa(t.seq))
	t.proxies[fmt.Sprintf("%q", proxy)] = append(stdjson.RawMessage(nil), id.raw...)
	t.byID[canonical] = proxy
	t.idMu.Unlock()
	enc, _ := json.Marshal(&proxy)
	out := make([]byte, 0, len(body)-(id.end-id.start)+len(enc))
	out = append(out, body[:id.start]...)
	out = append(out, enc...)
	return append(out, body[id.end:]...)
}

// requestID returns the id jsonrpc2 knows a request by, from the id as
// the client sent it (in $/cancelRequest).
func (t *transport) requestID(raw stdjson.RawMessage) (jsonrpc2.ID, bool) {
	canonical, proxy, problem := checkID(member{raw: bytes.TrimSpace(raw)})
	if problem != "" {
		return jsonrpc2.ID{}, false
	}
	if proxy {
		t.idMu.Lock()
		defer t.idMu.Unlock()
		id, ok := t.byID[canonical]
		return id, ok
	}
	var id jsonrpc2.ID
	if err := json.Unmarshal(raw, &id); err != nil {
		return jsonrpc2.ID{}, false
	}
	return id, true
}

func (t *transport) takeProxy(id jsonrpc2.ID) (stdjson.RawMessage, bool) {
	key := fmt.Sprintf("%q", id)
	if !strings.HasPrefix(key, `"\x00`) {
		return nil, false
	}
	t.idMu.Lock()
	defer t.idMu.Unlock()
	raw, ok := t.proxies[key]
	if ok {
		delete(t.proxies, key)
		canonical, _, _ := checkID(member{raw: raw})
		if t.byID[canonical] == id {
			delete(t.byID, canonical)
		}
	}
	return raw, ok
}

// responseBody writes a response around id, raw JSON copied byte for byte:
// marshalling it again would escape `<`, `>` and `&` in a string id, and
// the client matches replies by the id exactly as it sent it.
func responseBody(id []byte, resp *jsonrpc2.Response) ([]byte, error) {
	body := append(make([]byte, 0, len(id)+len(resp.Result())+48), `{"jsonrpc":"2.0","id":`...)
	body = append(body, id...)
	if err := resp.Err(); err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: err.Error()}
		}
		enc, err := json.Marshal(rpcErr)
		if err != nil {
			return nil, err
		}
		return append(append(append(body, `,"error":`...), enc...), '}'), nil
	}
	result := resp.Result()
	if len(result) == 0 {
		result = []byte("null")
	}
	return append(append(append(body, `,"result":`...), result...), '}'), nil
}
