package exchange

import (
	"bytes"
	"fmt"
	"iter"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// Format returns doc rewritten in leanreview's canonical layout: the bytes
// leanreview's own writer (encoding/json's MarshalIndent with two spaces,
// HTML escaping off, and a final newline) produces for the same content, so
// that a formatted file survives a leanreview round trip unchanged.
//
// Unlike leanreview, Format never drops data: members are put in the spec's
// order (ReviewKeys, CommentKeys, ReplyKeys) and unknown members follow the
// known ones in their original order; duplicate members are all kept, in
// order; numbers keep their source spelling. The patch is written in array
// form, one diff line per element: a string patch and multi-line elements
// are split at line feeds (a carriage return before a line feed stays in its
// line, as leanreview keeps it), and the empty elements at the end are
// dropped because the final newline is implied.
//
// Format refuses a document with syntax errors (the tree is a guess there)
// or whose root is not an object.
func Format(doc *Document) ([]byte, error) {
	if err := doc.SyntaxRefusal("format"); err != nil {
		return nil, err
	}
	if doc.Root == nil || doc.Root.Kind != KindObject {
		kind := "nothing"
		if doc.Root != nil {
			kind = article(doc.Root.Kind) + " " + doc.Root.Kind.String()
		}
		return nil, fmt.Errorf("cannot format: the document is %s, not a JSON object", kind)
	}
	w := &canonWriter{src: doc.Text.Bytes()}
	// Indentation makes a compact document grow; a pretty one barely changes.
	w.buf.Grow(len(w.src) + len(w.src)/8 + 64)
	w.object(doc.Root, 0, objReview)
	w.buf.WriteByte('\n')
	if w.err != nil {
		return nil, w.err
	}
	return w.buf.Bytes(), nil
}

// objRole says which of the spec's objects an object is, and so which key
// order applies to it.
type objRole uint8

const (
	objOther objRole = iota // unknown value: members stay in source order
	objReview
	objComment
	objReply
)

func (r objRole) keys() []string {
	switch r {
	case objReview:
		return ReviewKeys
	case objComment:
		return CommentKeys
	case objReply:
		return ReplyKeys
	}
	return nil
}

type canonWriter struct {
	src []byte
	buf bytes.Buffer
	err error
	// stack holds the reordered members of the objects being written.
	stack []*Node
}

const indentSpaces = "                                                                " // 64

// newline starts a new line indented for depth.
func (w *canonWriter) newline(depth int) {
	w.buf.WriteByte('\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(indentSpaces))
		w.buf.WriteString(indentSpaces[:k])
		n -= k
	}
}

// value writes n with no reordering: the canonical spelling of an unknown
// value, or of a known one whose type is not what the spec expects.
func (w *canonWriter) value(n *Node, depth int) {
	switch n.Kind {
	case KindObject:
		w.object(n, depth, objOther)
	case KindArray:
		w.array(n, depth, objOther)
	case KindString:
		w.strNode(n)
	case KindNumber:
		w.buf.Write(w.src[n.Start:n.End])
	case KindBool:
		if n.Bool {
			w.buf.WriteString("true")
		} else {
			w.buf.WriteString("false")
		}
	case KindNull:
		w.buf.WriteString("null")
	default:
		// Only syntax errors make invalid nodes, and Format refuses those;
		// never write a guess.
		if w.err == nil {
			w.err = fmt.Errorf("cannot format: invalid value at offset %d", n.Start)
		}
		w.buf.WriteString("null")
	}
}

// ordered returns obj's members in the role's key order: every member of
// each known name (duplicates included, in source order), then the unknown
// ones in source order.
func (w *canonWriter) ordered(obj *Node, role objRole) []*Node {
	keys := role.keys()
	if keys == nil {
		return obj.Members()
	}
	// The list lives on a stack shared by the objects being written, so
	// that a thousand comments do not cost a thousand allocations. A nested
	// object may grow (move) the stack; the slice returned here keeps
	// pointing at the old array, which nothing writes to any more.
	base := len(w.stack)
	for _, k := range keys {
		for _, m := range obj.Members() {
			if m.Name == k {
				w.stack = append(w.stack, m)
			}
		}
	}
	for _, m := range obj.Members() {
		if !isKnownKey(keys, m.Name) {
			w.stack = append(w.stack, m)
		}
	}
	return w.stack[base:len(w.stack):len(w.stack)]
}

func isKnownKey(keys []string, name string) bool {
	for _, k := range keys {
		if k == name {
			return true
		}
	}
	return false
}

func (w *canonWriter) object(obj *Node, depth int, role objRole) {
	if len(obj.Members()) == 0 {
		w.buf.WriteString("{}")
		return
	}
	w.buf.WriteByte('{')
	base := len(w.stack)
	defer func() { w.stack = w.stack[:base] }()
	for i, m := range w.ordered(obj, role) {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.newline(depth + 1)
		w.key(m)
		w.buf.WriteString(": ")
		switch {
		case role == objReview && m.Name == "patch" && (m.Kind == KindString || m.Kind == KindArray):
			w.patch(m, depth+1)
		case role == objReview && m.Name == "comments" && m.Kind == KindArray:
			w.array(m, depth+1, objComment)
		case role == objComment && m.Name == "replies" && m.Kind == KindArray:
			w.array(m, depth+1, objReply)
		default:
			w.value(m, depth+1)
		}
	}
	w.newline(depth)
	w.buf.WriteByte('}')
}

// array writes arr; its object elements take the role elem.
func (w *canonWriter) array(arr *Node, depth int, elem objRole) {
	if len(arr.Elems()) == 0 {
		w.buf.WriteString("[]")
		return
	}
	w.buf.WriteByte('[')
	for i, e := range arr.Elems() {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.newline(depth + 1)
		if e.Kind == KindObject {
			w.object(e, depth+1, elem)
		} else {
			w.value(e, depth+1)
		}
	}
	w.newline(depth)
	w.buf.WriteByte(']')
}

// patchWriter streams the patch's lines into the array form. Empty lines
// are held back until something follows them, so that the empty lines at
// the end, which the array form cannot carry, are dropped.
type patchWriter struct {
	w       *canonWriter
	depth   int
	started bool
	empties int
}

func (p *patchWriter) sep() {
	if p.started {
		p.w.buf.WriteByte(',')
	} else {
		p.w.buf.WriteByte('[')
		p.started = true
	}
	p.w.newline(p.depth + 1)
}

func (p *patchWriter) flush() {
	for ; p.empties > 0; p.empties-- {
		p.sep()
		p.w.buf.WriteString(`""`)
	}
}

func (p *patchWriter) line(s string) {
	if s == "" {
		p.empties++
		return
	}
	p.flush()
	p.sep()
	p.w.str(s)
}

// textNode adds the lines of the string node n: of its value, unless its
// source holds a lone surrogate escape, which the lines keep as written
// (see surrogate.go).
func (p *patchWriter) textNode(n *Node) {
	start, end := contentRange(n)
	if !n.Escape || !hasLoneSurrogate(p.w.src, start, end) {
		p.text(n.Str)
		return
	}
	for _, q := range quotedLines(NewText(p.w.src), n) {
		if q == `""` {
			p.empties++
			continue
		}
		p.flush()
		p.sep()
		p.w.buf.WriteString(q)
	}
}

// text adds the lines of s.
func (p *patchWriter) text(s string) {
	for line := range diffLines(s) {
		p.line(line)
	}
}

// diffLines splits s into the lines the array form writes it as: at line
// feeds, a final line feed ending the last line rather than opening an
// empty one, as the reader decides. A carriage return stays in its line,
// as leanreview keeps it. The empty string is one empty line.
func diffLines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				yield(s)
				return
			}
			if !yield(s[:i]) {
				return
			}
			s = s[i+1:]
			if s == "" {
				return
			}
		}
	}
}

