// Package diagram is the typed diagram an agent attaches to a cohort's
// summary — a sequence, an entity-relation or a state machine, as data,
// never Mermaid text — its validation, its edges checked against the code
// graph (Graph: verified, or unverified with the reason), and its Mermaid
// drawing for the forges, where an unverified edge is dashed and
// labelled so that nobody reads it as fact.
package diagram

import (
	"fmt"
	"regexp"
	"strings"
)

// Kinds.
const (
	Sequence       = "sequence"
	EntityRelation = "entity_relation"
	StateMachine   = "state_machine"
)

// Node is a participant, an entity or a state; Code, when set, names the
// definition it stands for in the code ("orders.Service.Place").
type Node struct {
	ID    string `json:"id" jsonschema:"the node's identifier in the diagram: letters, digits, _"`
	Label string `json:"label,omitempty" jsonschema:"what the reader sees; the id when empty"`
	Code  string `json:"code,omitempty" jsonschema:"the definition it stands for in the code (package.Name or package.Type.Method), to be checked against the code graph"`
}

// Edge is a message (a call), a relation (a reference or a field) or a
// transition.
type Edge struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Label string `json:"label,omitempty"`
}

// Diagram is one typed diagram: the members of its kind.
type Diagram struct {
	Kind  string `json:"kind" jsonschema:"sequence, entity_relation or state_machine"`
	Title string `json:"title,omitempty"`
	// sequence
	Participants []Node `json:"participants,omitempty" jsonschema:"sequence: who takes part"`
	Messages     []Edge `json:"messages,omitempty" jsonschema:"sequence: the calls, in order"`
	// entity_relation
	Entities  []Node `json:"entities,omitempty" jsonschema:"entity_relation: the types"`
	Relations []Edge `json:"relations,omitempty" jsonschema:"entity_relation: a field or reference from one type to another"`
	// state_machine
	States      []Node `json:"states,omitempty" jsonschema:"state_machine: the states"`
	Transitions []Edge `json:"transitions,omitempty" jsonschema:"state_machine: from one state to another"`
	Initial     string `json:"initial,omitempty" jsonschema:"state_machine: the first state's id"`
}

// Limits: a diagram is read by a person.
const (
	maxNodes = 64
	maxEdges = 256
	maxText  = 200
)

var idRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// parts are the diagram's nodes and edges for its kind, and their names.
func (d *Diagram) parts() (nodes []Node, edges []Edge, nodeWord, edgeWord string) {
	switch d.Kind {
	case Sequence:
		return d.Participants, d.Messages, "participants", "messages"
	case EntityRelation:
		return d.Entities, d.Relations, "entities", "relations"
	case StateMachine:
		return d.States, d.Transitions, "states", "transitions"
	}
	return nil, nil, "", ""
}

// Validate says what is wrong with d, naming the member and what was
// expected.
func (d *Diagram) Validate() error {
	nodes, edges, nw, ew := d.parts()
	if nw == "" {
		return fmt.Errorf("kind: expected sequence, entity_relation or state_machine, got %q", d.Kind)
	}
	for _, other := range []struct {
		name string
		n    int
	}{{"participants", len(d.Participants)}, {"messages", len(d.Messages)}, {"entities", len(d.Entities)}, {"relations", len(d.Relations)}, {"states", len(d.States)}, {"transitions", len(d.Transitions)}} {
		if other.n > 0 && other.name != nw && other.name != ew {
			return fmt.Errorf("%s: a %s diagram has %s and %s, not %s", other.name, d.Kind, nw, ew, other.name)
		}
	}
	if len(nodes) == 0 || len(nodes) > maxNodes || len(edges) > maxEdges {
		return fmt.Errorf("%s: expected 1 to %d of them (and at most %d %s), got %d", nw, maxNodes, maxEdges, ew, len(nodes))
	}
	ids := map[string]bool{}
	for i, n := range nodes {
		if !idRe.MatchString(n.ID) {
			return fmt.Errorf("%s[%d].id: expected letters, digits and _ (not first), up to 64, got %q", nw, i, n.ID)
		}
		if ids[n.ID] {
			return fmt.Errorf("%s[%d].id: %q is used twice", nw, i, n.ID)
		}
		if len(n.Label) > maxText || len(n.Code) > maxText {
			return fmt.Errorf("%s[%d]: label and code are at most %d bytes", nw, i, maxText)
		}
		ids[n.ID] = true
	}
	for i, e := range edges {
		for _, end := range []struct{ name, id string }{{"from", e.From}, {"to", e.To}} {
			if !ids[end.id] {
				return fmt.Errorf("%s[%d].%s: %q is none of the %s", ew, i, end.name, end.id, nw)
			}
		}
		if len(e.Label) > maxText {
			return fmt.Errorf("%s[%d].label: at most %d bytes", ew, i, maxText)
		}
	}
	if d.Kind == StateMachine {
		if !ids[d.Initial] {
			return fmt.Errorf("initial: expected the id of one of the states, got %q", d.Initial)
		}
	} else if d.Initial != "" {
		return fmt.Errorf("initial: only a state_machine has one")
	}
	return nil
}

