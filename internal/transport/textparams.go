package transport

import (
	"bytes"
	"errors"
	"fmt"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The params of didOpen and didChange carry the whole document as escaped
// JSON, nearly all of the message. A general decoder makes a Go string of
// the text, and the server then copies it into the []byte the parser
// reads; this small decoder unescapes the text fields in place, in one
// pass (jsontext.Unescape), so that the text is a slice of the params, and
// leaves the few other members to fastjson. The params must be the
// caller's to overwrite and must never change afterwards: the transport
// gives each message a buffer of its own.

// OpenParams is didOpen's params with the text as bytes.
type OpenParams struct {
	TextDocument OpenedDocument
}

// OpenedDocument is the document a didOpen opens.
type OpenedDocument struct {
	URI        protocol.DocumentURI
	LanguageID string
	Version    int32
	Text       []byte
}

// ChangeParams is didChange's params with the text as bytes and the range
// optional: the protocol library's struct cannot tell a whole-document
// change from an insertion at the top of the file.
type ChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier
	ContentChanges []ContentChange
}

// ContentChange is one change; a nil Range replaces the whole text.
type ContentChange struct {
	Range *protocol.Range
	Text  []byte
}

// DecodeOpenParams decodes didOpen's params, the text in place.
func DecodeOpenParams(raw []byte) (*OpenParams, error) {
	p := &OpenParams{}
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
		return nil, d.failed("didOpen", err)
	}
	return p, nil
}

// DecodeChangeParams decodes didChange's params, the texts in place.
func DecodeChangeParams(raw []byte) (*ChangeParams, error) {
	p := &ChangeParams{}
	d := &paramsReader{b: raw}
	err := d.object(func(key []byte) error {
		switch string(key) {
		case "textDocument":
			return d.member(&p.TextDocument)
		case "contentChanges":
			return d.array(func() error {
				var ch ContentChange
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
		return nil, d.failed("didChange", err)
	}
	return p, nil
}

// paramsReader walks one JSON value. Work is linear in its length and
// nesting is bounded, whatever the input.
type paramsReader struct {
	b     []byte
	i     int
	depth int
}

const maxParamsDepth = 64

var errEnd = errors.New("unexpected end of params")

func (d *paramsReader) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", d.i, fmt.Sprintf(format, args...))
}

func (d *paramsReader) ws() { d.i = jsontext.SkipSpace(d.b, d.i) }

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
		end, ok := jsontext.Literal(d.b, d.i)
		if !ok || end-d.i != len("null") {
			return d.errorf("expected null")
		}
		d.i = end
		return nil
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
	return d.str()
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

// skip steps over the next value, checking its syntax (jsontext.SkipValue)
// within what is left of the nesting allowed.
func (d *paramsReader) skip() error {
	next, err := jsontext.SkipValue(d.b, d.i, maxParamsDepth-d.depth)
	d.i = next
	return err
}

// text decodes the string at the reader in place (jsontext.Unescape):
// its bytes, unescaped, are written over its escaped ones from the start.
// The result is capped, so that an append to it copies.
func (d *paramsReader) text() ([]byte, error) {
	if c, err := d.peek(); err != nil || c != '"' {
		return nil, d.errorf("expected a string")
	}
	start := d.i + 1
	n, next, err := jsontext.Unescape(d.b, start)
	d.i = next
	if err != nil {
		return nil, d.errorf("%v", err)
	}
	text := d.b[start : start+n : start+n]
	if len(d.b)-n > n/16 {
		// Kept as long as its document is open, the text would keep the
		// message's buffer alive, which the text's escapes and the rest
		// of the message make longer: past a sixteenth, it gets a buffer
		// of its own.
		text = bytes.Clone(text)
		text = text[:n:n]
	}
	return text, nil
}

// failed is the error of a decode that failed: the params are valid JSON
// (the transport checked the message) of the wrong shape.
func (d *paramsReader) failed(method string, err error) error {
	return fmt.Errorf("%s params: %w", method, err)
}

// str decodes the string whose opening quote is at the reader, into a new
// buffer, or as a slice of the params when it has no escapes.
func (d *paramsReader) str() ([]byte, error) {
	start := d.i + 1
	if j := jsontext.Plain(d.b, start); j < len(d.b) && d.b[j] == '"' {
		d.i = j + 1
		return d.b[start:j], nil
	}
	out, next, err := jsontext.AppendString(nil, d.b, start)
	d.i = next
	if err != nil {
		return nil, d.errorf("%v", err)
	}
	return out, nil
}
