package lsp

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// The params of didOpen and didChange carry the document: megabytes of
// escaped JSON on a large review. A general decoder makes a Go string of
// the text, and the server then copies it into the []byte the parser
// reads; this small decoder unescapes the text fields in place, in one
// pass, so that the text is a slice of the params, and leaves the few
// other members to fastjson. The params must be the caller's to overwrite
// and must never change afterwards: the transport gives each message a
// buffer of its own, and so does jsonrpc2.

// errParamsNotJSON is a decode's error when the params are not JSON at
// all, which only params the transport handed over unread can be.
var errParamsNotJSON = errors.New("the params are not valid JSON")

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
		return nil, d.failed("didOpen", err)
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
	// decoded are the spans of b that text overwrote.
	decoded [][2]int
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
	return d.str()
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
		_, err := d.str()
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

// plainRun returns the offset of the first byte of b from i on that a
// string must not hold as it is: a quote, a backslash or a control
// character. An 8 MB document's text is one string of the didOpen
// message, so it is scanned eight bytes at a time: a byte below 0x20
// sets its high bit in (x - 0x20·ones) &^ x, and a zero byte of x^(c·ones)
// is a byte equal to c. Borrows flag bytes only above a real match, so
// the lowest flag is the first special byte.
func plainRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(x uint64) uint64 { return (x - ones) &^ x }
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := ((x-0x20*ones)&^x | hasZero(x^('"'*ones)) | hasZero(x^('\\'*ones))) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// text decodes the string at the reader in place: its bytes, unescaped,
// are written over its escaped ones from the start. An escape is never
// shorter than what it stands for, so writing never overtakes reading.
// The result is capped, so that an append to it copies.
func (d *paramsReader) text() ([]byte, error) {
	if c, err := d.peek(); err != nil || c != '"' {
		return nil, d.errorf("expected a string")
	}
	b := d.b
	d.i++
	start := d.i
	w := start // where the next unescaped byte goes
	for {
		j := plainRun(b, d.i)
		if w != d.i {
			copy(b[w:], b[d.i:j])
		}
		w += j - d.i
		d.i = j
		var err error
		switch {
		case j >= len(b):
			err = errEnd
		case b[j] == '"':
			d.i++
			d.decoded = append(d.decoded, [2]int{start, j})
			return b[start:w:w], nil
		case b[j] < 0x20:
			err = d.errorf("control character %#x in a string", b[j])
		case j+1 < len(b) && (b[j+1] == 'n' || b[j+1] == '"' || b[j+1] == '\\'):
			// The escapes of a JSON text, nearly all a review's, spared
			// the call.
			c := b[j+1]
			if c == 'n' {
				c = '\n'
			}
			b[w] = c
			w++
			d.i += 2
		default:
			var out []byte
			out, err = d.escape(b[start:w]) // its appends write into b
			w = start + len(out)
		}
		if err != nil {
			// b[start:j] was read as valid string bytes; nothing from j
			// on was written.
			d.decoded = append(d.decoded, [2]int{start, j})
			return nil, err
		}
	}
}

// failed is the error of a decode that failed. The text decoded in place
// is replaced by letters first, which leaves valid JSON valid and broken
// JSON broken, to tell params that are not JSON at all (answered as a
// parse error) from params of the wrong shape (logged).
func (d *paramsReader) failed(method string, err error) error {
	for _, span := range d.decoded {
		for k := span[0]; k < span[1]; k++ {
			d.b[k] = 'x'
		}
	}
	if !json.Valid(d.b) {
		return fmt.Errorf("%s params: %w", method, errParamsNotJSON)
	}
	return fmt.Errorf("%s params: %w", method, err)
}

// str decodes the string whose opening quote is at the reader, into a new
// buffer, or as a slice of the params when it has no escapes.
func (d *paramsReader) str() ([]byte, error) {
	d.i++
	b := d.b
	j := plainRun(b, d.i)
	if j < len(b) && b[j] == '"' {
		s := b[d.i:j]
		d.i = j + 1
		return s, nil
	}
	out := make([]byte, 0, 32)
	for {
		j := plainRun(b, d.i)
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
