package lsp

import (
	"bufio"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// The transport is the jsonrpc2.Stream the server's connection reads and
// writes. go.lsp.dev/jsonrpc2 does the dispatch and the replies, but its
// own stream cannot face a client that is hostile or just buggy: the
// connection ends, silently, on the first message its stream cannot read
// (any header problem, a body that is not JSON, a batch, a wrong
// "jsonrpc", an id that is not an int32 or a non-empty string); its
// decoder recurses, so deep nesting overflows the stack and kills the
// process; it has no size limit; and its ID type cannot hold "" (it
// becomes 0) nor an integer past int32. So this transport frames each
// message itself, bounds it, checks its envelope with one linear scan
// (envelopeScanner) before the one real decode, answers what is wrong
// with the JSON-RPC error the specification names, and hands jsonrpc2
// only messages it represents faithfully: a request whose id jsonrpc2
// would alter gets a stand-in id, and its response is written with the
// id exactly as the client sent it. The notifications that carry
// documents skip jsonrpc2 altogether (transport_text.go).
const (
	// MaxMessageSize is the largest message body the server reads:
	// eight times the largest review the benchmarks generate
	// (reviewgen.Default), with room for its escaping in a didOpen. A larger request is
	// answered with Invalid Request; a larger didOpen or didChange leaves
	// the document unchecked, with a diagnostic that says why.
	// It is filewrite.MaxSize, the limit on a review or a diff read
	// from a path too: one limit for every way in.
	MaxMessageSize = filewrite.MaxSize
	// MaxNesting is the deepest a message may nest arrays and objects. It
	// is checked before any decoder, which recurses, sees the message. LSP
	// messages nest a dozen levels; settings a few more.
	MaxNesting = 1000
	// maxSkippable is the largest Content-Length the transport reads
	// through to find the next message. A larger one is not a message but
	// a corrupt header, and the stream cannot be resynchronised.
	maxSkippable = 1 << 30
	// maxHeaderLine bounds what is kept of one header line.
	maxHeaderLine = 4096
)

// JSON-RPC's own error codes, for the errors the transport answers.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// dropped is a notification the transport could not deliver: no reply can
// say so, so the server tells the user another way.
type dropped struct {
	Method string
	URI    string // params.textDocument.uri, when it could be read
	Reason string
}

// proxyPrefix starts the stand-in ids. A client id that starts with it is
// replaced too, so a stand-in never equals an id the client chose.
const proxyPrefix = "\x00lreview-id-"

type transport struct {
	rwc       io.ReadWriteCloser
	in        *bufio.Reader
	log       io.Writer
	onDropped func(dropped)
	// drain, when set, waits for the requests being handled: Read calls
	// it before it reports the end of the stream, since jsonrpc2 closes
	// the connection, writing side too, as soon as Read fails.
	drain func()
	// text, when set, handles didOpen, didChange and didClose in place of
	// jsonrpc2 (transport_text.go).
	text textHandler

	wmu sync.Mutex // one message at a time on the wire

	idMu    sync.Mutex
	seq     int
	proxies map[string]stdjson.RawMessage // stand-in (as %q) → id as sent
	byID    map[string]jsonrpc2.ID        // id as sent (canonical) → stand-in

	warnedLF bool
}

func newTransport(rwc io.ReadWriteCloser, log io.Writer, onDropped func(dropped)) *transport {
	if log == nil {
		log = io.Discard
	}
	return &transport{
		rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log, onDropped: onDropped,
		proxies: map[string]stdjson.RawMessage{}, byID: map[string]jsonrpc2.ID{},
	}
}

// Read returns the next message jsonrpc2 can handle. Messages it cannot
// are answered or reported here, and reading goes on; Read fails only
// when the stream ends or cannot be framed any more, after saying why on
// the log.
func (t *transport) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		length, err := t.readHeader()
		var msg jsonrpc2.Message
		if err == nil {
			msg, err = t.readBody(ctx, length)
		}
		if err != nil {
			if t.drain != nil {
				t.drain()
			}
			return nil, 0, err
		}
		if msg != nil {
			return msg, length, nil
		}
	}
}

// fatal logs why the stream cannot go on, in one line, and returns it.
func (t *transport) fatal(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	fmt.Fprintf(t.log, "lreview-lsp: %v; closing the connection\n", err)
	return err
}

func (t *transport) logf(format string, args ...any) {
	fmt.Fprintf(t.log, "lreview-lsp: "+format+"\n", args...)
}

