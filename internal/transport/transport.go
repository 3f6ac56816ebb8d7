package transport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// This file frames and bounds each message and validates it, once, in
// one linear walk of its top level (each member's value stepped over
// with jsontext.SkipValue, which checks it strictly without recursion);
// conn.go dispatches what it reads, answers requests and sends the
// server's own.
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

// Dropped is a notification the transport could not deliver: no reply can
// say so, so the server tells the user another way.
type Dropped struct {
	Method string
	URI    string // params.textDocument.uri, when it could be read
	Reason string
}

// Message is one message read and validated: a request (HasID and a
// Method), a notification (a Method) or a response (no Method). Its
// slices are of the message's own body, a buffer nothing else holds.
type Message struct {
	Method string
	HasID  bool
	Key    string // the id's key (IDKey), for cancellation and responses
	Params []byte // nil when absent or null
	id     []byte // the id as sent, byte for byte
	result []byte
	err    []byte // the error member of a response
}

// Transport frames, bounds and validates the messages of one stream, and
// writes messages to it one at a time.
type Transport struct {
	rwc       io.ReadWriteCloser
	in        *bufio.Reader
	log       io.Writer
	onDropped func(Dropped)

	wmu sync.Mutex    // one message at a time on the wire
	out *bufio.Writer // the wire's buffer, held under wmu

	warnedLF bool
}

// New returns the transport over rwc. Log hears why a message was
// refused or the stream ended; onDropped, a notification refused over a
// limit, which no reply can report.
func New(rwc io.ReadWriteCloser, log io.Writer, onDropped func(Dropped)) *Transport {
	if log == nil {
		log = io.Discard
	}
	return &Transport{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), out: bufio.NewWriterSize(rwc, 64<<10), log: log, onDropped: onDropped}
}

// read returns the next valid message. Messages that are not are
// answered or reported here, and reading goes on; read fails only when
// the stream ends or cannot be framed any more, after saying why on the
// log.
func (t *Transport) read(ctx context.Context) (*Message, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		length, err := t.readHeader()
		var msg *Message
		if err == nil {
			msg, err = t.readBody(length)
		}
		if err != nil {
			return nil, err
		}
		if msg != nil {
			return msg, nil
		}
	}
}

// fatal logs why the stream cannot go on, in one line, and returns it.
func (t *Transport) fatal(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	fmt.Fprintf(t.log, "lreview-lsp: %v; closing the connection\n", err)
	return err
}

func (t *Transport) logf(format string, args ...any) {
	fmt.Fprintf(t.log, "lreview-lsp: "+format+"\n", args...)
}

