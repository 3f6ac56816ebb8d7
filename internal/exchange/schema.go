package exchange

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/leanreview/lreview-lsp/schema"
)

// SchemaViolation is one leaf error, in plain words, on the smallest node at
// fault.
type SchemaViolation struct {
	Node    *Node  // the value at fault; for a missing member, the object that lacks it
	Missing string // name of the missing required member, "" otherwise
	Message string // plain words, e.g. "`side` must be LEFT or RIGHT, got \"MIDDLE\""
}

// SchemaValidator checks documents against the published JSON Schema,
// compiled from the copy embedded in the binary. A SchemaValidator holds no
// per-document state: one may serve concurrent validations.
type SchemaValidator struct {
	compiled *jsonschema.Schema
	// tree is the schema text decoded, so that a failing keyword's siblings
	// (the enum's values, the minimum, the type) can be read back to word
	// the message: the library's own messages are meant for schema authors.
	tree any
	// shortcut enables the patch and comment shortcuts of instanceOf;
	// tests turn it off to compare with plain validation.
	shortcut bool
}

// NewSchemaValidator compiles the embedded schema. Nothing is ever loaded
// over the network or from disk: the schema is registered under its $id and
// any other reference fails to load.
//
// Formats are asserted (Compiler.AssertFormat). Draft 2020-12 makes
// "format" an annotation by default, but the spec fixes `at` as RFC 3339,
// and the editors that read the published schema (VS Code's JSON language
// service, JetBrains) do flag a malformed date-time: asserting it here keeps
// the server, `lreview-lsp check` and those editors in agreement. "at" is
// the only formatted member, and a wrong timestamp is a typical generator
// slip ("yesterday") that leanreview would otherwise carry forever.
func NewSchemaValidator() (*SchemaValidator, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("refusing to load %s: the review exchange schema is self-contained", u)
	}
	if err := c.AddResource(schema.ID, bytes.NewReader(schema.JSON)); err != nil {
		return nil, err
	}
	compiled, err := c.Compile(schema.ID)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := json.Unmarshal(schema.JSON, &tree); err != nil {
		return nil, err
	}
	return &SchemaValidator{compiled: compiled, tree: tree, shortcut: true}, nil
}

// defaultSchema is the process's compiled schema, built on first use and
// never changed after (as schemaDocsOnce, in schemadoc.go, is for the
// schema's descriptions).
var defaultSchema struct {
	once sync.Once
	v    *SchemaValidator
	err  error
}

// DefaultSchema returns the validator for the embedded schema, compiling it
// on first use. The embedded schema is fixed at build time and the tests
// compile it, so a failure here is a build defect, reported by panicking.
func DefaultSchema() *SchemaValidator {
	defaultSchema.once.Do(func() {
		defaultSchema.v, defaultSchema.err = NewSchemaValidator()
	})
	if defaultSchema.err != nil {
		panic("lreview: the embedded review exchange schema does not compile: " + defaultSchema.err.Error())
	}
	return defaultSchema.v
}

// Validate checks doc against the schema and returns its violations in
// document order, at most one per (node, missing member). When the
// document has syntax errors its tree is partial, so violations that only
// say "the person is still typing" are left out: invalid values, cut-off
// strings and members missing from objects that are not closed yet.
func (v *SchemaValidator) Validate(doc *Document) []SchemaViolation {
	return v.validate(doc, nil)
}

// validate is Validate but for the comments whose element index is true
// in stub: their violations, if any, are known already (CheckIncremental),
// so the validator gets a stand-in that it accepts. DefaultSchema's
// validator takes stub into account; one without the shortcuts ignores it.
func (v *SchemaValidator) validate(doc *Document, stub []bool) []SchemaViolation {
	if doc == nil || doc.Root == nil {
		return nil
	}
	inst, patchFaults := instanceOf(doc, v.shortcut, stub)
	m := &violationCollector{v: v, doc: doc}
	for _, e := range patchFaults {
		m.addElementType(e)
	}
	err := v.run(inst)
	var ve *jsonschema.ValidationError
	switch {
	case err == nil:
	case errors.As(err, &ve):
		m.walk(ve)
	default:
		// Nothing in this schema and a Node tree should get here; say
		// something rather than nothing.
		m.add(doc.Root, "", "the document could not be checked against the schema: "+err.Error())
	}
	return m.result()
}

