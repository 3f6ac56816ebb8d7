package exchange

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the JSON type of a Node.
type Kind uint8

const (
	// KindInvalid marks a value the reader could not make sense of, or a
	// missing value ("a": ,). Its range is the offending text, possibly empty.
	KindInvalid Kind = iota
	KindObject
	KindArray
	KindString
	KindNumber
	KindBool
	KindNull
)

func (k Kind) String() string {
	switch k {
	case KindObject:
		return "object"
	case KindArray:
		return "array"
	case KindString:
		return "string"
	case KindNumber:
		return "number"
	case KindBool:
		return "boolean"
	case KindNull:
		return "null"
	}
	return "invalid value"
}

// Node is one JSON value with its byte range in the source. The reader keeps
// ranges rather than decoded values alone because every diagnostic, hover and
// edit the project makes is addressed by source position.
type Node struct {
	Kind Kind
	// Start and End delimit the value's text: [Start, End).
	Start, End int
	Parent     *Node
	// Name is the member name when the parent is an object; Index is the
	// element index when the parent is an array, -1 otherwise.
	Name  string
	Index int
	// KeyStart and KeyEnd delimit the member's key, quotes included.
	KeyStart, KeyEnd int

	Members []*Node // object members in source order
	Elems   []*Node // array elements

	Str    string // decoded string value (KindString)
	Bool   bool   // KindBool
	Escape bool   // a string value that contains at least one escape
	// Closed reports whether a string, object or array has its closing
	// delimiter; half-typed documents leave it false.
	Closed bool
}

// IsMember reports whether n is the value of an object member.
func (n *Node) IsMember() bool { return n.Parent != nil && n.Parent.Kind == KindObject }

// Member returns the value of the member called name, or nil. With
// duplicate keys the last one wins, as with encoding/json.
func (n *Node) Member(name string) *Node {
	if n == nil || n.Kind != KindObject {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Name == name {
			return n.Members[i]
		}
	}
	return nil
}