// readHeader reads one message's header and returns its Content-Length.
// Header problems that leave a length are logged and skipped; garbage in
// front of a Content-Length header (the rest of a body longer than its
// length said) is skipped up to it.
func (t *transport) readHeader() (int64, error) {
	length := int64(-1)
	started := false
	for {
		line, crlf, skipped, err := t.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && !started && skipped == 0 && line == "" {
				return 0, io.EOF
			}
			if errors.Is(err, io.EOF) {
				return 0, t.fatal("the stream ended inside a message header")
			}
			return 0, t.fatal("reading a message header: %v", err)
		}
		if !crlf && !t.warnedLF && (line != "" || started) {
			t.warnedLF = true
			t.logf("header lines end in LF instead of CRLF; reading them anyway")
		}
		if line == "" {
			if !started {
				if skipped > 0 {
					t.logf("skipped %d bytes that are not a message header", skipped)
				}
				continue // a stray line break between messages
			}
			break
		}
		started = true
		if i := indexFold(line, "Content-Length:"); i > 0 || skipped > 0 {
			if i < 0 {
				t.logf("skipped a %d-byte header line: %.80q", skipped+len(line), line)
				continue
			}
			// The rest of a body longer than its Content-Length said,
			// then the next message's header.
			t.logf("skipped %d bytes before a Content-Length header", skipped+i)
			line = line[i:]
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			t.logf("skipped a header line without a colon: %.80q", line)
			continue
		}
		name = strings.TrimSpace(name)
		switch {
		case strings.EqualFold(name, "Content-Length"):
			n, err := parseLength(strings.TrimSpace(value))
			if err != nil {
				return 0, t.fatal("%v", err)
			}
			if length >= 0 && n != length {
				return 0, t.fatal("two Content-Length headers disagree: %d and %d", length, n)
			}
			length = n
		case strings.EqualFold(name, "Content-Type"):
		default:
			t.logf("ignored the header %.80q", line)
		}
	}
	if length < 0 {
		return 0, t.fatal("a message header has no Content-Length")
	}
	return length, nil
}

// parseLength reads a Content-Length value.
func parseLength(v string) (int64, error) {
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, fmt.Errorf("Content-Length %.40q is not a byte count", v)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n > maxSkippable {
		return 0, fmt.Errorf("Content-Length %.40s is beyond any message (the limit is %d bytes), so the next message cannot be found", v, MaxMessageSize)
	}
	return n, nil
}

