package metamodel

import (
	"cmp"
	"encoding/json"
	"fmt"
	"sync"
)

// Session follows one conversation between a client and a server, to
// check each message the server sends: a response by the result type of
// the request it answers, a request or notification by its params type,
// and both by the rules of rules.go.
type Session struct {
	m  *Model
	mu sync.Mutex
	// asked are the client's requests not yet answered, by their id as
	// written.
	asked map[string]asked
	// caps are the capabilities the client declared at initialize.
	caps any
	// lost is set once the client sent what Session could not read: an
	// answer to an id it did not note is then no violation.
	lost bool
	// docs are the client's open documents, as it changed them.
	docs documents
}

// Lost tells the session that the client's stream can no longer be
// followed (bytes that are no message, a broken frame).
func (s *Session) Lost() {
	s.mu.Lock()
	s.lost = true
	s.mu.Unlock()
}

type asked struct {
	method string
	params any
	// uri and text are the document the request is about, as it was
	// when the request was sent (known is false when it is not open).
	uri, text string
	known     bool
}

// Checked is one server message and what is wrong with it.
type Checked struct {
	// Kind is "response", "request" or "notification".
	Kind   string
	Method string
	// Unknown is set when the model does not know the method (a test's
	// own request): only the envelope was checked.
	Unknown    bool
	Violations []Violation
}

// NewSession starts following a conversation.
func (m *Model) NewSession() *Session {
	return &Session{m: m, asked: map[string]asked{}}
}

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// FromClient notes a message the client sent; what is not a request
// (a notification, a response, bytes that are no message) is ignored.
func (s *Session) FromClient(body []byte) {
	var e envelope
	if json.Unmarshal(body, &e) != nil {
		s.Lost()
		return
	}
	if e.Method == nil {
		return
	}
	params, _ := Decode(orNull(e.Params))
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(e.ID) == 0 || string(e.ID) == "null" {
		s.docs.noted(*e.Method, params)
		return
	}
	a := asked{method: *e.Method, params: params}
	a.uri, _ = field(field(params, "textDocument"), "uri").(string)
	a.text, a.known = s.docs.texts[a.uri]
	s.asked[string(e.ID)] = a
	if *e.Method == "initialize" {
		s.caps = field(params, "capabilities")
	}
}

// FromServer checks a message the server sent.
func (s *Session) FromServer(body []byte) Checked {
	var e envelope
	if err := json.Unmarshal(body, &e); err != nil {
		return Checked{Kind: "unreadable", Violations: []Violation{{Message: fmt.Sprintf("not a JSON-RPC message: %v", err)}}}
	}
	if !json.Valid(body) || !hasVersion(body) {
		return Checked{Kind: "unreadable", Violations: []Violation{{Message: `lacks "jsonrpc": "2.0"`}}}
	}
	if e.Method != nil {
		return s.fromServerCall(e)
	}
	s.mu.Lock()
	a, ok := s.asked[string(e.ID)]
	delete(s.asked, string(e.ID))
	lost := s.lost
	s.mu.Unlock()
	c := Checked{Kind: "response", Method: a.method}
	switch {
	case !ok && string(e.ID) != "null" && !lost:
		c.Violations = append(c.Violations, Violation{Message: fmt.Sprintf("answers id %s, which no request of the client has (or had already been answered)", e.ID)})
	case e.Error != nil && e.Result != nil:
		c.Violations = append(c.Violations, Violation{Message: "has both result and error"})
	case e.Error != nil:
		c.Violations = append(c.Violations, s.responseError(e.Error)...)
	case e.Result == nil:
		c.Violations = append(c.Violations, Violation{Message: "has neither result nor error"})
	default:
		r := s.m.Request(a.method)
		if r == nil || r.Direction == "serverToClient" {
			c.Unknown = true
			return c
		}
		result, err := Decode(e.Result)
		if err != nil {
			c.Violations = append(c.Violations, Violation{Message: err.Error()})
			return c
		}
		c.Violations = append(c.Violations, s.m.Validate(r.Result, result)...)
		c.Violations = append(c.Violations, ResultRules(a.method, a.params, result)...)
		if a.method == "initialize" {
			s.mu.Lock()
			s.docs.enc, _ = field(field(result, "capabilities"), "positionEncoding").(string)
			s.mu.Unlock()
		}
		if a.known {
			s.mu.Lock()
			enc := cmp.Or(s.docs.enc, "utf-16")
			s.mu.Unlock()
			multiline, _ := field(field(field(s.capabilities(), "textDocument"), "semanticTokens"), "multilineTokenSupport").(bool)
			c.Violations = append(c.Violations, PositionRules(a.method, a.uri, a.text, enc, multiline, result)...)
		}
		c.Violations = append(c.Violations, CapabilityRules(s.capabilities(), c.Kind, c.Method, result)...)
	}
	return c
}

func (s *Session) fromServerCall(e envelope) Checked {
	c := Checked{Kind: "notification", Method: *e.Method}
	msg := s.m.Notification(c.Method)
	if len(e.ID) > 0 {
		c.Kind = "request"
		msg = s.m.Request(c.Method)
	}
	if msg == nil {
		c.Unknown = true
		c.Violations = append(c.Violations, Violation{Message: fmt.Sprintf("the model has no %s %s", c.Kind, c.Method)})
		return c
	}
	if msg.Direction == "clientToServer" {
		c.Violations = append(c.Violations, Violation{Message: fmt.Sprintf("%s is sent by clients only", c.Method)})
	}
	params, err := Decode(orNull(e.Params))
	switch {
	case err != nil:
		c.Violations = append(c.Violations, Violation{Message: err.Error()})
	case msg.Params == nil && e.Params != nil:
		c.Violations = append(c.Violations, Violation{Message: "has params; the model declares none"})
	case msg.Params != nil:
		c.Violations = append(c.Violations, s.m.Validate(msg.Params, params)...)
		c.Violations = append(c.Violations, CapabilityRules(s.capabilities(), c.Kind, c.Method, params)...)
	}
	return c
}

func (s *Session) capabilities() any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// responseError checks an error response's error object (JSON-RPC's
// ResponseError: an integer code, a message, any data).
func (s *Session) responseError(raw json.RawMessage) []Violation {
	v, err := Decode(raw)
	if err != nil {
		return []Violation{{Message: err.Error()}}
	}
	t := &Type{Kind: "literal", literal: []*property{
		{Name: "code", Type: &Type{Kind: "base", Name: "integer"}},
		{Name: "message", Type: &Type{Kind: "base", Name: "string"}},
		{Name: "data", Type: &Type{Kind: "reference", Name: "LSPAny"}, Optional: true},
	}}
	out := s.m.Validate(t, v)
	for i := range out {
		out[i].Path = "error" + out[i].Path
	}
	return out
}

func hasVersion(body []byte) bool {
	var e struct {
		JSONRPC string `json:"jsonrpc"`
	}
	return json.Unmarshal(body, &e) == nil && e.JSONRPC == "2.0"
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
