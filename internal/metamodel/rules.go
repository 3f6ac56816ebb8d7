package metamodel

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// The rules the model states in its documentation rather than its types,
// checked on results of the right shape (Validate reports the rest).

// ResultRules checks the result of a request method whose params were
// params (both as Decode returns them).
func ResultRules(method string, params, result any) []Violation {
	switch method {
	case "textDocument/completion":
		return completionRules(result)
	case "textDocument/hover":
		return hoverRules(params, result)
	case "textDocument/codeAction":
		var out []Violation
		for i, a := range asArray(result) {
			out = append(out, workspaceEditRules(field(a, "edit"), fmt.Sprintf("[%d].edit", i))...)
		}
		return out
	case "textDocument/formatting":
		return editListRules(asArray(result), "")
	}
	return nil
}

// completionRules: "Additional text edits ... must not overlap (including
// the same insert position) with the main edit nor with themselves."
func completionRules(result any) []Violation {
	items := asArray(result)
	path := ""
	if list, ok := result.(map[string]any); ok {
		items, path = asArray(list["items"]), ".items"
	}
	var out []Violation
	for i, it := range items {
		at := fmt.Sprintf("%s[%d]", path, i)
		var main []span
		if te, ok := field(it, "textEdit").(map[string]any); ok {
			for _, k := range []string{"range", "insert", "replace"} {
				if r, ok := spanOf(te[k]); ok {
					main = append(main, r)
				}
			}
		}
		extra := asArray(field(it, "additionalTextEdits"))
		for j, e := range extra {
			r, ok := spanOf(field(e, "range"))
			if !ok {
				continue
			}
			for _, m := range main {
				if r.meets(m) {
					out = append(out, Violation{Path: fmt.Sprintf("%s.additionalTextEdits[%d]", at, j),
						Message: fmt.Sprintf("range %s overlaps the main textEdit's %s (or shares its insert position)", r, m)})
				}
			}
			for k := range j {
				if o, ok := spanOf(field(extra[k], "range")); ok && r.meets(o) {
					out = append(out, Violation{Path: fmt.Sprintf("%s.additionalTextEdits[%d]", at, j),
						Message: fmt.Sprintf("range %s overlaps additionalTextEdits[%d]'s %s", r, k, o)})
				}
			}
		}
	}
	return out
}

// hoverRules: the range of a hover is the text it is about, so it holds
// the hovered position.
func hoverRules(params, result any) []Violation {
	r, ok := spanOf(field(result, "range"))
	if !ok {
		return nil
	}
	p, ok := positionOf(field(params, "position"))
	if !ok {
		return nil
	}
	if p.before(r.start) || r.end.before(p) {
		return []Violation{{Path: ".range", Message: fmt.Sprintf("%s does not contain the hovered position %s", r, p)}}
	}
	return nil
}

// workspaceEditRules: the edits to one document "must never overlap".
func workspaceEditRules(edit any, path string) []Violation {
	var out []Violation
	if changes, ok := field(edit, "changes").(map[string]any); ok {
		for _, uri := range slices.Sorted(maps.Keys(changes)) {
			out = append(out, editListRules(asArray(changes[uri]), path+".changes["+strconv.Quote(uri)+"]")...)
		}
	}
	for i, dc := range asArray(field(edit, "documentChanges")) {
		out = append(out, editListRules(asArray(field(dc, "edits")), fmt.Sprintf("%s.documentChanges[%d].edits", path, i))...)
	}
	return out
}

// editListRules checks that no two edits of one list overlap. Inserts at
// the same position, or at a boundary of a replaced range, are allowed:
// the list's order orders them.
func editListRules(edits []any, path string) []Violation {
	var out []Violation
	spans := make([]span, len(edits))
	ok := make([]bool, len(edits))
	for i, e := range edits {
		spans[i], ok[i] = spanOf(field(e, "range"))
		for j := range i {
			if ok[i] && ok[j] && spans[i].overlaps(spans[j]) {
				out = append(out, Violation{Path: fmt.Sprintf("%s[%d]", path, i),
					Message: fmt.Sprintf("range %s overlaps edit [%d]'s %s", spans[i], j, spans[j])})
			}
		}
	}
	return out
}

type position struct{ line, char int64 }

func (p position) before(q position) bool {
	return p.line < q.line || p.line == q.line && p.char < q.char
}

func (p position) String() string { return fmt.Sprintf("%d:%d", p.line, p.char) }

type span struct{ start, end position }

func (s span) String() string { return s.start.String() + "-" + s.end.String() }

func (s span) empty() bool { return s.start == s.end }

// overlaps reports whether s and o share text, or one inserts strictly
// inside the other's range.
func (s span) overlaps(o span) bool {
	if s.start.before(o.end) && o.start.before(s.end) {
		return true
	}
	return s.empty() && o.start.before(s.start) && s.start.before(o.end) ||
		o.empty() && s.start.before(o.start) && o.start.before(s.end)
}

// meets is overlaps, where an insert at either end of the other's range
// (or at its position, when both insert) counts too: which text comes
// first would depend on the client.
func (s span) meets(o span) bool {
	if s.overlaps(o) {
		return true
	}
	inside := func(p position, r span) bool { return !p.before(r.start) && !r.end.before(p) }
	return s.empty() && inside(s.start, o) || o.empty() && inside(o.start, s)
}

func spanOf(v any) (span, bool) {
	s, ok1 := positionOf(field(v, "start"))
	e, ok2 := positionOf(field(v, "end"))
	return span{s, e}, ok1 && ok2
}

func positionOf(v any) (position, bool) {
	l, ok1 := field(v, "line").(json.Number)
	c, ok2 := field(v, "character").(json.Number)
	if !ok1 || !ok2 {
		return position{}, false
	}
	li, err1 := l.Int64()
	ci, err2 := c.Int64()
	return position{li, ci}, err1 == nil && err2 == nil
}

func field(v any, name string) any {
	if obj, ok := v.(map[string]any); ok {
		return obj[name]
	}
	return nil
}

func asArray(v any) []any {
	a, _ := v.([]any)
	return a
}

func jsonInt(n int) json.Number { return json.Number(strconv.Itoa(n)) }
