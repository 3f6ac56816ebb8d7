package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// The params of didOpen and didChange carry the document: megabytes of
// escaped JSON on a large review. A general decoder makes a Go string of
// the text, and the server then copies it into the []byte the parser
// reads; this small decoder unescapes the text fields straight into that
// buffer, in one pass, and leaves the few other members to fastjson.

// openParams is didOpen's params with the text as bytes.
type openParams struct {
	TextDocument openedDocument
}

type openedDocument struct {
	URI        protocol.DocumentURI
	LanguageID string
	Version    int32
	Text       []byte
}

// changeParams is didChange's params with the text as bytes and the range
// optional: the protocol library's struct cannot tell a whole-document
// change from an insertion at the top of the file.
type changeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier
	ContentChanges []contentChange
}

type contentChange struct {
	Range *protocol.Range
	Text  []byte
}

// textNotification adapts a didOpen or didChange handler to the dispatch
// table with its dedicated params decoder.
func textNotification[P any](decode func([]byte) (*P, error), fn func(ctx context.Context, s *Server, p *P) error) notificationFunc {
	return func(ctx context.Context, s *Server, raw json.RawMessage) error {
		p, err := decode(raw)
		if err != nil {
			return err
		}
		return fn(ctx, s, p)
	}
}

func decodeOpenParams(raw []byte) (*openParams, error) {
	p := &openParams{}
	d := &paramsReader{b: raw}
	err := d.object(func(key []byte) error {
		if string(key) != "textDocument" {
			return d.skip()
		}
		td := &p.TextDocument
		return d.object(func(key []byte) error {
			var err error
			switch string(key) {
			case "uri":
				err = d.member(&td.URI)
			case "languageId":
				err = d.member(&td.LanguageID)
			case "version":
				err = d.member(&td.Version)
			case "text":
				td.Text, err = d.text()
			default:
				err = d.skip()
			}
			return err
		})
	})
	if err == nil {
		err = d.end()
	}
	if err != nil {
		return nil, fmt.Errorf("didOpen params: %w", err)
	}
	return p, nil
}

func decodeChangeParams(raw []byte) (*changeParams, error) {
	p := &changeParams{}
	d := &paramsReader{b: raw}
	err := d.object(func(key []byte) error {
		switch string(key) {
		case "textDocument":
			return d.member(&p.TextDocument)
		case "contentChanges":
			return d.array(func() error {
				var ch contentChange
				err := d.object(func(key []byte) error {
					switch string(key) {
					case "range":
						return d.member(&ch.Range)
					case "text":
						var err error
						ch.Text, err = d.text()
						return err
					}
					return d.skip()
				})
				p.ContentChanges = append(p.ContentChanges, ch)
				return err
			})
		}
		return d.skip()
	})
	if err == nil {
		err = d.end()
	}
	if err != nil {
		return nil, fmt.Errorf("didChange params: %w", err)
	}
	return p, nil
}

// paramsReader walks one JSON value. Work is linear in its length and
// nesting is bounded, whatever the input.
type paramsReader struct {
	b     []byte
	i     int
	depth int
	// reserved is what text buffers were given beforehand (see str).
	reserved int
}

const maxParamsDepth = 64

var errEnd = errors.New("unexpected end of params")

func (d *paramsReader) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", d.i, fmt.Sprintf(format, args...))
}

func (d *paramsReader) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte that is not white space.
func (d *paramsReader) peek() (byte, error) {
	d.ws()
	if d.i >= len(d.b) {
		return 0, errEnd
	}
	return d.b[d.i], nil
}

// end checks that nothing but white space follows the value.
func (d *paramsReader) end() error {
	if _, err := d.peek(); err != errEnd {
		return d.errorf("unexpected text after the params")
	}
	return nil
}

// object reads an object, calling member with each key; member must read
// the value. A null is an absent object.
func (d *paramsReader) object(member func(key []byte) error) error {
	return d.container('{', '}', func() error {
		key, err := d.key()
		if err != nil {
			return err
		}
		if c, err := d.peek(); err != nil || c != ':' {
			return d.errorf("expected ':' after the member name %q", key)
		}
		d.i++
		if _, err := d.peek(); err != nil {
			return err
		}
		return member(key)
	})
}

// array reads an array, calling elem to read each element.
func (d *paramsReader) array(elem func() error) error {
	return d.container('[', ']', elem)
}

func (d *paramsReader) container(open, close byte, item func() error) error {
	c, err := d.peek()
	if err != nil {
		return err
	}
	if c == 'n' {
		return d.literal("null")
	}
	if c != open {
		return d.errorf("expected %q, got %q", open, c)
	}
	if d.depth++; d.depth > maxParamsDepth {
		return d.errorf("nested deeper than %d", maxParamsDepth)
	}
	defer func() { d.depth-- }()
	d.i++
	for n := 0; ; n++ {
		c, err := d.peek()
		if err != nil {
			return err
		}
		if c == close {
			d.i++
			return nil
		}
		if n > 0 {
			if c != ',' {
				return d.errorf("expected ',' or %q, got %q", close, c)
			}
			d.i++
		}
		if err := item(); err != nil {
			return err
		}
	}
}

