// Package lsp serves the Language Server Protocol for review exchange
// files. Handlers are thin: each looks the document up, waits for its
// version's analysis and calls one function of the features package;
// this package owns the session state (snapshots, each analysed by
// reviewfile.Analyze, the reviews in scope, source documents, body files)
// and converts between byte offsets and
// protocol positions. Its messages come and go through the transport
// package, which frames, bounds and validates them and knows no session.
// It holds no user-facing sentence: words come from the features.
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/branch"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/transport"
	"github.com/leanreview/lreview-lsp/internal/verdict"
)

// DefaultDebounce is the pause after a change before the analysis: long
// enough to take the changes an editor sends for one action (a macro, a
// multi-step edit), which come within a millisecond, as one; short
// enough that a keystroke never waits for it. A document whose analyses
// are slower than the typing waits for a pause instead (file.debounce).
const DefaultDebounce = 2 * time.Millisecond

// Options configures a Server.
type Options struct {
	// Version is reported in initialize's serverInfo.
	Version string
	// Debounce is how long the server waits after a change before
	// analyzing: 0 analyzes at once. The command uses DefaultDebounce.
	Debounce time.Duration
	// Now returns the current time, for `at` stamps (tests pin it).
	Now func() time.Time
	// Log receives what the server cannot tell the client: why the
	// stream could not be read any further, and the messages it refused.
	// The command passes standard error; nil discards it.
	Log io.Writer
	// Poll is how often the poller (watch.go) looks at the body files,
	// and at the reviewed files for a client that does not watch them:
	// 0 is DefaultPoll; less than 0 never at the reviewed files, and
	// DefaultPoll at the body files.
	Poll time.Duration

	// git replaces branch.Run (tests: count or hold git's runs).
	git branch.Git
	// analyze replaces reviewfile.Analyze (tests: a slow or failing analysis).
	analyze analyzeFunc
	// testRequests adds methods to the server's own (tests: requests
	// that block or panic), so that the production table has none.
	testRequests map[string]requestFunc
	// testNotifications replaces notification handlers (tests: one that
	// panics).
	testNotifications map[string]notificationFunc
	// bodyWaiting is called each time lreview.showBody starts waiting
	// for a newer version (tests: a change sent only once it waits).
	bodyWaiting func()
}

type lifecycle uint8

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// Server is one LSP session over one connection.
type Server struct {
	opts Options
	conn *transport.Conn
	tr   *transport.Transport
	// requests and notifications are the dispatch tables (methods.go).
	requests      map[string]requestFunc
	notifications map[string]notificationFunc

	mu       sync.Mutex
	state    lifecycle
	enc      exchange.Encoding
	settings Settings
	files    map[protocol.DocumentURI]*file
	// versionMade is closed, and replaced, when a document's snapshot is
	// made (newSnapshot): what waits for a newer version waits on it.
	versionMade chan struct{}
	inflight    map[string]context.CancelFunc // by transport.IDKey
	// closed is set, under mu, when Serve is returning: no request or
	// analysis starts after it, so that Serve can wait for those running.
	closed bool
	// bg is cancelled when Serve returns; debounced analyses wait on it.
	bg     context.Context
	stopBG context.CancelFunc
	exit   chan int
	// wg counts the request handlers and analyses running; Add happens
	// under mu while !closed, so it never races Serve's Wait.
	wg sync.WaitGroup
	// handling counts the request handlers alone: when the client's
	// stream ends, those it sent are answered before the connection
	// closes (a client may pipe its requests in and close its end).
	handling sync.WaitGroup

	// wt is what the session knows of working trees (worktree.go).
	wt *worktreeState
	// contracts is the contract axis's state (contract.go).
	contracts contractState
	// sums are the finalized reviews' patch sums (verdict.go).
	sums verdict.Sums
	// visual renders the visual axis in the background (verdict.go).
	visual visualState
	// branches are the staleness banner's answers from git (branch.go).
	branches branchState
	// src is the source documents and the reviews in scope (sources.go).
	src *sourceState
	// versions orders each open document's changes (versions.go).
	versions versionGate
	// bodies are the bodies opened as files (bodyfile.go).
	bodies bodyFiles
	// shapes are the working trees' code graphs and the reviews' shapes
	// (shape.go).
	shapes shapeState

	// outbox is the publishDiagnostics waiting to be sent, one per URI,
	// under mu (publish.go).
	outbox map[protocol.DocumentURI]*outgoing
	// pubMu is held by the one goroutine that sends the outbox, so that
	// the publishes of a URI reach the client in the order they were
	// taken from it (publish.go).
	pubMu sync.Mutex

	// polling is set once the poller started (watch.go).
	polling atomic.Bool
	// resultIDs counts the semantic tokens results made (their ids).
	resultIDs atomic.Uint64
	// client is the rest of what the client declared at initialize,
	// under mu.
	client clientCaps
}

