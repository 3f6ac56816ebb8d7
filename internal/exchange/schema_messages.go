package exchange

// The words of schema violations: the validator's error tree becomes one
// plain sentence per node.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// violationCollector turns the validator's error tree into plain-worded violations.
type violationCollector struct {
	v    *SchemaValidator
	doc  *Document
	out  []SchemaViolation
	seen map[violationKey]bool
}

type violationKey struct {
	node    *Node
	missing string
}

func (m *violationCollector) add(n *Node, missing, msg string) {
	if n == nil {
		return
	}
	k := violationKey{n, missing}
	if m.seen == nil {
		m.seen = map[violationKey]bool{}
	}
	if m.seen[k] {
		return
	}
	m.seen[k] = true
	m.out = append(m.out, SchemaViolation{Node: n, Missing: missing, Message: msg})
}

func (m *violationCollector) result() []SchemaViolation {
	out := m.out[:0]
	if partial := len(m.doc.Syntax) > 0; partial {
		for _, v := range m.out {
			switch {
			case v.Node.Kind == KindInvalid:
			case v.Node.Kind == KindString && !v.Node.Closed:
			case v.Missing != "" && !v.Node.Closed:
			default:
				out = append(out, v)
			}
		}
	} else {
		out = m.out
	}
	// Outer nodes first on a tie: a missing member is reported on its
	// object before anything inside it.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Node, out[j].Node
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.End > b.End
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// walk descends the error tree to its leaves. Wrappers ($ref, allOf, the
// root's "doesn't validate") say nothing of their own; anyOf and oneOf get
// one message for their node unless exactly one branch fits the node's
// shape and only failed deeper down.
func (m *violationCollector) walk(e *jsonschema.ValidationError) {
	switch keywordOf(e) {
	case "anyOf", "oneOf":
		m.alternatives(e)
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			m.walk(c)
		}
		return
	}
	m.leaf(e)
}

func (m *violationCollector) alternatives(e *jsonschema.ValidationError) {
	var fitting []*jsonschema.ValidationError
	for _, c := range e.Causes {
		if allBelow(c, e.InstanceLocation) {
			fitting = append(fitting, c)
		}
	}
	if len(fitting) == 1 {
		m.walk(fitting[0])
		return
	}
	n := m.node(e.InstanceLocation)
	if n == nil {
		return
	}
	frag, at := m.v.fragment(e)
	m.add(n, "", m.alternativesMessage(n, frag, at))
}

// allBelow reports whether every leaf of e is about a value strictly inside
// the one at loc: the branch accepted the value's shape.
func allBelow(e *jsonschema.ValidationError, loc string) bool {
	if len(e.Causes) == 0 || keywordOf(e) == "anyOf" || keywordOf(e) == "oneOf" {
		return strings.HasPrefix(e.InstanceLocation, loc+"/")
	}
	for _, c := range e.Causes {
		if !allBelow(c, loc) {
			return false
		}
	}
	return true
}

// alternativesMessage words the failure of an anyOf or oneOf as a whole.
// The two in the schema get their own sentence; any other one lists what
// each branch expects.
func (m *violationCollector) alternativesMessage(n *Node, frag map[string]any, at string) string {
	subj := m.subject(n)
	switch at {
	case "/$defs/comment/properties/side":
		return fmt.Sprintf("%s must be LEFT or RIGHT, got %s", subj, m.literal(n))
	case "/properties/patch":
		return subj + " must be an array of strings (one diff line each) or a single string"
	}
	var forms []string
	for _, kw := range []string{"anyOf", "oneOf"} {
		branches, _ := frag[kw].([]any)
		for _, b := range branches {
			if b, ok := b.(map[string]any); ok {
				forms = append(forms, expected(b, false))
			}
		}
	}
	return fmt.Sprintf("%s must be %s, got %s", subj, strings.Join(forms, " or "), m.literal(n))
}