// indexFold is strings.Index ignoring ASCII case.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// readLine reads one header line without its line break. A line longer
// than maxHeaderLine keeps only its end, and skipped says how many bytes
// went before it.
func (t *transport) readLine() (line string, crlf bool, skipped int, err error) {
	var buf []byte
	for {
		chunk, err := t.in.ReadSlice('\n')
		buf = append(buf, chunk...)
		if over := len(buf) - maxHeaderLine; over > 0 {
			skipped += over
			buf = append(buf[:0], buf[over:]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return string(buf), false, skipped, err
		}
		break
	}
	buf = buf[:len(buf)-1]
	if n := len(buf); n > 0 && buf[n-1] == '\r' {
		return string(buf[:n-1]), true, skipped, nil
	}
	return string(buf), false, skipped, nil
}

// readBody reads a body of length bytes and returns its message, or nil
// when it was answered, reported or handled here.
func (t *transport) readBody(ctx context.Context, length int64) (jsonrpc2.Message, error) {
	sc := newEnvelopeScanner(MaxNesting)
	if length > MaxMessageSize {
		// Read it through, keeping only what the reply needs.
		if _, err := io.CopyN(scanWriter{sc}, t.in, length); err != nil {
			return nil, t.fatal("the stream ended inside a %d-byte message body", length)
		}
		sc.finish()
		t.refuse(sc, fmt.Sprintf("the message is %d bytes, over the server's limit of %d bytes", length, MaxMessageSize))
		return nil, nil
	}
	// A new buffer for each message, never reused: a text notification's
	// document is decoded in place and stays a slice of it.
	body := make([]byte, length)
	if _, err := io.ReadFull(t.in, body); err != nil {
		return nil, t.fatal("the stream ended inside a %d-byte message body", length)
	}
	sc.feed(body)
	sc.finish()
	return t.decode(ctx, body, sc), nil
}

type scanWriter struct{ sc *envelopeScanner }

func (w scanWriter) Write(b []byte) (int, error) { w.sc.feed(b); return len(b), nil }

// decode turns a body into the message jsonrpc2 gets, or answers it, or
// hands a text notification to t.text.
func (t *transport) decode(ctx context.Context, body []byte, sc *envelopeScanner) jsonrpc2.Message {
	switch {
	case sc.nest.TooDeep():
		t.refuse(sc, fmt.Sprintf("the message nests deeper than %d levels", MaxNesting))
		return nil
	case sc.first != '{':
		t.invalid(body, batchOrScalar(sc.first))
		return nil
	case sc.broken || sc.trailing:
		t.replyError(nil, codeParseError, "the message is not valid JSON")
		return nil
	}
	env, problem := readEnvelope(sc)
	if problem != "" {
		t.invalid(body, problem)
		return nil
	}
	if t.text != nil && !env.hasID && isTextMethod(env.method) {
		if params, ok := bareParams(body, sc); ok {
			t.text(ctx, env.method, params)
			return nil
		}
	}
	if env.proxy {
		body = t.standIn(body, sc.members[memID], env.canonical)
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		t.invalid(body, "the message is not a JSON-RPC message")
		return nil
	}
	return msg
}

func batchOrScalar(first byte) string {
	if first == '[' {
		return "batch messages are not supported"
	}
	return "a message must be a JSON object"
}

// invalid answers a body that is wrong: Invalid Request when it is JSON,
// Parse error when it is not. Only bodies already known to nest within
// MaxNesting get here, so json.Valid's work is bounded.
func (t *transport) invalid(body []byte, problem string) {
	if !stdjson.Valid(body) {
		t.replyError(nil, codeParseError, "the message is not valid JSON")
		return
	}
	t.replyError(nil, codeInvalidRequest, "invalid request: "+problem)
}

// refuse answers a message over a limit: with its id when it is a request
// whose id could be read, so that the client's call ends; as a dropped
// notification when it is one.
func (t *transport) refuse(sc *envelopeScanner, reason string) {
	t.logf("refused a message: %s", reason)
	env, problem := readEnvelope(sc)
	switch {
	case problem == "" && env.method == "":
		// A response: nothing answers a response.
	case problem == "" && env.hasID:
		t.replyError(sc.members[memID].raw, codeInvalidRequest, reason)
	case problem == "":
		if t.onDropped != nil {
			t.onDropped(dropped{Method: env.method, URI: env.uri, Reason: reason})
		}
	default:
		t.replyError(nil, codeInvalidRequest, reason)
	}
}

// replyError writes an error response; id nil is null.
func (t *transport) replyError(id stdjson.RawMessage, code int64, message string) {
	if id == nil {
		id = stdjson.RawMessage("null")
	}
	resp := struct {
		JSONRPC string             `json:"jsonrpc"`
		ID      stdjson.RawMessage `json:"id"`
		Error   *jsonrpc2.Error    `json:"error"`
	}{"2.0", id, &jsonrpc2.Error{Code: jsonrpc2.Code(code), Message: message}}
	data, err := stdjson.Marshal(resp)
	if err == nil {
		err = t.writeFrame(data)
	}
	if err != nil {
		t.logf("could not answer an invalid message: %v", err)
	}
}

// envelope is what the transport checked of a message's top level.
type envelope struct {
	method    string
	hasID     bool
	proxy     bool   // the id needs a stand-in
	canonical string // the id's key in byID
	uri       string
}

// readEnvelope checks the members JSON-RPC 2.0 requires of a request,
// notification or response, and returns the problem in words.
func readEnvelope(sc *envelopeScanner) (envelope, string) {
	var env envelope
	m := sc.members
	if !m[memJSONRPC].present {
		return env, `the "jsonrpc" member is missing`
	}
	var v string
	if stdjson.Unmarshal(m[memJSONRPC].raw, &v) != nil || v != "2.0" {
		return env, fmt.Sprintf(`"jsonrpc" is %.40s, want "2.0"`, m[memJSONRPC].raw)
	}
	if m[memMethod].present {
		if m[memMethod].long || stdjson.Unmarshal(m[memMethod].raw, &env.method) != nil {
			return env, `"method" is not a string`
		}
		if env.method == "" {
			return env, `"method" is empty`
		}
	}
	if m[memID].present {
		canonical, proxy, problem := checkID(m[memID])
		if problem != "" {
			return env, problem
		}
		env.hasID, env.proxy, env.canonical = true, proxy, canonical
	}
	if env.method == "" {
		if !env.hasID {
			return env, `a message without "method" is a response and needs an "id"`
		}
		if !m[memResult].present && !m[memError].present {
			return env, `a message without "method" is a response and needs "result" or "error"`
		}
		if env.proxy {
			return env, "the response's id matches no request of the server"
		}
	}
	if m[memURI].present && !m[memURI].long {
		_ = stdjson.Unmarshal(m[memURI].raw, &env.uri)
	}
	return env, ""
}

// Write sends msg; a response to a request that got a stand-in id carries
// the id as the client sent it.
func (t *transport) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var data []byte
	var err error
	if resp, ok := msg.(*jsonrpc2.Response); ok {
		if raw, ok := t.takeProxy(resp.ID()); ok {
			data, err = responseBody(raw, resp)
		}
	}
	if data == nil && err == nil {
		data = encodeFast(msg)
	}
	if data == nil && err == nil {
		data, err = json.Marshal(msg)
	}
	if err != nil {
		return 0, fmt.Errorf("marshaling a message: %w", err)
	}
	return int64(len(data)), t.writeFrame(data)
}

func (t *transport) writeFrame(data []byte) error {
	return t.writeParts(data)
}

// writeParts writes one message whose body is the parts one after the
// other: a large one need not be put together first.
func (t *transport) writeParts(parts ...[]byte) error {
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	t.wmu.Lock()
	defer t.wmu.Unlock()
	var w io.Writer = t.rwc
	var buf *bufio.Writer
	if len(parts) > 1 {
		buf = bufio.NewWriterSize(t.rwc, 64<<10)
		w = buf
	}
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", size); err != nil {
		return fmt.Errorf("writing a message: %w", err)
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return fmt.Errorf("writing a message: %w", err)
		}
	}
	if buf != nil {
		if err := buf.Flush(); err != nil {
			return fmt.Errorf("writing a message: %w", err)
		}
	}
	return nil
}

// Close closes the connection under the transport.
func (t *transport) Close() error { return t.rwc.Close() }