// readHeader reads one message's header and returns its Content-Length.
// Header problems that leave a length are logged and skipped; garbage in
// front of a Content-Length header (the rest of a body longer than its
// length said) is skipped up to it.
func (t *Transport) readHeader() (int64, error) {
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
func (t *Transport) readLine() (line string, crlf bool, skipped int, err error) {
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
// when it was answered or reported here.
func (t *Transport) readBody(length int64) (*Message, error) {
	if length > MaxMessageSize {
		// Read it through, keeping only what the answer needs.
		sc := newEnvelopeScanner(MaxNesting)
		if _, err := io.CopyN(scanWriter{sc}, t.in, length); err != nil {
			return nil, t.fatal("the stream ended inside a %d-byte message body", length)
		}
		sc.finish()
		t.refuse(sc, fmt.Sprintf("the message is %d bytes, over the server's limit of %d bytes", length, MaxMessageSize))
		return nil, nil
	}
	// A new buffer for each message, never reused: a document is decoded
	// in place and stays a slice of it.
	body := make([]byte, length)
	if _, err := io.ReadFull(t.in, body); err != nil {
		return nil, t.fatal("the stream ended inside a %d-byte message body", length)
	}
	msg, code, problem := parseMessage(body)
	switch {
	case code == 0:
		return msg, nil
	case problem == tooDeep:
		// Read again, to find what the answer needs past the depth
		// where the walk stopped: only a refused message pays for it.
		sc := newEnvelopeScanner(MaxNesting)
		sc.feed(body)
		sc.finish()
		t.refuse(sc, tooDeep)
	default:
		t.replyError(nil, code, problem)
	}
	return nil, nil
}

type scanWriter struct{ sc *envelopeScanner }

func (w scanWriter) Write(b []byte) (int, error) { w.sc.feed(b); return len(b), nil }

// The problems a walk finds, as the answer states them.
var (
	tooDeep    = fmt.Sprintf("the message nests deeper than %d levels", MaxNesting)
	notJSON    = "the message is not valid JSON"
	errNotJSON = errors.New(notJSON)
)

// parseMessage validates a body in one walk: its top-level value must be
// an object, each member's value is stepped over with jsontext.SkipValue,
// which checks its syntax strictly, and the members JSON-RPC gives a
// meaning to are kept as slices of body. A problem comes with the code
// of its answer: Parse error when the body is not JSON, Invalid Request
// when it is but is no JSON-RPC message.
func parseMessage(body []byte) (*Message, int64, string) {
	var spans [memberCount][]byte
	i := jsontext.SkipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		code, problem := notAnObject(body, i)
		return nil, code, problem
	}
	i = jsontext.SkipSpace(body, i+1)
	if i < len(body) && body[i] == '}' {
		i++
	} else {
		for {
			var err error
			if i, err = parseMember(body, i, &spans); err != nil {
				code, problem := syntaxCode(err)
				return nil, code, problem
			}
			i = jsontext.SkipSpace(body, i)
			if i < len(body) && body[i] == ',' {
				i = jsontext.SkipSpace(body, i+1)
				continue
			}
			if i >= len(body) || body[i] != '}' {
				return nil, codeParseError, notJSON
			}
			i++
			break
		}
	}
	if jsontext.SkipSpace(body, i) < len(body) {
		return nil, codeParseError, notJSON
	}
	msg, problem := envelopeOf(spans)
	if problem != "" {
		return nil, codeInvalidRequest, "invalid request: " + problem
	}
	return msg, 0, ""
}

// parseMember steps over the member at body[i], its name, colon and
// value, keeping the value's span when JSON-RPC names it.
func parseMember(body []byte, i int, spans *[memberCount][]byte) (int, error) {
	if i >= len(body) || body[i] != '"' {
		return i, errNotJSON
	}
	end, err := jsontext.SkipValidString(body, i+1)
	if err != nil {
		return end, err
	}
	name, _ := jsonString(body[i:end])
	i = jsontext.SkipSpace(body, end)
	if i >= len(body) || body[i] != ':' {
		return i, errNotJSON
	}
	start := jsontext.SkipSpace(body, i+1)
	if i, err = jsontext.SkipValue(body, start, MaxNesting-1); err != nil {
		return i, err
	}
	if m := memberIndex(name); m >= 0 {
		spans[m] = body[start:i:i]
	}
	return i, nil
}

// notAnObject answers a body whose value at b[i] is not an object.
func notAnObject(body []byte, i int) (int64, string) {
	end, err := jsontext.SkipValue(body, i, MaxNesting)
	switch {
	case err != nil:
		return syntaxCode(err)
	case jsontext.SkipSpace(body, end) < len(body):
		return codeParseError, notJSON
	case body[i] == '[':
		return codeInvalidRequest, "invalid request: batch messages are not supported"
	}
	return codeInvalidRequest, "invalid request: a message must be a JSON object"
}

func syntaxCode(err error) (int64, string) {
	var se *jsontext.SyntaxError
	if errors.As(err, &se) && strings.HasPrefix(se.Msg, "nested deeper than") {
		return codeInvalidRequest, tooDeep
	}
	return codeParseError, notJSON
}

// memberIndex is the index of a JSON-RPC member by its name, or -1 for any
// other: the one table the walk and the envelope scanner share.
func memberIndex(name string) int {
	switch name {
	case "jsonrpc":
		return memJSONRPC
	case "id":
		return memID
	case "method":
		return memMethod
	case "params":
		return memParams
	case "result":
		return memResult
	case "error":
		return memError
	}
	return -1
}

// envelopeOf checks the members JSON-RPC 2.0 requires of a request,
// notification or response, and returns the problem in words.
func envelopeOf(m [memberCount][]byte) (*Message, string) {
	if m[memJSONRPC] == nil {
		return nil, `the "jsonrpc" member is missing`
	}
	if v, ok := jsonString(m[memJSONRPC]); !ok || v != "2.0" {
		return nil, fmt.Sprintf(`"jsonrpc" is %.40s, want "2.0"`, m[memJSONRPC])
	}
	msg := &Message{result: m[memResult], err: m[memError]}
	if m[memMethod] != nil {
		var ok bool
		if msg.Method, ok = jsonString(m[memMethod]); !ok {
			return nil, `"method" is not a string`
		}
		if msg.Method == "" {
			return nil, `"method" is empty`
		}
	}
	if m[memID] != nil {
		key, problem := IDKey(m[memID])
		if problem != "" {
			return nil, problem
		}
		msg.HasID, msg.id, msg.Key = true, m[memID], key
	}
	if msg.Method == "" {
		if !msg.HasID {
			return nil, `a message without "method" is a response and needs an "id"`
		}
		if msg.result == nil && msg.err == nil {
			return nil, `a message without "method" is a response and needs "result" or "error"`
		}
	}
	if p := m[memParams]; p != nil && string(p) != "null" {
		msg.Params = p
	}
	return msg, ""
}

// jsonString decodes a JSON string already known to be valid.
func jsonString(raw []byte) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if j := jsontext.Plain(raw, 1); j == len(raw)-1 {
		return string(raw[1:j]), true
	}
	out, _, err := jsontext.AppendString(nil, raw, 1)
	return string(out), err == nil
}