func (p *patchWriter) other(n *Node) {
	p.flush()
	p.sep()
	p.w.value(n, p.depth+1)
}

func (p *patchWriter) end() {
	if !p.started {
		p.w.buf.WriteString("[]")
		return
	}
	p.w.newline(p.depth)
	p.w.buf.WriteByte(']')
}

// patch writes a string or array patch in the canonical array form.
// Non-string elements are schema errors, but they are data: they stay.
func (w *canonWriter) patch(n *Node, depth int) {
	p := &patchWriter{w: w, depth: depth}
	if n.Kind == KindString {
		p.textNode(n)
	} else {
		for _, e := range n.Elems() {
			if e.Kind == KindString {
				p.textNode(e)
			} else {
				p.other(e)
			}
		}
	}
	p.end()
}

// str writes s as a JSON string exactly as encoding/json does with HTML
// escaping off: short escapes for \" \\ \b \f \n \r \t, \u00XX for the other
// control characters, \u2028 and \u2029 escaped, and \ufffd for each byte
// of invalid UTF-8. Runs of plain text are copied in one write.
func (w *canonWriter) str(s string) { w.buf.Write(jsontext.AppendQuote(w.buf.AvailableBuffer(), s)) }

// strNode writes a string node: its value, unless its source holds a lone
// surrogate escape, which is kept as written (see surrogate.go).
func (w *canonWriter) strNode(n *Node) {
	start, end := contentRange(n)
	if !n.Escape || !hasLoneSurrogate(w.src, start, end) {
		w.str(n.Str)
		return
	}
	w.buf.WriteByte('"')
	writeContentKeeping(&w.buf, w.src, start, end, nil)
	w.buf.WriteByte('"')
}

// key writes member m's name, keeping a lone surrogate escape as strNode
// does. The key's source is quoted: its content is inside the quotes.
func (w *canonWriter) key(m *Node) {
	if start, end := m.KeyStart()+1, m.KeyEnd()-1; start < end && hasLoneSurrogate(w.src, start, end) {
		w.buf.WriteByte('"')
		writeContentKeeping(&w.buf, w.src, start, end, nil)
		w.buf.WriteByte('"')
		return
	}
	w.str(m.Name)
}