func (m *violationCollector) leaf(e *jsonschema.ValidationError) {
	n := m.node(e.InstanceLocation)
	if n == nil {
		return
	}
	frag, _ := m.v.fragment(e)
	subj := m.subject(n)
	switch kw := keywordOf(e); kw {
	case "required":
		names, _ := frag["required"].([]any)
		for _, name := range names {
			if s, ok := name.(string); ok && n.Kind == KindObject && n.Member(s) == nil {
				m.add(n, s, "missing required member `"+s+"`")
			}
		}
	case "type":
		_, hasConst := frag["const"]
		_, hasEnum := frag["enum"]
		switch {
		case hasConst || hasEnum:
			m.add(n, "", must(subj, expected(frag, true), m.literal(n)))
		case typeIs(frag, "integer") && n.Kind == KindNumber:
			// A number, but not a whole one.
			m.add(n, "", must(subj, expected(frag, true), m.literal(n)))
		default:
			m.add(n, "", must(subj, expected(frag, false), kindPhrase(n)))
		}
	case "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "pattern", "minLength", "maxLength", "format":
		m.add(n, "", must(subj, expected(frag, true), m.literal(n)))
	case "minItems", "maxItems", "uniqueItems":
		m.add(n, "", fmt.Sprintf("%s has the wrong number of elements (%s)", subj, strings.TrimSpace(e.Message)))
	default:
		// A keyword this schema does not use today; the library's message
		// is the best available.
		m.add(n, "", fmt.Sprintf("%s is not accepted: %s", subj, e.Message))
	}
}

// addElementType reports a non-string patch element (see instanceOf) with
// the words leaf gives a failing "type" keyword.
func (m *violationCollector) addElementType(e *Node) {
	m.add(e, "", must(m.subject(e), "a string", kindPhrase(e)))
}

func must(subj, want, got string) string {
	sep := ", got "
	if strings.Contains(want, ", ") {
		sep = "; got " // "one of a, b, c; got x" reads better than a fourth comma
	}
	return subj + " must be " + want + sep + got
}

// expected words what the schema fragment asks for. precise adds the
// value constraints (the minimum, the format) to the type; without it an
// integer is just "a number", the plainest thing to say to a value of the
// wrong type altogether.
func expected(frag map[string]any, precise bool) string {
	if c, ok := frag["const"]; ok {
		return schemaLiteral(c)
	}
	if vals, ok := frag["enum"].([]any); ok {
		words := make([]string, len(vals))
		for i, v := range vals {
			if s, ok := v.(string); ok {
				words[i] = s // enum values read best bare: LEFT, active
			} else {
				words[i] = schemaLiteral(v)
			}
		}
		switch len(words) {
		case 1:
			return words[0]
		case 2:
			return words[0] + " or " + words[1]
		}
		return "one of " + strings.Join(words, ", ")
	}
	var want string
	switch {
	case typeIs(frag, "integer") && precise:
		want = "a whole number"
	case typeIs(frag, "integer"), typeIs(frag, "number"):
		want = "a number"
	case typeIs(frag, "string"):
		want = "a string"
	case typeIs(frag, "array"):
		want = "an array"
	case typeIs(frag, "object"):
		want = "an object"
	case typeIs(frag, "boolean"):
		want = "true or false"
	case typeIs(frag, "null"):
		want = "null"
	default:
		want = "a value of another form"
	}
	if !precise {
		return want
	}
	if min, ok := frag["minimum"].(float64); ok {
		want += " of at least " + strconv.FormatFloat(min, 'f', -1, 64)
	}
	if max, ok := frag["maximum"].(float64); ok {
		want += " of at most " + strconv.FormatFloat(max, 'f', -1, 64)
	}
	if f, ok := frag["format"].(string); ok {
		switch f {
		case "date-time":
			want = "an RFC 3339 date-time such as 2024-05-01T12:00:00Z"
		default:
			want += " in " + f + " format"
		}
	}
	if p, ok := frag["pattern"].(string); ok && frag["format"] == nil {
		want += " matching " + p
	}
	return want
}