// Graph is the code graph the edges are checked against (CodeGraph
// adapts the working tree's codegraph.Graph): Has says whether a definition is in it;
// Uses whether from uses to — calls it, refers to it, or has a field of
// its type — with, when not, the reason in words.
type Graph interface {
	Has(code string) bool
	Uses(from, to string) (ok bool, reason string)
}

// Checked is an edge and whether the code graph corroborates it.
type Checked struct {
	Edge
	Verified bool   `json:"verified"`
	Reason   string `json:"reason,omitempty" jsonschema:"why it is unverified"`
}

// Check checks every edge of d against g (nil: no code graph).
func (d *Diagram) Check(g Graph) []Checked {
	nodes, edges, _, _ := d.parts()
	code := map[string]string{}
	for _, n := range nodes {
		code[n.ID] = n.Code
	}
	out := make([]Checked, 0, len(edges))
	for _, e := range edges {
		c := Checked{Edge: e}
		from, to := code[e.From], code[e.To]
		switch {
		case g == nil:
			c.Reason = "no code graph of the working tree"
		case from == "" || to == "":
			c.Reason = "names no code"
		case !g.Has(from):
			c.Reason = from + " is not in the code graph"
		case !g.Has(to):
			c.Reason = to + " is not in the code graph"
		default:
			c.Verified, c.Reason = g.Uses(from, to)
			if c.Verified {
				c.Reason = ""
			}
		}
		out = append(out, c)
	}
	return out
}

// Mermaid draws d with its checked edges: verified edges solid,
// unverified ones dashed and labelled "unverified: <reason>".
func (d *Diagram) Mermaid(checked []Checked) string {
	nodes, _, _, _ := d.parts()
	var b strings.Builder
	label := func(n Node) string {
		if n.Label != "" {
			return text(n.Label)
		}
		return n.ID
	}
	edgeLabel := func(c Checked) string {
		l := text(c.Label)
		if !c.Verified {
			l = strings.TrimSpace(l + " (unverified: " + text(c.Reason) + ")")
		}
		return l
	}
	switch d.Kind {
	case Sequence:
		b.WriteString("sequenceDiagram\n")
		for _, n := range nodes {
			fmt.Fprintf(&b, "    participant %s as %s\n", n.ID, label(n))
		}
		for _, c := range checked {
			arrow := "->>"
			if !c.Verified {
				arrow = "-->>"
			}
			fmt.Fprintf(&b, "    %s%s%s: %s\n", c.From, arrow, c.To, edgeLabel(c))
		}
	case EntityRelation:
		b.WriteString("erDiagram\n")
		for _, n := range nodes {
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", n.ID, label(n))
		}
		for _, c := range checked {
			link := "||--o{"
			if !c.Verified {
				link = "||..o{"
			}
			fmt.Fprintf(&b, "    %s %s %s : \"%s\"\n", c.From, link, c.To, edgeLabel(c))
		}
	case StateMachine:
		// A flowchart, not stateDiagram: only a flowchart draws a dashed
		// transition.
		b.WriteString("flowchart LR\n")
		b.WriteString("    start_((\" \")) --> " + d.Initial + "\n")
		for _, n := range nodes {
			fmt.Fprintf(&b, "    %s([\"%s\"])\n", n.ID, label(n))
		}
		for _, c := range checked {
			arrow := "-->"
			if !c.Verified {
				arrow = "-.->"
			}
			if l := edgeLabel(c); l != "" {
				fmt.Fprintf(&b, "    %s %s|\"%s\"| %s\n", c.From, arrow, l, c.To)
			} else {
				fmt.Fprintf(&b, "    %s %s %s\n", c.From, arrow, c.To)
			}
		}
	}
	return b.String()
}

// text is s as a Mermaid label: one line, no quote or character Mermaid
// reads as syntax.
func text(s string) string {
	r := strings.NewReplacer("\n", " ", "\r", " ", `"`, "'", "|", "/", ";", ",", "#", "no. ", "`", "'", "<", "‹", ">", "›", "{", "(", "}", ")")
	return strings.TrimSpace(r.Replace(s))
}
