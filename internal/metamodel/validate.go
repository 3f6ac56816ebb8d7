package metamodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Violation is one place where a value breaks the model.
type Violation struct {
	// Path is where, from the checked value: `[2].textEdit.range`.
	Path    string
	Message string
}

func (v Violation) String() string {
	if v.Path == "" {
		return v.Message
	}
	return v.Path + ": " + v.Message
}

// Decode reads a JSON text as Validate expects it: numbers keep their
// text, so that integers are told from decimals.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Validate checks v, as Decode returns it, against t. A property the model
// marks deprecated is a violation too: the model names its replacement.
func (m *Model) Validate(t *Type, v any) []Violation {
	var c checker
	c.m = m
	c.check(t, v, "")
	return c.out
}

type checker struct {
	m   *Model
	out []Violation
}

func (c *checker) fail(path, format string, args ...any) {
	c.out = append(c.out, Violation{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) check(t *Type, v any, path string) {
	switch t.Kind {
	case "base":
		c.base(t.Name, v, path)
	case "reference":
		c.reference(t.Name, v, path)
	case "array":
		arr, ok := v.([]any)
		if !ok {
			c.fail(path, "got %s, want an array", describe(v))
			return
		}
		for i, e := range arr {
			c.check(t.Element, e, fmt.Sprintf("%s[%d]", path, i))
		}
	case "tuple":
		arr, ok := v.([]any)
		if !ok || len(arr) != len(t.Items) {
			c.fail(path, "got %s, want a tuple of %d", describe(v), len(t.Items))
			return
		}
		for i, e := range arr {
			c.check(t.Items[i], e, fmt.Sprintf("%s[%d]", path, i))
		}
	case "map":
		obj, ok := v.(map[string]any)
		if !ok {
			c.fail(path, "got %s, want an object (map)", describe(v))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			c.check(t.Key, k, path+"{key "+strconv.Quote(k)+"}")
			c.check(t.mapValue, obj[k], path+"["+strconv.Quote(k)+"]")
		}
	case "and":
		c.and(t, v, path)
	case "or":
		c.or(t, v, path)
	case "literal":
		c.properties(literalProps(t.literal), v, path, "literal")
	case "stringLiteral", "integerLiteral", "booleanLiteral":
		if !literalEquals(t.Value, v) {
			c.fail(path, "got %s, want %s", describe(v), t.Value)
		}
	default:
		c.fail(path, "the model's type kind %q is unknown to the validator", t.Kind)
	}
}

// and checks v against the properties of every part at once, so that
// none counts the others' as unknown; parts that are not objects are
// checked one by one.
func (c *checker) and(t *Type, v any, path string) {
	all := map[string]*property{}
	for _, it := range t.Items {
		props, ok := c.propsOf(it)
		if !ok {
			c.check(it, v, path)
			continue
		}
		for n, p := range props {
			all[n] = p
		}
	}
	if len(all) > 0 {
		c.properties(all, v, path, typeName(t))
	}
}

// propsOf returns the properties of a structure or literal type.
func (c *checker) propsOf(t *Type) (map[string]*property, bool) {
	switch {
	case t.Kind == "literal":
		return literalProps(t.literal), true
	case t.Kind == "reference" && c.m.structures[t.Name] != nil:
		return c.m.structures[t.Name].all, true
	case t.Kind == "reference" && c.m.aliases[t.Name] != nil:
		return c.propsOf(c.m.aliases[t.Name])
	}
	return nil, false
}

// or accepts v when one alternative does; otherwise it reports the
// violations of the alternative v comes closest to.
func (c *checker) or(t *Type, v any, path string) {
	var best []Violation
	for _, it := range t.Items {
		sub := checker{m: c.m}
		sub.check(it, v, path)
		if len(sub.out) == 0 {
			return
		}
		if best == nil || len(sub.out) < len(best) {
			best = sub.out
		}
	}
	c.fail(path, "%s matches no alternative of %s; the closest:", describe(v), typeName(t))
	c.out = append(c.out, best...)
}

func (c *checker) base(name string, v any, path string) {
	switch name {
	case "string", "URI", "DocumentUri", "RegExp":
		if _, ok := v.(string); !ok {
			c.fail(path, "got %s, want a %s", describe(v), name)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			c.fail(path, "got %s, want a boolean", describe(v))
		}
	case "null":
		if v != nil {
			c.fail(path, "got %s, want null", describe(v))
		}
	case "decimal":
		if _, ok := v.(json.Number); !ok {
			c.fail(path, "got %s, want a number", describe(v))
		}
	case "integer", "uinteger":
		n, ok := v.(json.Number)
		i, err := strconv.ParseInt(string(n), 10, 64)
		lo := int64(math.MinInt32)
		if name == "uinteger" {
			lo = 0
		}
		// uinteger is 0 to 2^31-1 in the specification's words.
		if !ok || err != nil || i < lo || i > math.MaxInt32 {
			c.fail(path, "got %s, want an %s", describe(v), name)
		}
	default:
		c.fail(path, "the model's base type %q is unknown to the validator", name)
	}
}

func (c *checker) reference(name string, v any, path string) {
	if s := c.m.structures[name]; s != nil {
		c.properties(s.all, v, path, name)
		return
	}
	if e := c.m.enumerations[name]; e != nil {
		c.check(e.Type, v, path)
		if e.SupportsCustomValues {
			return
		}
		text, err := json.Marshal(v)
		if err == nil && !e.values[string(text)] {
			c.fail(path, "%s is not a value of the enumeration %s", text, name)
		}
		return
	}
	if a := c.m.aliases[name]; a != nil {
		c.check(a, v, path)
		return
	}
	c.fail(path, "the model has no type %s", name)
}

// properties checks an object against a structure's (or a literal's)
// properties: required ones present, none it does not declare, none the
// model deprecates.
func (c *checker) properties(props map[string]*property, v any, path, name string) {
	obj, ok := v.(map[string]any)
	if !ok {
		c.fail(path, "got %s, want an object (%s)", describe(v), name)
		return
	}
	for _, pn := range slices.Sorted(maps.Keys(props)) {
		p := props[pn]
		pv, present := obj[pn]
		switch {
		case !present && !p.Optional:
			c.fail(path, "%s lacks its required property %q", name, pn)
		case present && p.Deprecated != "":
			c.fail(path+"."+pn, "deprecated in %s: %s", name, p.Deprecated)
		case present:
			c.check(p.Type, pv, path+"."+pn)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if props[k] == nil {
			c.fail(path, "%s has no property %q", name, k)
		}
	}
}

func literalProps(ps []*property) map[string]*property {
	out := make(map[string]*property, len(ps))
	for _, p := range ps {
		out[p.Name] = p
	}
	return out
}

func literalEquals(want json.RawMessage, v any) bool {
	got, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(want, &a) != nil || json.Unmarshal(got, &b) != nil {
		return false
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// describe names what a value is, for messages.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return "string " + strconv.Quote(x)
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case json.Number:
		return "number " + string(x)
	case []any:
		return fmt.Sprintf("array of %d", len(x))
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		if len(keys) > 6 {
			keys = append(keys[:6], "…")
		}
		return "object {" + strings.Join(keys, ", ") + "}"
	}
	return fmt.Sprintf("%T", v)
}

// typeName writes a type in the specification's notation.
func typeName(t *Type) string {
	switch t.Kind {
	case "base", "reference":
		return t.Name
	case "array":
		return typeName(t.Element) + "[]"
	case "map":
		return "{[" + typeName(t.Key) + "]: " + typeName(t.mapValue) + "}"
	case "or", "and", "tuple":
		sep := map[string]string{"or": " | ", "and": " & ", "tuple": ", "}[t.Kind]
		names := make([]string, len(t.Items))
		for i, it := range t.Items {
			names[i] = typeName(it)
		}
		s := strings.Join(names, sep)
		if t.Kind == "tuple" {
			return "[" + s + "]"
		}
		return "(" + s + ")"
	case "literal":
		return "{literal}"
	}
	return string(t.Value)
}