func typeIs(frag map[string]any, t string) bool {
	switch v := frag["type"].(type) {
	case string:
		return v == t
	case []any:
		for _, x := range v {
			if x == t {
				return true
			}
		}
	}
	return false
}

func schemaLiteral(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// subject names a node of the document in a message: a member by its
// name, an element by its index (0-based, as in JSON pointers, jq and the
// patch diagnostics) in its array.
func (m *violationCollector) subject(n *Node) string {
	return subjectOf(Path(m.doc.Root, n))
}

// subjectOf is subject for the last node of path, the nodes from the
// root down to it.
func subjectOf(path []*Node) string {
	k := len(path)
	switch {
	case k < 2:
		return "the document"
	case path[k-2].Kind == KindObject:
		return "`" + path[k-1].Name + "`"
	}
	return "element " + strconv.Itoa(int(path[k-1].Index)) + " of " + subjectOf(path[:k-1])
}

// kindPhrase names a value's type for a "got …" clause.
func kindPhrase(n *Node) string {
	switch n.Kind {
	case KindObject:
		return "an object"
	case KindArray:
		return "an array"
	case KindString:
		return "a string"
	case KindNumber:
		return "a number"
	case KindBool:
		if n.Bool {
			return "true"
		}
		return "false"
	case KindNull:
		return "null"
	}
	return "nothing valid"
}

// maxLiteral bounds how much of a string or number a message quotes.
const maxLiteral = 40

// literal spells a scalar value for a "got …" clause; containers are named
// by their type.
func (m *violationCollector) literal(n *Node) string {
	switch n.Kind {
	case KindString:
		s := n.Str
		if utf8.RuneCountInString(s) > maxLiteral {
			r := []rune(s)
			s = string(r[:maxLiteral]) + "…"
		}
		return strconv.Quote(s)
	case KindNumber:
		if n.End-n.Start <= maxLiteral {
			return m.doc.Text.String(n.Start, n.End)
		}
		return m.doc.Text.String(n.Start, n.Start+maxLiteral) + "…"
	}
	return kindPhrase(n)
}

// node finds the value at a JSON pointer of the instance. The validator
// percent-encodes member names in its pointers on top of RFC 6901's
// escapes. Duplicate keys resolve to the last one, as Value does.
func (m *violationCollector) node(ptr string) *Node {
	n := m.doc.Root
	if ptr == "" {
		return n
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		switch n.Kind {
		case KindObject:
			n = n.Member(tok)
		case KindArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Elems()) {
				return nil
			}
			n = n.Elems()[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
	}
	return n
}

// pointerUnescaper undoes RFC 6901's escapes in a pointer token.
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

func unescapeToken(tok string) string {
	if strings.IndexByte(tok, '%') >= 0 {
		if u, err := url.PathUnescape(tok); err == nil {
			tok = u
		}
	}
	if strings.IndexByte(tok, '~') >= 0 {
		tok = pointerUnescaper.Replace(tok)
	}
	return tok
}

// keywordOf returns the schema keyword an error comes from: the last token
// of its keyword location.
func keywordOf(e *jsonschema.ValidationError) string {
	loc := e.KeywordLocation
	return unescapeToken(loc[strings.LastIndexByte(loc, '/')+1:])
}

// fragment returns the schema object holding the keyword e failed on and
// that object's pointer within the schema document.
func (v *SchemaValidator) fragment(e *jsonschema.ValidationError) (map[string]any, string) {
	loc := e.AbsoluteKeywordLocation
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		loc = loc[i+1:]
	} else {
		loc = ""
	}
	if i := strings.LastIndexByte(loc, '/'); i >= 0 {
		loc = loc[:i] // drop the keyword
	}
	cur := v.tree
	if loc != "" {
		for _, tok := range strings.Split(loc[1:], "/") {
			tok = unescapeToken(tok)
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(c) {
					return nil, loc
				}
				cur = c[i]
			default:
				return nil, loc
			}
		}
	}
	frag, _ := cur.(map[string]any)
	return frag, loc
}
