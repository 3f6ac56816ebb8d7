package exchange

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"

	"github.com/leanreview/lreview-lsp/schema"
)

// The documentation of the format's members, read from the published
// schema rather than written a second time in Go: the words a person sees
// in a hover or a completion are then the words VS Code and JetBrains show
// from the same schema, and a change to the schema changes all of them.

// Owners of members, as hover and completion name the object a member
// sits in: the top-level object, an element of `comments`, an element of a
// comment's `replies`.
const (
	OwnerReview  = "review"
	OwnerComment = "comment"
	OwnerReply   = "reply"
)

// MemberInfo is what the schema says about one member.
type MemberInfo struct {
	Name  string
	Title string
	// Markdown is the markdownDescription, or the plain description when
	// the schema has none; Description is the plain one.
	Markdown, Description string
	// Type is the member's JSON Schema type ("string", "integer",
	// "array"); for a member with alternatives (patch) it is the first
	// alternative's, the form writers should prefer.
	Type     string
	Required bool
	// Enum lists the allowed values of an enumerated member (side, state)
	// in the schema's order, with their descriptions.
	Enum []EnumValue
}

// EnumValue is one allowed value of an enumerated member.
type EnumValue struct {
	Value string
	// Description is the enumDescription; Markdown the
	// markdownEnumDescription, or the plain one when there is none.
	Description, Markdown string
}

// Members returns the members the schema defines for owner, in the
// schema's order (which is the spec's and the canonical writer's), or nil
// for an unknown owner. The slice, and each member's Enum, is the caller's.
func Members(owner string) []MemberInfo {
	ms := append([]MemberInfo(nil), schemaDocs().owners[owner]...)
	for i := range ms {
		ms[i].Enum = slices.Clone(ms[i].Enum)
	}
	return ms
}

// Member returns what the schema says about member name of owner. Its
// Enum is the caller's.
func Member(owner, name string) (MemberInfo, bool) {
	for _, m := range schemaDocs().owners[owner] {
		if m.Name == name {
			m.Enum = slices.Clone(m.Enum)
			return m, true
		}
	}
	return MemberInfo{}, false
}

// EnumValues returns the allowed values of member name of owner with
// their descriptions, or nil when the member is not enumerated.
func EnumValues(owner, name string) []EnumValue {
	m, _ := Member(owner, name)
	return m.Enum
}

// docs is the schema's documentation, decoded once: the embedded schema is
// fixed at build time, so this is a constant computed lazily, not state.
type docs struct {
	owners map[string][]MemberInfo
}

var schemaDocsOnce = sync.OnceValue(func() *docs {
	d, err := readDocs(schema.JSON)
	if err != nil {
		// The schema tests read the same bytes: a failure here is a build
		// defect, as in DefaultSchema.
		panic("lreview: the embedded review exchange schema cannot be read: " + err.Error())
	}
	return d
})

func schemaDocs() *docs { return schemaDocsOnce() }

// schemaNode is the part of a schema object the documentation needs.
type schemaNode struct {
	Title               string                     `json:"title"`
	Description         string                     `json:"description"`
	MarkdownDescription string                     `json:"markdownDescription"`
	Type                any                        `json:"type"`
	Required            []string                   `json:"required"`
	Properties          json.RawMessage            `json:"properties"`
	Enum                []any                      `json:"enum"`
	EnumDescriptions    []string                   `json:"enumDescriptions"`
	MarkdownEnumDescs   []string                   `json:"markdownEnumDescriptions"`
	AnyOf               []json.RawMessage          `json:"anyOf"`
	OneOf               []json.RawMessage          `json:"oneOf"`
	Defs                map[string]json.RawMessage `json:"$defs"`
}

func readDocs(text []byte) (*docs, error) {
	var root schemaNode
	if err := json.Unmarshal(text, &root); err != nil {
		return nil, err
	}
	d := &docs{owners: map[string][]MemberInfo{}}
	objects := map[string]schemaNode{OwnerReview: root}
	for owner, def := range map[string]string{OwnerComment: "comment", OwnerReply: "reply"} {
		var n schemaNode
		if raw, ok := root.Defs[def]; ok {
			if err := json.Unmarshal(raw, &n); err != nil {
				return nil, err
			}
		}
		objects[owner] = n
	}
	for owner, obj := range objects {
		ms, err := readMembers(obj)
		if err != nil {
			return nil, err
		}
		d.owners[owner] = ms
	}
	return d, nil
}

// readMembers reads an object schema's properties in source order:
// decoding them into a map would lose the order completion lists them in.
func readMembers(obj schemaNode) ([]MemberInfo, error) {
	if len(obj.Properties) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj.Properties))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out []MemberInfo
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		var n schemaNode
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, err
		}
		m := MemberInfo{Name: name, Title: n.Title, Description: n.Description, Markdown: n.MarkdownDescription}
		if m.Markdown == "" {
			m.Markdown = m.Description
		}
		for _, r := range obj.Required {
			m.Required = m.Required || r == name
		}
		m.Type = typeOf(n)
		m.Enum = enumOf(n)
		out = append(out, m)
	}
	return out, nil
}

// typeOf returns the node's type, or its first alternative's.
func typeOf(n schemaNode) string {
	if s, ok := n.Type.(string); ok {
		return s
	}
	for _, alts := range [][]json.RawMessage{n.AnyOf, n.OneOf} {
		for _, raw := range alts {
			var alt schemaNode
			if json.Unmarshal(raw, &alt) == nil {
				if t := typeOf(alt); t != "" {
					return t
				}
			}
		}
	}
	if len(n.Enum) > 0 {
		if _, ok := n.Enum[0].(string); ok {
			return "string"
		}
	}
	return ""
}

// enumOf returns the node's enumerated string values with their
// descriptions, looking into alternatives: `side` is an enum of the
// canonical spellings or any other case of them.
func enumOf(n schemaNode) []EnumValue {
	if len(n.Enum) > 0 {
		out := make([]EnumValue, 0, len(n.Enum))
		for i, v := range n.Enum {
			s, ok := v.(string)
			if !ok {
				continue
			}
			ev := EnumValue{Value: s}
			if i < len(n.EnumDescriptions) {
				ev.Description = n.EnumDescriptions[i]
			}
			ev.Markdown = ev.Description
			if i < len(n.MarkdownEnumDescs) && n.MarkdownEnumDescs[i] != "" {
				ev.Markdown = n.MarkdownEnumDescs[i]
			}
			out = append(out, ev)
		}
		return out
	}
	for _, alts := range [][]json.RawMessage{n.AnyOf, n.OneOf} {
		for _, raw := range alts {
			var alt schemaNode
			if json.Unmarshal(raw, &alt) == nil {
				if ev := enumOf(alt); len(ev) > 0 {
					return ev
				}
			}
		}
	}
	return nil
}
