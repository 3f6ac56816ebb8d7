package jsontext

import (
	"fmt"
)

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the offset of the first byte of b from i on that is not
// white space, or len(b).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// EndsScalar reports whether c ends a number or a literal: white space or
// a comma, colon or closing bracket.
func EndsScalar(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '}', ']':
		return true
	}
	return false
}

// Nesting follows the objects and arrays open around a reader's position.
// It keeps the bracket of each level up to its maximum depth and only
// counts the levels beyond, so that its memory is bounded whatever the
// input.
type Nesting struct {
	max     int
	depth   int
	stack   []byte // '{' or '[' of each open level up to max
	tooDeep bool
}

// NewNesting returns a Nesting that keeps up to max levels.
func NewNesting(max int) Nesting {
	return Nesting{max: max, stack: make([]byte, 0, min(max, 16))}
}

// Open enters an object ('{') or an array ('['); it returns false when that
// goes deeper than the maximum.
func (n *Nesting) Open(c byte) bool {
	n.depth++
	if n.depth > n.max {
		n.tooDeep = true
		return false
	}
	n.stack = append(n.stack, c)
	return true
}

// Close leaves the innermost level with c ('}' or ']'); it returns false
// when no level is open or, within the maximum, when c does not match the
// level's opening bracket.
func (n *Nesting) Close(c byte) bool {
	if n.depth == 0 {
		return false
	}
	ok := true
	if n.depth <= n.max {
		top := n.stack[len(n.stack)-1]
		ok = top == '{' && c == '}' || top == '[' && c == ']'
		n.stack = n.stack[:len(n.stack)-1]
	}
	n.depth--
	return ok
}

// Depth is the number of open levels.
func (n *Nesting) Depth() int { return n.depth }

// TooDeep reports whether the input ever went deeper than the maximum.
func (n *Nesting) TooDeep() bool { return n.tooDeep }

// Kept returns the opening brackets of the open levels up to the maximum,
// outermost first. The slice is the Nesting's own, valid until it changes.
func (n *Nesting) Kept() []byte { return n.stack }

// InObject reports whether the innermost open level is an object kept
// within the maximum.
func (n *Nesting) InObject() bool {
	return n.depth > 0 && n.depth <= n.max && n.stack[n.depth-1] == '{'
}

// SyntaxError is a strict reader's error: what was expected where.
type SyntaxError struct {
	Offset int // in the input
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("at byte %d: %s", e.Offset, e.Msg) }

func syntaxError(at int, format string, args ...any) error {
	return &SyntaxError{Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// Number returns the offset after the number that starts at b[i], by
// JSON's grammar, and false when none does.
func Number(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// Literal returns the offset after the literal (true, false or null) that
// starts at b[i], and false when none does.
func Literal(b []byte, i int) (int, bool) {
	var word string
	if i < len(b) {
		switch b[i] {
		case 't':
			word = "true"
		case 'f':
			word = "false"
		case 'n':
			word = "null"
		}
	}
	if word == "" || len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// SkipValue steps over the value at b[i] (white space first), checking its
// syntax strictly, and returns the offset after it. Objects and arrays
// nest at most maxDepth deep. It walks the value without recursion, in
// time linear in its length.
func SkipValue(b []byte, i, maxDepth int) (int, error) {
	nest := Nesting{max: maxDepth} // allocates only when a container opens
	for {
		i = SkipSpace(b, i)
		if i >= len(b) {
			return i, syntaxError(i, "unexpected end of input")
		}
		// A value starts at b[i].
		switch c := b[i]; {
		case c == '{' || c == '[':
			if !nest.Open(c) {
				return i, syntaxError(i, "nested deeper than %d", maxDepth)
			}
			i = SkipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' and ']' follow '{' and '[' by two
				nest.Close(b[i])
				i++
			} else if c == '{' {
				var err error
				if i, err = memberName(b, i); err != nil {
					return i, err
				}
				continue
			} else {
				continue
			}
		case c == '"':
			var err error
			if i, err = SkipValidString(b, i+1); err != nil {
				return i, err
			}
		case c == '-' || c >= '0' && c <= '9':
			j, ok := Number(b, i)
			if !ok {
				return j, syntaxError(i, "bad number")
			}
			i = j
		default:
			j, ok := Literal(b, i)
			if !ok {
				return i, syntaxError(i, "unexpected %q", c)
			}
			i = j
		}
		// A value ended before b[i]: a comma or the close of its level follows.
		for {
			if nest.Depth() == 0 {
				return i, nil
			}
			i = SkipSpace(b, i)
			if i >= len(b) {
				return i, syntaxError(i, "unexpected end of input")
			}
			c := b[i]
			if c == ',' {
				i++
				if nest.InObject() {
					var err error
					if i, err = memberName(b, SkipSpace(b, i)); err != nil {
						return i, err
					}
				}
				break
			}
			if (c != '}' && c != ']') || !nest.Close(c) {
				return i, syntaxError(i, "expected ',' or a closing bracket, got %q", c)
			}
			i++
		}
	}
}

// memberName steps over a member name at b[i] and its colon.
func memberName(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return i, syntaxError(i, "expected a member name")
	}
	i, err := SkipValidString(b, i+1)
	if err != nil {
		return i, err
	}
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, syntaxError(i, "expected ':' after a member name")
	}
	return i + 1, nil
}

// SkipValidString checks the content of the string whose opening quote
// is just before b[i], not decoding it, and returns the offset after its
// closing quote.
func SkipValidString(b []byte, i int) (int, error) {
	for {
		j := Plain(b, i)
		switch {
		case j >= len(b):
			return j, syntaxError(j, "%v", ErrUnterminated)
		case b[j] == '"':
			return j + 1, nil
		case b[j] < 0x20:
			return j, syntaxError(j, "%v", ErrControl)
		}
		switch {
		case j+1 < len(b) && simple[b[j+1]] != 0:
			i = j + 2
		case j+1 < len(b) && b[j+1] == 'u':
			if _, ok := Hex4(b[j:]); !ok {
				return j, syntaxError(j, "%v", ErrEscape)
			}
			i = j + 6
		default:
			return j, syntaxError(j, "%v", ErrEscape)
		}
	}
}