// NewServer returns a server ready to Serve one connection.
func NewServer(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	bg, stop := context.WithCancel(context.Background())
	requests, notifications := methods()
	for m, h := range opts.testRequests {
		requests[m] = h
	}
	for m, h := range opts.testNotifications {
		notifications[m] = h
	}
	return &Server{
		opts:          opts,
		requests:      requests,
		notifications: notifications,
		files:         map[protocol.DocumentURI]*file{},
		versionMade:   make(chan struct{}),
		outbox:        map[protocol.DocumentURI]*outgoing{},
		inflight:      map[string]context.CancelFunc{},
		bg:            bg,
		stopBG:        stop,
		exit:          make(chan int, 1),
		wt:            newWorktreeState(),
		src:           newSourceState(),
		versions:      versionGate{docs: map[protocol.DocumentURI]*docVersions{}},
		branches:      branchState{running: map[string]bool{}},
		shapes:        shapeState{graphs: map[string]*graphEntry{}, shapes: map[protocol.DocumentURI]*shapeEntry{}},
	}
}

// Serve runs the session on rwc until the client sends `exit` or the
// stream ends, and returns the process exit code the protocol asks for:
// 0 after shutdown, 1 otherwise.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	s.tr = transport.New(rwc, s.opts.Log, s.dropped)
	s.conn = transport.NewConn(s.tr, s.handling.Wait)
	go s.conn.Run(ctx, s.handle)
	var code int
	select {
	case code = <-s.exit:
	case <-s.conn.Done():
		code = 1
		s.mu.Lock()
		if s.state == stateShutdown {
			code = 0
		}
		s.mu.Unlock()
	case <-ctx.Done():
		code = 1
	}
	s.close()
	return code
}

// close ends the session's work: pending analyses never start, running
// requests are cancelled, and close returns once none of them runs, so
// that nothing of the session outlives Serve.
func (s *Server) close() {
	s.mu.Lock()
	s.closed = true
	for _, f := range s.files {
		if f.timer != nil {
			f.timer.Stop()
		}
	}
	for _, cancel := range s.inflight {
		cancel()
	}
	s.mu.Unlock()
	s.stopBG()
	s.conn.Close()
	s.wg.Wait()
}

// handle runs in the connection's read loop. Notifications that change
// state are applied here, in order; requests capture the documents as they
// are now and run concurrently, so that a slow request never delays the
// next edit and `$/cancelRequest` can reach it.
func (s *Server) handle(ctx context.Context, msg *transport.Message) {
	method := msg.Method
	isCall := msg.HasID

	s.mu.Lock()
	state := s.state
	s.mu.Unlock()

	if !isCall {
		if method == "exit" {
			code := 1
			if state == stateShutdown {
				code = 0
			}
			select {
			case s.exit <- code:
			default:
			}
			return
		}
		if state == stateNew {
			return // notifications before initialize are dropped, as the spec says
		}
		s.notified(ctx, method, msg.Params)
		return
	}

	switch {
	case method == "initialize" && state != stateNew:
		_ = s.conn.Reply(msg, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already called"))
		return
	case method != "initialize" && state == stateNew:
		_ = s.conn.Reply(msg, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized: send initialize first"))
		return
	case state == stateShutdown:
		_ = s.conn.Reply(msg, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted"))
		return
	}
	h, ok := s.requests[method]
	if !ok {
		_ = s.conn.Reply(msg, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("method not supported: %s", method)))
		return
	}
	if method == "initialize" || method == "shutdown" {
		// These change the lifecycle state and must take effect before the
		// next message is read.
		result, err := s.call(ctx, &requestView{Server: s}, method, h, msg.Params)
		_ = s.conn.Reply(msg, result, err)
		return
	}

	s.goRequest(ctx, msg, h)
}

// notified runs a notification's handler, once the session accepts it.
func (s *Server) notified(ctx context.Context, method string, params json.RawMessage) {
	h, ok := s.notifications[method]
	if !ok {
		return // unknown notifications ($/setTrace, ...) are ignored
	}
	s.safely(method, func() {
		if err := h(ctx, s, params); err != nil {
			s.logf(protocol.MessageTypeError, "%s: %v", method, err)
		}
	})
}

// goRequest runs a request on its own goroutine, with the documents as
// they are now, cancellable by `$/cancelRequest` and by the exit.
func (s *Server) goRequest(ctx context.Context, call *transport.Message, h requestFunc) {
	reqCtx, cancel := context.WithCancel(ctx)
	s.releaseAllHeld()
	v := s.view()
	id := call.Key
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		v.release()
		cancel()
		_ = s.conn.Reply(call, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is exiting"))
		return
	}
	s.inflight[id] = cancel
	s.wg.Add(1)
	s.handling.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer s.handling.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, id)
			s.mu.Unlock()
			cancel()
			v.release()
		}()
		result, err := s.call(reqCtx, v, call.Method, h, call.Params)
		if reqCtx.Err() != nil && ctx.Err() == nil {
			result, err = nil, jsonrpc2.NewError(protocol.CodeRequestCancelled, "request cancelled")
		} else if modified := v.superseded(answersWithEdits(call.Method)); modified != nil {
			result, err = nil, modified
		}
		if werr := s.conn.Reply(call, result, err); werr != nil {
			s.logf(protocol.MessageTypeError, "answering %s: %v", call.Method, werr)
		}
	}()
}

