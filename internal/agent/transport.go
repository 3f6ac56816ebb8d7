package agent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessage is the largest line the MCP transport reads: the language
// server's message limit, so that one limit holds for the whole project
// (a review's diff fits in diff_text with room for its escaping).
const MaxMessage = filewrite.MaxSize

// StdioTransport serves MCP on r and w, one JSON-RPC message a line.
//
// Why not the SDK's IOTransport alone: on a line that is not JSON, a
// batch, an id that is an object, a jsonrpc member missing or not "2.0",
// or a line over its limit, its read fails and the session ends with no
// reply: one stray line from a host kills the agent's tools. This
// transport reads the lines first and answers each malformed one itself
// with the error JSON-RPC 2.0 gives (−32700 parse error, −32600 invalid
// request; the id null when it cannot be read), then goes on; the lines
// that are messages pass to the SDK's transport, which does the rest.
// Batches are refused: MCP removed them (protocol 2025-06-18), and the
// SDK ends the session on one.
type StdioTransport struct {
	Reader io.Reader
	Writer io.Writer
	// Limit is the largest line read; MaxMessage when 0.
	Limit int
}

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	limit := t.Limit
	if limit <= 0 {
		limit = MaxMessage
	}
	w := &lineWriter{w: t.Writer}
	pr, pw := io.Pipe()
	go filterLines(t.Reader, pw, w, limit)
	// The lines are bounded here: the SDK's own cap is off.
	inner := &mcp.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}
	return inner.Connect(ctx)
}

// lineWriter writes whole messages, one Write each, so that the
// filter's replies and the SDK's never interleave. Closing it leaves
// the underlying writer open: standard output outlives the session.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return nil }

// filterLines copies the messages of r, one a line, to pw, and answers
// every line that is not a message on w. It ends at r's end or error, or
// when the SDK stops reading pw.
func filterLines(r io.Reader, pw *io.PipeWriter, w io.Writer, limit int) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, limit)
		if tooLong {
			writeError(w, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes (the limit of one line): not read", limit))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if id, code, msg := checkMessage(line); code != 0 {
				writeError(w, id, code, msg)
			} else if _, werr := pw.Write(append(bytes.TrimSpace(line), '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line of at most limit bytes; a longer one is read
// to its end and dropped (tooLong), so that memory stays bounded. err is
// io.EOF at the end of the input.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+1 || len(line)+len(chunk) == limit+1 && chunk[len(chunk)-1] != '\n' {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// checkMessage says whether line is one JSON-RPC 2.0 message the SDK can
// read: a code of 0, or the error code and message to answer, with the
// message's id when it has a valid one.
func checkMessage(line []byte) (any, int64, string) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: the line is not JSON (%v)", err)
	}
	switch bytes.TrimLeft(line, " \t\r\n")[0] {
	case '{':
	case '[':
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: a batch (a JSON array); MCP takes one message a line, without batches since protocol 2025-06-18"
	default:
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: a message is a JSON object"
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(line, &env); err != nil {
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	rawID, hasID := env["id"]
	id, idErr := messageID(rawID)
	if hasID && idErr != "" {
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: " + idErr
	}
	switch v, ok := env["jsonrpc"]; {
	case !ok:
		return id, jsonrpc.CodeInvalidRequest, `invalid request: the member "jsonrpc" is missing: it must be "2.0"`
	case string(v) != `"2.0"`:
		return id, jsonrpc.CodeInvalidRequest, fmt.Sprintf(`invalid request: "jsonrpc" is %s: it must be "2.0"`, v)
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return id, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return nil, 0, ""
}

// messageID reads a message's id: a string or an integer (MCP forbids
// null, and JSON-RPC fractions), or says what is wrong with it.
func messageID(raw json.RawMessage) (any, string) {
	var v any
	json.Unmarshal(raw, &v) // from a valid object: cannot fail
	switch v := v.(type) {
	case string:
		return v, ""
	case float64:
		if v == math.Trunc(v) && !bytes.ContainsAny(raw, ".eE") {
			return v, ""
		}
	}
	return nil, fmt.Sprintf(`"id" is %s: it must be a string or an integer`, bytes.TrimSpace(raw))
}

// writeError writes an error response: a reply to id, or to null.
func writeError(w io.Writer, id any, code int64, msg string) {
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg},
	})
	if err != nil {
		return // only strings and numbers: cannot fail
	}
	w.Write(append(data, '\n'))
}