// pointerEscaper applies RFC 6901's escapes to a member name.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Pointer returns n's JSON pointer (RFC 6901) from the document root.
func (n *Node) Pointer() string {
	var parts []string
	for c := n; c != nil && c.Parent != nil; c = c.Parent {
		if c.Parent.Kind == KindObject {
			parts = append(parts, pointerEscaper.Replace(c.Name))
		} else {
			parts = append(parts, strconv.Itoa(c.Index))
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}

// Int returns the value of a number node that is integral, and whether
// it is one. 3.0 and 3e0 count, as JSON Schema's "integer" does.
func (n *Node) Int(src []byte) (int, bool) {
	if n == nil || n.Kind != KindNumber {
		return 0, false
	}
	text := string(src[n.Start:n.End])
	if v, err := strconv.Atoi(text); err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != float64(int64(f)) || f > 1<<53 || f < -(1<<53) {
		return 0, false
	}
	return int(f), true
}

// Value converts n to the generic form encoding/json would produce, with
// numbers as json.Number-compatible strings (see numberValue). Invalid
// nodes become nil.
func (n *Node) Value(src []byte) any {
	switch n.Kind {
	case KindObject:
		m := make(map[string]any, len(n.Members))
		for _, mem := range n.Members {
			m[mem.Name] = mem.Value(src)
		}
		return m
	case KindArray:
		a := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			a[i] = e.Value(src)
		}
		return a
	case KindString:
		return n.Str
	case KindNumber:
		return numberValue(src[n.Start:n.End])
	case KindBool:
		return n.Bool
	}
	return nil
}

// SyntaxError is a place where the source is not valid JSON.
type SyntaxError struct {
	Start, End int
	Msg        string
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack;
// no review needs more than a handful of levels.
const maxDepth = 256

// maxSyntaxErrors keeps a binary file opened by mistake from producing
// millions of diagnostics.
const maxSyntaxErrors = 100

type reader struct {
	src  []byte
	pos  int
	errs []SyntaxError
	// slab hands out nodes in blocks: a review has ~100,000 of them, and
	// one allocation each would dominate reading.
	slab []Node
	key  Node // scratch node for decoding member names
	// open holds the closing delimiters of the containers being read, so
	// that a stray '}' or ']' can end the right one.
	open []byte
	// lines counts lines for messages, built on the first error that needs
	// one: counting from the start at each error would be quadratic.
	lines *Mapper
	// reuse, when set, is a subtree known to be spelt at reuseAt exactly as
	// it was in an earlier version of the document (see ParseIncremental).
	reuse   *Node
	reuseAt int
	// shared is the reused subtree when it is the earlier version's own
	// nodes rather than a copy: it is read by that version concurrently,
	// so the reader writes nothing into it (see ParseIncremental).
	shared *Node
}

func (r *reader) newNode() *Node {
	if len(r.slab) == 0 {
		r.slab = make([]Node, 512)
	}
	n := &r.slab[0]
	r.slab = r.slab[1:]
	return n
}

// ParseJSON reads src tolerantly: it always returns a root node (possibly
// KindInvalid) and lists every syntax error it had to recover from.
func ParseJSON(src []byte) (*Node, []SyntaxError) {
	return parseJSON(&reader{src: src})
}

func parseJSON(r *reader) (*Node, []SyntaxError) {
	src := r.src
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		r.pos = 3 // tolerate a byte-order mark
	}
	r.skipSpace()
	if r.pos >= len(src) {
		r.fail(r.pos, r.pos, "empty document: expected a JSON object")
		return &Node{Kind: KindInvalid, Start: r.pos, End: r.pos, Index: -1}, r.errs
	}
	root := r.value(nil, 0)
	for {
		r.skipSpace()
		if r.pos >= len(src) {
			break
		}
		start := r.pos
		r.skipToken()
		r.fail(start, r.pos, "unexpected "+r.describe(start)+" after the end of the document")
	}
	return root, r.errs
}

func (r *reader) fail(start, end int, msg string) {
	if len(r.errs) >= maxSyntaxErrors {
		return
	}
	if end <= start && len(r.src) > 0 {
		// Point at one character: at end of input, the last one (all of
		// it, not its last byte).
		if start >= len(r.src) {
			_, size := utf8.DecodeLastRune(r.src)
			start = len(r.src) - size
		}
		_, size := utf8.DecodeRune(r.src[start:])
		end = start + size
	}
	if len(r.errs) == maxSyntaxErrors-1 {
		msg = "too many syntax errors; stopped reporting here"
	}
	r.errs = append(r.errs, SyntaxError{Start: start, End: end, Msg: msg})
}

func (r *reader) skipSpace() {
	for r.pos < len(r.src) {
		switch r.src[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// describe names the token at off for error messages.
func (r *reader) describe(off int) string {
	if off >= len(r.src) {
		return "end of input"
	}
	c := r.src[off]
	switch c {
	case '{', '}', '[', ']', ',', ':':
		return fmt.Sprintf("'%c'", c)
	case '"':
		return "string"
	}
	end := off
	for end < len(r.src) && end-off < 20 && isWordByte(r.src[end]) {
		end++
	}
	if end > off {
		return fmt.Sprintf("%q", r.src[off:end])
	}
	ru, _ := utf8.DecodeRune(r.src[off:])
	if ru == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return fmt.Sprintf("%q", ru)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '.' || c == '$'
}

// skipToken advances over one token of whatever kind, at least one byte.
func (r *reader) skipToken() {
	if r.pos >= len(r.src) {
		return
	}
	switch c := r.src[r.pos]; {
	case c == '"':
		r.stringValue(&Node{})
	case isWordByte(c):
		for r.pos < len(r.src) && isWordByte(r.src[r.pos]) {
			r.pos++
		}
	default:
		_, size := utf8.DecodeRune(r.src[r.pos:])
		r.pos += size
	}
}

func (r *reader) value(parent *Node, depth int) *Node {
	if r.reuse != nil && r.pos == r.reuseAt && depth == 1 {
		n := r.reuse
		r.reuse = nil
		r.pos = n.End
		if n != r.shared {
			n.Parent = parent
		}
		return n
	}
	n := r.newNode()
	*n = Node{Start: r.pos, End: r.pos, Parent: parent, Index: -1}
	if r.pos >= len(r.src) {
		r.fail(r.pos, r.pos, "unexpected end of input: expected a value")
		return n
	}
	switch c := r.src[r.pos]; {
	case c == '{' || c == '[':
		if depth >= maxDepth {
			r.fail(r.pos, r.pos+1, fmt.Sprintf("nesting deeper than %d levels", maxDepth))
			r.skipNested()
			n.End = r.pos
			return n
		}
		if c == '{' {
			r.object(n, depth)
		} else {
			r.array(n, depth)
		}
	case c == '"':
		n.Kind = KindString
		r.stringValue(n)
	case c == '-' || c >= '0' && c <= '9':
		n.Kind = KindNumber
		r.number(n)
	case isWordByte(c):
		for r.pos < len(r.src) && isWordByte(r.src[r.pos]) {
			r.pos++
		}
		n.End = r.pos
		switch string(r.src[n.Start:n.End]) {
		case "true":
			n.Kind, n.Bool = KindBool, true
		case "false":
			n.Kind = KindBool
		case "null":
			n.Kind = KindNull
		default:
			r.fail(n.Start, n.End, "unexpected "+r.describe(n.Start)+": expected a value (strings need double quotes)")
		}
	case c == '\'':
		// A single-quoted string: read it like a string so the rest of the
		// document keeps its meaning, but report it.
		r.fail(r.pos, r.pos+1, "strings need double quotes, not single quotes")
		r.pos++
		for r.pos < len(r.src) && r.src[r.pos] != '\'' && r.src[r.pos] != '\n' {
			r.pos++
		}
		if r.pos < len(r.src) && r.src[r.pos] == '\'' {
			r.pos++
		}
		n.End = r.pos
	default:
		// Leave delimiters for the caller; consume anything else.
		if c != ',' && c != '}' && c != ']' && c != ':' {
			r.skipToken()
			n.End = r.pos
			r.fail(n.Start, n.End, "unexpected "+r.describe(n.Start)+": expected a value")
		} else {
			r.fail(r.pos, r.pos+1, "unexpected "+r.describe(r.pos)+": expected a value")
		}
	}
	return n
}

// skipNested skips a container without building nodes and without
// recursion, so that depth costs neither stack nor memory.
func (r *reader) skipNested() {
	depth := 0
	for r.pos < len(r.src) {
		switch r.src[r.pos] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				r.pos++
				return
			}
		case '"':
			r.stringValue(&Node{})
			continue
		}
		r.pos++
	}
}

// closesOuter reports whether c closes a container other than the
// innermost one, so the innermost should end here without consuming it.
func (r *reader) closesOuter(c byte) bool {
	for i := len(r.open) - 2; i >= 0; i-- {
		if r.open[i] == c {
			return true
		}
	}
	return false
}

func (r *reader) object(n *Node, depth int) {
	n.Kind = KindObject
	r.pos++ // {
	r.open = append(r.open, '}')
	defer func() { r.open = r.open[:len(r.open)-1] }()
	afterComma := -1
	for {
		r.skipSpace()
		if r.pos >= len(r.src) {
			r.fail(r.pos, r.pos, "unexpected end of input: missing '}' for the object opened at "+r.where(n.Start))
			n.End = r.pos
			return
		}
		c := r.src[r.pos]
		if c == '}' {
			if afterComma >= 0 {
				r.fail(afterComma, afterComma+1, "trailing comma before '}'")
			}
			r.pos++
			n.End, n.Closed = r.pos, true
			return
		}
		if c == ']' {
			r.fail(r.pos, r.pos+1, "unexpected ']': expected '}' to close the object opened at "+r.where(n.Start))
			if r.closesOuter(c) {
				n.End = r.pos
				return
			}
			r.pos++
			continue
		}
		if c == ',' {
			r.fail(r.pos, r.pos+1, "unexpected ',': expected a member name")
			r.pos++
			continue
		}
		afterComma = -1
		mem := r.member(n, depth)
		n.Members = append(n.Members, mem)
		r.skipSpace()
		if r.pos >= len(r.src) {
			continue // reported at the top of the loop
		}
		switch r.src[r.pos] {
		case ',':
			afterComma = r.pos
			r.pos++
		case '}':
		case ']':
		case '"':
			r.fail(r.pos, r.pos+1, "missing ',' between members")
		default:
			start := r.pos
			r.skipToken()
			r.fail(start, r.pos, "unexpected "+r.describe(start)+": expected ',' or '}'")
			r.skipComma(&afterComma) // the junk was the only error
		}
	}
}

// member reads `"key": value`, recovering from a missing colon, an
// unquoted key or a missing value.
func (r *reader) member(obj *Node, depth int) *Node {
	keyStart := r.pos
	var name string
	if r.src[r.pos] == '"' {
		k := &r.key
		*k = Node{}
		r.stringValue(k)
		name = k.Str
	} else {
		r.skipToken()
		name = string(r.src[keyStart:r.pos])
		r.fail(keyStart, r.pos, "member names need double quotes")
	}
	keyEnd := r.pos
	r.skipSpace()
	var v *Node
	if r.pos < len(r.src) && r.src[r.pos] == ':' {
		r.pos++
		r.skipSpace()
		if r.pos < len(r.src) && (r.src[r.pos] == ',' || r.src[r.pos] == '}') {
			r.fail(keyStart, keyEnd, fmt.Sprintf("member %q has no value", name))
			v = &Node{Start: r.pos, End: r.pos}
		} else {
			v = r.value(obj, depth+1)
		}
	} else {
		r.fail(keyStart, keyEnd, fmt.Sprintf("missing ':' after member name %q", name))
		if r.pos < len(r.src) && startsValue(r.src[r.pos]) && r.src[r.pos] != '"' {
			v = r.value(obj, depth+1)
		} else {
			v = &Node{Start: keyEnd, End: keyEnd}
		}
	}
	if v == r.shared && v.Name == name && v.Index == -1 && v.KeyStart == keyStart && v.KeyEnd == keyEnd {
		return v // the same member at the same place: nothing to write
	}
	if v == r.shared {
		v = cloneShifted(v, 0)
		r.shared = nil
	}
	v.Parent, v.Name, v.Index = obj, name, -1
	v.KeyStart, v.KeyEnd = keyStart, keyEnd
	return v
}

func startsValue(c byte) bool {
	return c == '{' || c == '[' || c == '"' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n'
}

func (r *reader) array(n *Node, depth int) {
	n.Kind = KindArray
	r.pos++ // [
	r.open = append(r.open, ']')
	defer func() { r.open = r.open[:len(r.open)-1] }()
	afterComma := -1
	for {
		r.skipSpace()
		if r.pos >= len(r.src) {
			r.fail(r.pos, r.pos, "unexpected end of input: missing ']' for the array opened at "+r.where(n.Start))
			n.End = r.pos
			return
		}
		c := r.src[r.pos]
		if c == ']' {
			if afterComma >= 0 {
				r.fail(afterComma, afterComma+1, "trailing comma before ']'")
			}
			r.pos++
			n.End, n.Closed = r.pos, true
			return
		}
		if c == '}' {
			r.fail(r.pos, r.pos+1, "unexpected '}': expected ']' to close the array opened at "+r.where(n.Start))
			if r.closesOuter(c) {
				n.End = r.pos
				return
			}
			r.pos++
			continue
		}
		if c == ',' {
			r.fail(r.pos, r.pos+1, "unexpected ',': expected a value")
			r.pos++
			continue
		}
		afterComma = -1
		e := r.value(n, depth+1)
		if e.End == e.Start && e.Kind == KindInvalid && r.pos < len(r.src) && r.src[r.pos] == ':' {
			r.pos++ // a stray ':' would otherwise loop forever
		}
		e.Index = len(n.Elems)
		n.Elems = append(n.Elems, e)
		r.skipSpace()
		if r.pos >= len(r.src) {
			continue
		}
		switch r.src[r.pos] {
		case ',':
			afterComma = r.pos
			r.pos++
		case ']', '}':
		default:
			if startsValue(r.src[r.pos]) {
				r.fail(r.pos, r.pos+1, "missing ',' between array elements")
			} else {
				start := r.pos
				r.skipToken()
				r.fail(start, r.pos, "unexpected "+r.describe(start)+": expected ',' or ']'")
				r.skipComma(&afterComma) // the junk was the only error
			}
		}
	}
}

// skipComma consumes the separator that follows junk after a member or
// element, so that it is not reported as a second, misleading error.
func (r *reader) skipComma(afterComma *int) {
	r.skipSpace()
	if r.pos < len(r.src) && r.src[r.pos] == ',' {
		*afterComma = r.pos
		r.pos++
	}
}

// where formats an offset as "line N" for messages about distant openers.
func (r *reader) where(off int) string {
	if r.lines == nil {
		r.lines = NewMapper(r.src)
	}
	return "line " + strconv.Itoa(r.lines.Line(off)+1)
}

func (r *reader) number(n *Node) {
	s := r.src
	i := r.pos
	valid := true
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '0' {
		i++
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			valid = false
			digits()
		}
	} else if digits() == 0 {
		valid = false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			valid = false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			valid = false
		}
	}
	// Swallow trailing word bytes so "12abc" is one bad token, not two.
	for i < len(s) && isWordByte(s[i]) {
		valid = false
		i++
	}
	r.pos = i
	n.End = i
	if !valid {
		n.Kind = KindInvalid
		r.fail(n.Start, n.End, fmt.Sprintf("invalid number %q", s[n.Start:n.End]))
	}
}