// answersWithEdits reports whether method's result is edits of the text
// it was computed on. Applied to a newer version they would corrupt it
// (TextEdit[] and WorkspaceEdit.changes name no version), so they are
// never sent once a newer version came.
func answersWithEdits(method string) bool {
	switch method {
	case "textDocument/codeAction", "textDocument/formatting":
		return true
	}
	return false
}

// call runs a request handler. A panic is an internal error, never a null
// result a client would take for an answer; any error that is not already
// a protocol error is reported as an internal one.
func (s *Server) call(ctx context.Context, v *requestView, method string, h requestFunc, params json.RawMessage) (any, error) {
	var result any
	err := fmt.Errorf("internal error in %s (see the server log)", method)
	s.safely(method, func() { result, err = h(ctx, v, params) })
	if errors.Is(err, errNotOpen) {
		return nil, nil
	}
	if err != nil {
		if _, ok := err.(*jsonrpc2.Error); !ok {
			err = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		return nil, err
	}
	return result, nil
}

// safely runs fn, turning a panic into a log line so that one bad request
// never takes the session down.
func (s *Server) safely(method string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.logf(protocol.MessageTypeError, "panic in %s: %v\n%s", method, r, debug.Stack())
		}
	}()
	fn()
}

// logf sends a window/logMessage notification.
func (s *Server) logf(typ protocol.MessageType, format string, args ...any) {
	if s.conn == nil {
		return
	}
	_ = s.conn.Notify(context.Background(), "window/logMessage", &protocol.LogMessageParams{Type: typ, Message: fmt.Sprintf(format, args...)})
}

// requestFunc serves a request, with the documents as they were when it
// arrived.
type requestFunc func(ctx context.Context, v *requestView, params json.RawMessage) (any, error)
type notificationFunc func(ctx context.Context, s *Server, params json.RawMessage) error

// request adapts a typed handler to the dispatch table. Params are decoded
// with the same fast decoder the transport uses: a didOpen carries the
// whole review as escaped text.
func request[P any, R any](fn func(ctx context.Context, v *requestView, params *P) (R, error)) requestFunc {
	return func(ctx context.Context, v *requestView, raw json.RawMessage) (any, error) {
		var p P
		if len(raw) > 0 && string(raw) != "null" {
			if err := fastjson.Unmarshal(raw, &p); err != nil {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
			}
		}
		return fn(ctx, v, &p)
	}
}

// notification adapts a typed notification handler.
func notification[P any](fn func(ctx context.Context, s *Server, params *P) error) notificationFunc {
	return func(ctx context.Context, s *Server, raw json.RawMessage) error {
		var p P
		if len(raw) > 0 && string(raw) != "null" {
			if err := fastjson.Unmarshal(raw, &p); err != nil {
				return err
			}
		}
		return fn(ctx, s, &p)
	}
}

// cancelParams keeps the request id as the client wrote it, to be keyed
// as the request's was (idKey; the protocol library's own struct rejects
// numeric ids).
type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

// shutdown moves the session to its last state: only exit is accepted.
func shutdown(ctx context.Context, v *requestView, _ json.RawMessage) (any, error) {
	v.mu.Lock()
	v.state = stateShutdown
	v.mu.Unlock()
	return nil, nil
}

// cancelRequest cancels a request in flight.
func cancelRequest(ctx context.Context, s *Server, p *cancelParams) error {
	id, problem := transport.IDKey(bytes.TrimSpace(p.ID))
	if problem != "" {
		return nil
	}
	s.mu.Lock()
	cancel := s.inflight[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return nil
}