// key reads a member name.
func (d *paramsReader) key() ([]byte, error) {
	if c, err := d.peek(); err != nil || c != '"' {
		return nil, d.errorf("expected a member name")
	}
	return d.str(false)
}

func (d *paramsReader) literal(word string) error {
	if len(d.b)-d.i < len(word) || string(d.b[d.i:d.i+len(word)]) != word {
		return d.errorf("expected %s", word)
	}
	d.i += len(word)
	return nil
}

// member decodes the next value, a small one, into v with fastjson.
func (d *paramsReader) member(v any) error {
	start := d.i
	if err := d.skip(); err != nil {
		return err
	}
	if err := fastjson.Unmarshal(d.b[start:d.i], v); err != nil {
		return fmt.Errorf("at byte %d: %w", start, err)
	}
	return nil
}

// skip steps over the next value, checking its syntax.
func (d *paramsReader) skip() error {
	c, err := d.peek()
	if err != nil {
		return err
	}
	switch {
	case c == '{':
		return d.object(func([]byte) error { return d.skip() })
	case c == '[':
		return d.array(d.skip)
	case c == '"':
		_, err := d.str(false)
		return err
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		start := d.i
		for d.i < len(d.b) && (d.b[d.i] >= '0' && d.b[d.i] <= '9' || d.b[d.i] == '-' || d.b[d.i] == '+' || d.b[d.i] == '.' || d.b[d.i] == 'e' || d.b[d.i] == 'E') {
			d.i++
		}
		if _, err := strconv.ParseFloat(string(d.b[start:d.i]), 64); err != nil {
			return d.errorf("bad number %q", d.b[start:d.i])
		}
		return nil
	}
	return d.errorf("unexpected %q", c)
}

// plain marks the bytes a string copies as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// text decodes the string at the reader into a new buffer sized for the
// rest of the params: the text is the last or nearly the last member, so
// the buffer is about the text's size, and it is read once.
func (d *paramsReader) text() ([]byte, error) {
	if c, err := d.peek(); err != nil || c != '"' {
		return nil, d.errorf("expected a string")
	}
	return d.str(true)
}

// str decodes the string whose opening quote is at the reader. A small
// one without escapes is returned as a slice of the params; own copies a
// large one into a buffer of its own, which the caller keeps.
func (d *paramsReader) str(own bool) ([]byte, error) {
	d.i++
	b := d.b
	j := d.i
	for j < len(b) && plain[b[j]] {
		j++
	}
	if !own && j < len(b) && b[j] == '"' {
		s := b[d.i:j]
		d.i = j + 1
		return s, nil
	}
	size := 32
	if rest := len(b) - d.i; own && d.reserved+rest <= len(b) {
		// The first large string gets room for the rest of the params;
		// any later one grows as it goes, so that many changes in one
		// message never reserve the message's size each.
		size = rest
		d.reserved += rest
	}
	out := make([]byte, 0, size)
	for {
		j := d.i
		for j < len(b) && plain[b[j]] {
			j++
		}
		out = append(out, b[d.i:j]...)
		d.i = j
		if j >= len(b) {
			return nil, errEnd
		}
		switch c := b[j]; {
		case c == '"':
			d.i++
			return out, nil
		case c < 0x20:
			return nil, d.errorf("control character %#x in a string", c)
		}
		var err error
		if out, err = d.escape(out); err != nil {
			return nil, err
		}
	}
}

// escape decodes the escape sequence at the reader onto out.
func (d *paramsReader) escape(out []byte) ([]byte, error) {
	b := d.b
	if d.i+1 >= len(b) {
		return nil, errEnd
	}
	c := b[d.i+1]
	d.i += 2
	switch c {
	case '"', '\\', '/':
		return append(out, c), nil
	case 'b':
		return append(out, '\b'), nil
	case 'f':
		return append(out, '\f'), nil
	case 'n':
		return append(out, '\n'), nil
	case 'r':
		return append(out, '\r'), nil
	case 't':
		return append(out, '\t'), nil
	case 'u':
		r, ok := d.hex4()
		if !ok {
			return nil, d.errorf("bad \\u escape")
		}
		if utf16.IsSurrogate(r) {
			// A pair makes one rune; a lone half is U+FFFD, as encoding/json has it.
			save := d.i
			if d.i+1 < len(b) && b[d.i] == '\\' && b[d.i+1] == 'u' {
				d.i += 2
				if r2, ok := d.hex4(); ok {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						return utf8.AppendRune(out, pair), nil
					}
				}
			}
			d.i = save
			r = utf8.RuneError
		}
		return utf8.AppendRune(out, r), nil
	}
	return nil, d.errorf("bad escape \\%c", c)
}

func (d *paramsReader) hex4() (rune, bool) {
	if len(d.b)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.b[d.i : d.i+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	d.i += 4
	return r, true
}
