package transport

import (
	"bytes"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// envelopeScanner reads a message the transport refuses, one over the
// size limit or nested too deep, for what its answer needs: the raw text
// of jsonrpc, id and method, whether it has params, a result or an error,
// and params.textDocument.uri for a refused didOpen. It validates nothing
// (the message is refused anyway) and never recurses; it is fed in
// chunks, so that a body over the size limit can be read through without
// being kept, and skips strings, nearly all of a didOpen's bytes, with
// jsontext.SkipString.
type envelopeScanner struct {
	off  int // bytes fed so far
	nest jsontext.Nesting

	inStr, esc bool
	strIsKey   bool
	inScalar   bool
	expectKey  bool // the next string at this depth is a member name

	// keys[d] is the name of the member being read at depth d (1..3),
	// kept only when short: only short names are looked for.
	keys    [4][]byte
	keyLong [4]bool
	keyBuf  []byte
	keyOver bool

	members [memberCount]member
	cur     *member // the member whose value is being captured
	curAt   int     // where cur's value starts in the chunk being fed
}

// member is one member's value as it appeared in the body.
type member struct {
	present    bool
	start, end int    // offsets in the body
	raw        []byte // its text, up to maxCapture bytes
	long       bool   // the text was longer than maxCapture
	depth      int
}

const (
	memJSONRPC = iota
	memID
	memMethod
	memParams
	memResult
	memError
	memURI // params.textDocument.uri
	memberCount
)

// maxCapture bounds the text kept of one member: ids, methods and URIs
// are short, and the transport must not keep a copy of an oversized body.
const maxCapture = 64 << 10

func newEnvelopeScanner(maxDepth int) *envelopeScanner {
	return &envelopeScanner{nest: jsontext.NewNesting(maxDepth)}
}

// feed scans the next chunk of the body.
func (s *envelopeScanner) feed(b []byte) {
	base := s.off
	if s.cur != nil {
		s.curAt = 0
	}
	for i := 0; i < len(b); {
		if s.inStr {
			i = s.skipString(b, i, base)
			continue
		}
		c := b[i]
		if s.inScalar && jsontext.EndsScalar(c) {
			s.inScalar = false
			s.valueEnd(b, i, base)
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '{', '[':
			s.valueStart(b, i, base)
			s.open(c)
		case '}', ']':
			s.close(c)
			s.valueEnd(b, i+1, base)
		case ',':
			s.expectKey = s.nest.InObject()
		case ':':
			s.expectKey = false
		case '"':
			if s.expectKey {
				s.strIsKey = true
				s.keyBuf, s.keyOver = s.keyBuf[:0], false
			} else {
				s.strIsKey = false
				s.valueStart(b, i, base)
			}
			s.inStr = true
		default:
			if !s.inScalar {
				s.valueStart(b, i, base)
				s.inScalar = true
			}
		}
		i++
	}
	if s.cur != nil {
		s.capture(b[s.curAt:])
	}
	s.off += len(b)
}

// finish ends the body: a scalar at its very end ends with it.
func (s *envelopeScanner) finish() {
	if s.inScalar {
		s.inScalar = false
		s.valueEnd(nil, 0, s.off)
	}
}

// skipString moves through a string from b[i] (jsontext.SkipString) and
// returns where scanning goes on: past the closing quote, or at the end
// of the chunk.
func (s *envelopeScanner) skipString(b []byte, i, base int) int {
	next, open, pending := jsontext.SkipString(b, i, s.esc)
	s.esc = pending
	if open {
		s.keyText(b[i:])
		return next
	}
	s.keyText(b[i : next-1])
	s.inStr = false
	if s.strIsKey {
		s.endKey()
	} else {
		s.valueEnd(b, next, base)
	}
	return next
}

func (s *envelopeScanner) keyText(t []byte) {
	if !s.strIsKey || s.keyOver {
		return
	}
	if len(s.keyBuf)+len(t) > 32 {
		s.keyOver = true
		return
	}
	s.keyBuf = append(s.keyBuf, t...)
}

// endKey records the name just read as the member name at this depth.
func (s *envelopeScanner) endKey() {
	s.expectKey = false
	d := s.nest.Depth()
	if d < 1 || d >= len(s.keys) {
		return
	}
	s.keys[d] = append(s.keys[d][:0], s.keyBuf...)
	s.keyLong[d] = s.keyOver || bytes.IndexByte(s.keyBuf, '\\') >= 0
}

func (s *envelopeScanner) open(c byte) {
	s.nest.Open(c)
	if d := s.nest.Depth(); d < len(s.keys) {
		s.keys[d] = s.keys[d][:0]
		s.keyLong[d] = false
	}
	s.expectKey = c == '{'
}

func (s *envelopeScanner) close(c byte) {
	s.nest.Close(c)
	s.expectKey = false
}

// valueStart notes a value beginning at b[i], when it is a member the
// transport looks for.
func (s *envelopeScanner) valueStart(b []byte, i, base int) {
	depth := s.nest.Depth()
	if depth == 0 || s.cur != nil {
		return
	}
	m := s.wanted()
	switch m {
	case -1:
		return
	case memParams, memResult, memError:
		// Only their presence matters; params.textDocument.uri is
		// captured inside params.
		s.members[m] = member{present: true, start: base + i, depth: depth}
		return
	}
	s.cur = &s.members[m]
	*s.cur = member{present: true, start: base + i, depth: depth, raw: s.cur.raw[:0]}
	s.curAt = i
}

// valueEnd notes that a value ended just before b[i] at the current
// depth; it ends the capture of the member that started at this depth.
func (s *envelopeScanner) valueEnd(b []byte, i, base int) {
	depth := s.nest.Depth()
	if s.cur == nil || s.cur.depth != depth {
		return
	}
	if b != nil {
		s.capture(b[s.curAt:i])
	}
	s.cur.end = base + i
	s.cur = nil
}

func (s *envelopeScanner) capture(t []byte) {
	m := s.cur
	if m.long || len(m.raw)+len(t) > maxCapture {
		m.long = true
		return
	}
	m.raw = append(m.raw, t...)
}

// wanted returns which member the value starting now is, or -1.
func (s *envelopeScanner) wanted() int {
	kept := s.nest.Kept()
	switch s.nest.Depth() {
	case 1:
		if len(kept) == 0 || kept[0] != '{' || s.keyLong[1] {
			return -1
		}
		return memberIndex(string(s.keys[1]))
	case 3:
		if string(kept) == "{{{" && !s.keyLong[1] && !s.keyLong[2] && !s.keyLong[3] &&
			string(s.keys[1]) == "params" && string(s.keys[2]) == "textDocument" && string(s.keys[3]) == "uri" {
			return memURI
		}
	}
	return -1
}
