package lsp

import (
	"fmt"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// The one publisher: every textDocument/publishDiagnostics the server
// sends — a review's diagnostics, the comments on a source file, the
// empty list of a closed document, the one diagnostic of a dropped
// one — is handed to post as the body to write (a review's is written
// from its diagnostics when it is sent, the others are encoded whole),
// and post keeps one publish waiting per URI: a newer one for the same
// URI replaces it. While a client does not read (an editor busy with a
// large message), what was decided meanwhile replaces itself instead of
// each version waiting for the writer, and the last publish of a URI is
// always the one decided last.

// outgoing is a publish decided and not yet sent.
type outgoing struct {
	// body writes the message (see Transport.WriteStream).
	body func(emit func([]byte) error) error
	// f, sn and gen are set for a review's diagnostics: they are sent
	// only if sn is still f's latest version and no publish of f decided
	// later (gen) was sent first.
	f   *file
	sn  *snapshot
	gen uint64
}

// post queues a publish for uri, replacing the one waiting for it, and
// sends what waits unless another goroutine is sending (pubMu). A
// review's publish is dropped if its version is no longer the latest or
// a publish of the document decided later waits already.
func (s *Server) post(uri protocol.DocumentURI, out *outgoing) {
	s.mu.Lock()
	s.queueLocked(uri, out)
	s.mu.Unlock()
	s.sendOutgoing()
}

// queueLocked is post's queueing; s.mu must be held. A closing document
// queues its empty list under the same hold that removes it, so that no
// publish of it can be queued after.
func (s *Server) queueLocked(uri protocol.DocumentURI, out *outgoing) {
	if s.closed {
		return
	}
	if out.f != nil {
		if !s.isLatest(out.f, out.sn) {
			return
		}
		if old := s.outbox[uri]; old != nil && old.f == out.f && old.gen > out.gen {
			return
		}
	}
	s.outbox[uri] = out
}

// sendOutgoing sends the queued publishes, unless pubMu is held: its
// holder sends them when it lets go (unlockPub).
func (s *Server) sendOutgoing() {
	for s.hasOutgoing() && s.pubMu.TryLock() {
		for {
			body := s.takeOutgoing()
			if body == nil {
				break
			}
			_ = s.tr.WriteStream(body)
		}
		s.pubMu.Unlock()
	}
}

// unlockPub lets go of pubMu and sends what was decided while it was held.
func (s *Server) unlockPub() {
	s.pubMu.Unlock()
	s.sendOutgoing()
}

func (s *Server) hasOutgoing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.outbox) > 0
}

// takeOutgoing returns the body of a queued publish still worth sending,
// if any, and claims it (see file.claim): not a review's snapshot, which
// a write the client does not read would keep alive, only its
// diagnostics and mapper. s.pubMu must be held.
func (s *Server) takeOutgoing() func(emit func([]byte) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri, out := range s.outbox {
		delete(s.outbox, uri)
		if s.closed {
			continue
		}
		if out.f == nil || s.isLatest(out.f, out.sn) && out.f.claim(out.gen) {
			return out.body
		}
	}
	return nil
}

const publishPrefix = `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":`

// encodePublish encodes a whole publishDiagnostics notification of
// diagnostics in their protocol form (a source file's, a close's), without
// HTML escaping (messages quote code, full of < > and &), as
// encodeDiagnostics writes a review's.
func encodePublish(params *protocol.PublishDiagnosticsParams) ([]byte, error) {
	msg, err := fastjson.Append([]byte(publishPrefix), params, 0)
	if err != nil {
		return nil, fmt.Errorf("publishDiagnostics for %s: %w", params.URI, err)
	}
	return append(msg, '}'), nil
}

// whole is the body of a message encoded whole.
func whole(msg []byte) func(emit func([]byte) error) error {
	return func(emit func([]byte) error) error { return emit(msg) }
}

// lastWords is the publish that ends a document's diagnostics when it
// is closed (diags empty) or dropped (the diagnostic saying why).
func (s *Server) lastWords(uri protocol.DocumentURI, diags []protocol.Diagnostic) *outgoing {
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	msg, err := encodePublish(&protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: diags})
	if err != nil {
		s.logf(protocol.MessageTypeError, "%v", err)
		msg, _ = encodePublish(&protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return &outgoing{body: whole(msg)}
}
