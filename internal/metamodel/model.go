// Package metamodel checks JSON values against the official LSP meta model
// (metaModel.json of microsoft/vscode-languageserver-node), read at run
// time: the server's conformance tests validate every message it sends
// with it. It knows the model's type grammar (base types, references to
// structures, enumerations and type aliases, arrays, maps, tuples, or/and,
// structure literals and string, integer and boolean literals), optional
// properties, and structures' extends and mixins.
package metamodel

import (
	"encoding/json"
	"fmt"
	"os"
)

// Model is a loaded meta model.
type Model struct {
	Version       string
	structures    map[string]*structure
	enumerations  map[string]*enumeration
	aliases       map[string]*Type
	requests      map[string]*Message
	notifications map[string]*Message
}

// Message is a request or a notification of the model.
type Message struct {
	Method    string `json:"method"`
	Direction string `json:"messageDirection"`
	Params    *Type  `json:"params"`
	Result    *Type  `json:"result"`
}

// Type is one node of the model's type grammar.
type Type struct {
	Kind    string  `json:"kind"`
	Name    string  `json:"name"`
	Element *Type   `json:"element"`
	Key     *Type   `json:"key"`
	Items   []*Type `json:"items"`
	// Value is a map's value type, a literal's properties, or a string,
	// integer or boolean literal's value, as the kind says.
	Value json.RawMessage `json:"value"`

	mapValue *Type
	literal  []*property
}

type property struct {
	Name       string `json:"name"`
	Type       *Type  `json:"type"`
	Optional   bool   `json:"optional"`
	Deprecated string `json:"deprecated"`
}

type structure struct {
	Name       string      `json:"name"`
	Properties []*property `json:"properties"`
	Extends    []*Type     `json:"extends"`
	Mixins     []*Type     `json:"mixins"`
	// all is every property, own, inherited and mixed in, by name.
	all map[string]*property
}

type enumeration struct {
	Name   string `json:"name"`
	Type   *Type  `json:"type"`
	Values []struct {
		Value json.RawMessage `json:"value"`
	} `json:"values"`
	SupportsCustomValues bool `json:"supportsCustomValues"`
	values               map[string]bool
}

// Load reads a meta model file.
func Load(name string) (*Model, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	m, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// Parse reads a meta model from its JSON text.
func Parse(data []byte) (*Model, error) {
	var raw struct {
		MetaData struct {
			Version string `json:"version"`
		} `json:"metaData"`
		Requests      []*Message     `json:"requests"`
		Notifications []*Message     `json:"notifications"`
		Structures    []*structure   `json:"structures"`
		Enumerations  []*enumeration `json:"enumerations"`
		TypeAliases   []struct {
			Name string `json:"name"`
			Type *Type  `json:"type"`
		} `json:"typeAliases"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("not a meta model: %w", err)
	}
	m := &Model{
		Version:       raw.MetaData.Version,
		structures:    map[string]*structure{},
		enumerations:  map[string]*enumeration{},
		aliases:       map[string]*Type{},
		requests:      map[string]*Message{},
		notifications: map[string]*Message{},
	}
	var types []*Type
	for _, r := range raw.Requests {
		m.requests[r.Method] = r
		types = append(types, r.Params, r.Result)
	}
	for _, n := range raw.Notifications {
		m.notifications[n.Method] = n
		types = append(types, n.Params)
	}
	for _, s := range raw.Structures {
		m.structures[s.Name] = s
		for _, p := range s.Properties {
			types = append(types, p.Type)
		}
	}
	for _, e := range raw.Enumerations {
		e.values = map[string]bool{}
		for _, v := range e.Values {
			e.values[string(v.Value)] = true
		}
		m.enumerations[e.Name] = e
	}
	for _, a := range raw.TypeAliases {
		m.aliases[a.Name] = a.Type
		types = append(types, a.Type)
	}
	for _, t := range types {
		if err := m.prepare(t); err != nil {
			return nil, err
		}
	}
	for _, s := range raw.Structures {
		if err := m.inherit(s, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// prepare decodes the kind-dependent value of t and of the types inside it.
func (m *Model) prepare(t *Type) error {
	if t == nil {
		return nil
	}
	switch t.Kind {
	case "map":
		t.mapValue = &Type{}
		if err := json.Unmarshal(t.Value, t.mapValue); err != nil {
			return fmt.Errorf("map value: %w", err)
		}
		if err := m.prepare(t.mapValue); err != nil {
			return err
		}
	case "literal":
		var lit struct {
			Properties []*property `json:"properties"`
		}
		if err := json.Unmarshal(t.Value, &lit); err != nil {
			return fmt.Errorf("literal: %w", err)
		}
		t.literal = lit.Properties
		for _, p := range lit.Properties {
			if err := m.prepare(p.Type); err != nil {
				return err
			}
		}
	}
	for _, sub := range append([]*Type{t.Element, t.Key}, t.Items...) {
		if err := m.prepare(sub); err != nil {
			return err
		}
	}
	return nil
}

// inherit fills s.all with s's properties and those of the structures it
// extends or mixes in; its own override theirs.
func (m *Model) inherit(s *structure, seen map[string]bool) error {
	if s.all != nil {
		return nil
	}
	if seen[s.Name] {
		return fmt.Errorf("structure %s extends itself", s.Name)
	}
	seen[s.Name] = true
	all := map[string]*property{}
	for _, t := range append(append([]*Type{}, s.Extends...), s.Mixins...) {
		parent := m.structures[t.Name]
		if t.Kind != "reference" || parent == nil {
			return fmt.Errorf("structure %s extends %s %q, not a structure", s.Name, t.Kind, t.Name)
		}
		if err := m.inherit(parent, seen); err != nil {
			return err
		}
		for n, p := range parent.all {
			all[n] = p
		}
	}
	for _, p := range s.Properties {
		all[p.Name] = p
	}
	s.all = all
	return nil
}

// Request returns the model's request method, or nil.
func (m *Model) Request(method string) *Message { return m.requests[method] }

// Notification returns the model's notification method, or nil.
func (m *Model) Notification(method string) *Message { return m.notifications[method] }