// idKey checks an id, a string, an integer that fits in 64 bits or null
// (JSON-RPC allows it), and returns its key: the same for the same id
// however it is spelt, when it is a string, and the integer as written.
func IDKey(raw []byte) (key, problem string) {
	switch {
	case len(raw) > 0 && raw[0] == '"':
		s, ok := jsonString(raw)
		if !ok {
			return "", `"id" is not a valid string`
		}
		return "s" + s, ""
	case string(raw) == "null":
		return "null", ""
	case isInteger(raw):
		if _, err := strconv.ParseInt(string(raw), 10, 64); err != nil {
			return "", fmt.Sprintf(`"id" %.40s does not fit in 64 bits`, raw)
		}
		return "n" + string(raw), ""
	}
	return "", fmt.Sprintf(`"id" is %.40s, want a string or an integer`, raw)
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

// refuse answers a message over a limit, from what the envelope scanner
// found of it: with its id when it is a request whose id could be read,
// so that the client's call ends; as a Dropped notification when it is
// one.
func (t *Transport) refuse(sc *envelopeScanner, reason string) {
	t.logf("refused a message: %s", reason)
	var spans [memberCount][]byte
	for _, m := range []int{memJSONRPC, memID, memMethod, memResult, memError} {
		switch mb := sc.members[m]; {
		case !mb.present:
		case m == memResult || m == memError || mb.long:
			// Not captured (result, error) or too long to be read:
			// present, and neither a string nor an id.
			spans[m] = []byte(`{}`)
		default:
			spans[m] = mb.raw
		}
	}
	msg, problem := envelopeOf(spans)
	switch {
	case problem == "" && msg.Method == "":
		// A response: nothing answers a response.
	case problem == "" && msg.HasID:
		t.replyError(msg.id, codeInvalidRequest, reason)
	case problem == "":
		if t.onDropped != nil {
			var uri string
			if u := sc.members[memURI]; u.present && !u.long {
				uri, _ = jsonString(u.raw)
			}
			t.onDropped(Dropped{Method: msg.Method, URI: uri, Reason: reason})
		}
	default:
		t.replyError(nil, codeInvalidRequest, reason)
	}
}

// replyError writes an error response; id nil is null.
func (t *Transport) replyError(id []byte, code int64, message string) {
	if err := t.WriteParts(responseHead(id), errorMember(code, message)); err != nil {
		t.logf("could not answer an invalid message: %v", err)
	}
}

// WriteParts writes one message whose body is the parts one after the
// other: a large one need not be put together first.
func (t *Transport) WriteParts(parts ...[]byte) error {
	return t.WriteStream(func(emit func([]byte) error) error {
		for _, p := range parts {
			if err := emit(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteStream writes one message whose body produce emits in parts. It
// calls produce twice, to measure the body for the header and then to
// write it, so that a large body need never exist whole: a part may be a
// buffer produce reuses once emit returns. produce must emit the same
// bytes both times.
func (t *Transport) WriteStream(produce func(emit func([]byte) error) error) error {
	size := 0
	if err := produce(func(p []byte) error { size += len(p); return nil }); err != nil {
		return fmt.Errorf("writing a message: %w", err)
	}
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if _, err := fmt.Fprintf(t.out, "Content-Length: %d\r\n\r\n", size); err != nil {
		return fmt.Errorf("writing a message: %w", err)
	}
	written := 0
	err := produce(func(p []byte) error {
		written += len(p)
		_, err := t.out.Write(p)
		return err
	})
	if err == nil && written != size {
		err = fmt.Errorf("a body of %d bytes, measured at %d", written, size)
	}
	if err == nil {
		err = t.out.Flush()
	}
	if err != nil {
		t.out.Reset(t.rwc) // what is left of the message is not sent with the next
		return fmt.Errorf("writing a message: %w", err)
	}
	return nil
}

// Close closes the connection under the transport.
func (t *Transport) Close() error { return t.rwc.Close() }