// run validates inst, turning a panic of the library into an error: a
// document must never bring the language server down.
func (v *SchemaValidator) run(inst any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return v.compiled.Validate(inst)
}

// instanceOf converts the document to the generic form the validator
// takes: what Node.Value gives, except for numbers (see validatorNumber).
//
// With shortcut, validation stays proportional to what may be wrong rather
// than to the size of the review, by two exact shortcuts:
//
//   - A patch array (most of a large review's elements) is handed over
//     empty, and its non-string elements are returned, to be reported in Go
//     with the words the schema's failing "items" would get. The schema asks
//     one thing only of those elements, that each be a string, so an empty
//     array passes the array branch exactly when an all-string one does.
//   - A comment that certainlyValidComment vouches for is handed over as
//     stubComment (or, when all are, the comments array as an empty one):
//     the schema would accept it, and the stub keeps the other elements'
//     indices. So is a comment stub marks: its findings are carried over.
//
// TestPatchShortcut and TestCommentShortcut pin the schema to what the
// shortcuts assume and check that both paths report the same violations.
func instanceOf(doc *Document, shortcut bool, stub []bool) (any, []*Node) {
	root := doc.Root
	if !shortcut || root.Kind != KindObject {
		return instance(root, doc.Text), nil
	}
	obj := make(map[string]any, len(root.Members()))
	for _, mem := range root.Members() {
		if mem.Name != "patch" && mem.Name != "comments" {
			obj[mem.Name] = instance(mem, doc.Text) // the last duplicate wins, as in Value
		}
	}
	var faults []*Node
	if patch := root.Member("patch"); patch != nil && patch.Kind == KindArray {
		obj["patch"] = []any{}
		if !patch.onlyStrings { // else the reader saw that none is a fault
			for _, e := range patch.Elems() {
				if e.Kind != KindString {
					faults = append(faults, e)
				}
			}
		}
	} else if patch != nil {
		obj["patch"] = instance(patch, doc.Text)
	}
	if comments := root.Member("comments"); comments != nil && comments.Kind == KindArray {
		elems := make([]any, len(comments.Elems()))
		certain := true
		for i, c := range comments.Elems() {
			if i < len(stub) && stub[i] || certainlyValidComment(c, doc.Text) {
				elems[i] = stubComment
			} else {
				elems[i] = instance(c, doc.Text)
				certain = false
			}
		}
		if certain {
			elems = elems[:0]
		}
		obj["comments"] = elems
	} else if comments != nil {
		obj["comments"] = instance(comments, doc.Text)
	}
	return obj, faults
}

// stubComment stands in for a comment the schema certainly accepts.
var stubComment = map[string]any{"path": "p", "side": "RIGHT", "start_line": json.Number("1"), "body": ""}

// certainlyValidComment reports whether the schema certainly accepts the
// comment c, by checking in Go the plain shape writers produce. It may
// answer false for a valid comment (then the validator decides, as without
// the shortcut); it must never answer true for an invalid one. Every check
// mirrors one keyword of $defs/comment or $defs/reply, and
// TestCommentShortcut fails when those change.
func certainlyValidComment(c *Node, src Text) bool {
	if c.Kind != KindObject {
		return false
	}
	var path, side, start, body bool
	for _, m := range c.Members() { // duplicates: every one must pass, stricter than last-wins
		ok := true
		switch m.Name {
		case "id", "author", "snippet":
			ok = m.Kind == KindString
		case "path":
			ok, path = m.Kind == KindString, true
		case "body":
			ok, body = m.Kind == KindString, true
		case "side":
			ok, side = m.Kind == KindString && isSide(m.Str), true
		case "start_line":
			ok, start = isLineNumber(m, src), true
		case "end_line":
			ok = isLineNumber(m, src)
		case "state":
			ok = m.Kind == KindString && (m.Str == StateActive || m.Str == StateDismissed || m.Str == StateOrphaned || m.Str == StateStale)
		case "at":
			ok = isDateTime(m)
		case "replies":
			ok = m.Kind == KindArray
			for _, r := range m.Elems() {
				ok = ok && certainlyValidReply(r)
			}
		}
		if !ok {
			return false
		}
	}
	return path && side && start && body
}