// stringValue reads a string starting at the opening quote. An unterminated
// string ends at the end of its line: JSON strings cannot hold raw line
// breaks, so this is where the writer most likely forgot the quote.
func (r *reader) stringValue(n *Node) {
	s := r.src
	start := r.pos
	i := start + 1
	// Fast path: plain ASCII without escapes.
	for i < len(s) {
		c := s[i]
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		i++
	}
	if i < len(s) && s[i] == '"' {
		n.Str = string(s[start+1 : i])
		r.pos = i + 1
		n.Start, n.End, n.Closed = start, r.pos, true
		return
	}
	var b []byte
	b = append(b, s[start+1:i]...)
	for {
		if i >= len(s) {
			r.fail(start, i, "unterminated string")
			break
		}
		c := s[i]
		if c == '"' {
			i++
			n.Closed = true
			break
		}
		if c == '\n' || c == '\r' {
			r.fail(start, i, "unterminated string (a raw line break cannot appear inside a JSON string; write \\n)")
			break
		}
		if c < 0x20 {
			r.fail(i, i+1, fmt.Sprintf("raw control character U+%04X inside a string; write it as an escape", c))
			b = append(b, c)
			i++
			continue
		}
		if c >= 0x80 {
			ru, size := utf8.DecodeRune(s[i:])
			if ru == utf8.RuneError && size == 1 {
				r.fail(i, i+1, fmt.Sprintf("invalid UTF-8 byte 0x%02x inside a string", c))
			}
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		n.Escape = true
		if i+1 >= len(s) || s[i+1] == '\n' || s[i+1] == '\r' {
			// A backslash cannot escape the end of the input or of the
			// line: drop it and let the next round report the string as
			// unterminated there.
			i++
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
			i += 2
		case 'b':
			b = append(b, '\b')
			i += 2
		case 'f':
			b = append(b, '\f')
			i += 2
		case 'n':
			b = append(b, '\n')
			i += 2
		case 'r':
			b = append(b, '\r')
			i += 2
		case 't':
			b = append(b, '\t')
			i += 2
		case 'u':
			ru, size := decodeUnicodeEscape(s[i:])
			if size == 0 {
				end := i + 2
				for end < len(s) && end < i+6 && isHex(s[end]) {
					end++
				}
				r.fail(i, end, "invalid \\u escape: expected four hexadecimal digits")
				b = append(b, s[i:end]...)
				i = end
				continue
			}
			b = utf8.AppendRune(b, ru)
			i += size
		default:
			_, size := utf8.DecodeRune(s[i+1:])
			r.fail(i, i+1+size, fmt.Sprintf("invalid escape %q", s[i:i+1+size]))
			b = append(b, s[i+1:i+1+size]...)
			i += 1 + size
		}
	}
	r.pos = i
	n.Start, n.End = start, i
	n.Str = string(b)
}

// decodeUnicodeEscape decodes \uXXXX at the start of s, joining a surrogate
// pair when a second escape follows. size is 0 when s has no valid escape.
// A lone surrogate decodes to U+FFFD, as encoding/json does.
func decodeUnicodeEscape(s []byte) (rune, int) {
	r1, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r1) {
		if r2, ok := hex4(s[6:]); ok && len(s) >= 12 {
			if ru := utf16.DecodeRune(r1, r2); ru != utf8.RuneError {
				return ru, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r1, 6
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var v rune
	for _, c := range s[2:6] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