func certainlyValidReply(r *Node) bool {
	if r.Kind != KindObject {
		return false
	}
	var author, body bool
	for _, m := range r.Members() {
		ok := true
		switch m.Name {
		case "author":
			ok, author = m.Kind == KindString, true
		case "body":
			ok, body = m.Kind == KindString, true
		case "at":
			ok = isDateTime(m)
		}
		if !ok {
			return false
		}
	}
	return author && body
}

// isSide is the schema's side pattern, ^([Ll][Ee][Ff][Tt]|[Rr][Ii][Gg][Hh][Tt])$,
// in ASCII only: Unicode case folding would let "rıght" through.
func isSide(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	var up [5]byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up[i] = c
	}
	return string(up[:len(s)]) == "LEFT" || string(up[:len(s)]) == "RIGHT"
}

// isLineNumber accepts the plain spelling of an integer from 1 to
// 999,999,999: digits without a leading zero, sign, fraction or exponent.
func isLineNumber(n *Node, src Text) bool {
	if n.Kind != KindNumber || n.End-n.Start > 9 || src.Byte(n.Start) == '0' {
		return false
	}
	for _, c := range src.Slice(n.Start, n.End) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isDateTime applies the validator's own date-time check.
func isDateTime(n *Node) bool {
	return n.Kind == KindString && jsonschema.Formats["date-time"](n.Str)
}

// instance is Node.Value with numbers made safe for the validator.
func instance(n *Node, src Text) any { return n.value(src, validatorNumber) }

// validatorNumber returns the number the validator is given for the JSON
// number text. The library turns every number into a big.Rat from its
// text, which fails with a nil dereference beyond an exponent of a million
// ("start_line": 1e9999999 would crash the server) and is slow for long or
// far-out numbers. Such a number is replaced by a short stand-in with the
// same sign, the same integer-ness and the same order relative to any
// constant of at most 30 digits and magnitude below 1e30 - all the schema
// can ask of it (its only numeric constant is 1). Messages quote the
// source text, never the stand-in.
func validatorNumber(text string) json.Number {
	mant, expText, _ := strings.Cut(strings.ToLower(text), "e")
	if len(text) <= 32 && len(strings.TrimLeft(expText, "+-")) <= 3 {
		return json.Number(text) // the common case: "72"
	}
	sign := ""
	if strings.HasPrefix(mant, "-") {
		sign, mant = "-", mant[1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0"
	}
	// |value| = digits × 10^exp10, the exponent clamped far beyond any
	// threshold below (ParseInt fails only on range: keep its sign).
	exp := int64(0)
	if expText != "" {
		var err error
		if exp, err = strconv.ParseInt(expText, 10, 64); err != nil {
			exp = 1 << 40
			if expText[0] == '-' {
				exp = -exp
			}
		}
		exp = max(min(exp, 1<<40), -(1 << 40))
	}
	trimmed := strings.TrimRight(digits, "0")
	exp10 := int(exp) - len(frac) + len(digits) - len(trimmed)
	digits = trimmed
	lead := len(digits) + exp10 // 10^(lead-1) <= |value| < 10^lead
	switch {
	case exp10 >= 0 && lead <= 30: // a modest whole number
		return json.Number(sign + digits + "e" + strconv.Itoa(exp10))
	case exp10 >= 0: // a huge whole number
		return json.Number(sign + "1e30")
	case lead > 30: // huge, with a fraction
		return json.Number(sign + "1" + strings.Repeat("0", 30) + ".5")
	case lead < -30: // tiny
		return json.Number(sign + "1e-31")
	}
	// Modest, with a fraction: the leading 40 digits decide every
	// comparison with a short constant; a trailing 1 keeps the fraction,
	// and the strict order when the rest is cut.
	if len(digits) > 40 {
		digits = digits[:40] + "1"
		exp10 = lead - len(digits)
	}
	return json.Number(sign + digits + "e" + strconv.Itoa(exp10))
}
