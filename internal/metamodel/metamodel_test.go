package metamodel

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// tiny is a model written for these tests: one of each kind of type.
const tiny = `{
 "metaData": {"version": "test"},
 "requests": [{"method": "x/get", "messageDirection": "clientToServer",
   "params": {"kind": "reference", "name": "Base"},
   "result": {"kind": "or", "items": [{"kind": "reference", "name": "Derived"}, {"kind": "base", "name": "null"}]}}],
 "notifications": [{"method": "x/told", "messageDirection": "serverToClient",
   "params": {"kind": "reference", "name": "Alias"}}],
 "structures": [
  {"name": "Base", "properties": [
    {"name": "n", "type": {"kind": "base", "name": "uinteger"}},
    {"name": "old", "type": {"kind": "base", "name": "boolean"}, "optional": true, "deprecated": "Use tags"}]},
  {"name": "Mix", "properties": [{"name": "m", "type": {"kind": "array", "element": {"kind": "base", "name": "string"}}, "optional": true}]},
  {"name": "Derived", "extends": [{"kind": "reference", "name": "Base"}], "mixins": [{"kind": "reference", "name": "Mix"}],
   "properties": [
    {"name": "kind", "type": {"kind": "reference", "name": "Color"}},
    {"name": "lit", "type": {"kind": "literal", "value": {"properties": [{"name": "a", "type": {"kind": "stringLiteral", "value": "yes"}}]}}, "optional": true},
    {"name": "byURI", "type": {"kind": "map", "key": {"kind": "base", "name": "DocumentUri"}, "value": {"kind": "base", "name": "integer"}}, "optional": true},
    {"name": "pair", "type": {"kind": "tuple", "items": [{"kind": "base", "name": "string"}, {"kind": "base", "name": "decimal"}]}, "optional": true}]}
 ],
 "enumerations": [{"name": "Color", "type": {"kind": "base", "name": "integer"}, "values": [{"name": "Red", "value": 1}, {"name": "Blue", "value": 2}]}],
 "typeAliases": [{"name": "Alias", "type": {"kind": "and", "items": [{"kind": "reference", "name": "Base"}, {"kind": "reference", "name": "Mix"}]}}]
}`

func TestValidate(t *testing.T) {
	m, err := Parse([]byte(tiny))
	if err != nil {
		t.Fatal(err)
	}
	derived := &Type{Kind: "reference", Name: "Derived"}
	tests := []struct {
		name, value string
		want        []string // substrings of the violations, in order
	}{
		{"valid", `{"n": 0, "kind": 2, "m": ["a"], "lit": {"a": "yes"}, "byURI": {"file:///a": -3}, "pair": ["x", 1.5]}`, nil},
		{"missing required", `{"kind": 1}`, []string{`lacks its required property "n"`}},
		{"inherited wrong type", `{"n": -1, "kind": 1}`, []string{".n: got number -1, want an uinteger"}},
		{"integer not decimal", `{"n": 1.5, "kind": 1}`, []string{".n: got number 1.5"}},
		{"integer past int32", `{"n": 2147483648, "kind": 1}`, []string{".n: got number 2147483648"}},
		{"enum value", `{"n": 1, "kind": 3}`, []string{".kind: 3 is not a value of the enumeration Color"}},
		{"unknown property", `{"n": 1, "kind": 1, "colour": 1}`, []string{`Derived has no property "colour"`}},
		{"deprecated property", `{"n": 1, "kind": 1, "old": true}`, []string{".old: deprecated in Derived: Use tags"}},
		{"mixin array", `{"n": 1, "kind": 1, "m": "a"}`, []string{".m: got string"}},
		{"string literal", `{"n": 1, "kind": 1, "lit": {"a": "no"}}`, []string{`.lit.a: got string "no", want "yes"`}},
		{"map value", `{"n": 1, "kind": 1, "byURI": {"file:///a": "x"}}`, []string{`.byURI["file:///a"]: got string`}},
		{"tuple length", `{"n": 1, "kind": 1, "pair": ["x"]}`, []string{".pair: got array of 1, want a tuple of 2"}},
		{"not an object", `[1]`, []string{"want an object (Derived)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Decode([]byte(tc.value))
			if err != nil {
				t.Fatal(err)
			}
			got := m.Validate(derived, v)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations %v, want %d %q", len(got), got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].String(), w) {
					t.Errorf("violation %d: got %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestSession(t *testing.T) {
	m, err := Parse([]byte(tiny))
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewSession()
	s.FromClient([]byte(`{"jsonrpc": "2.0", "id": 7, "method": "x/get", "params": {"n": 1}}`))
	s.FromClient([]byte(`{"jsonrpc": "2.0", "id": "s", "method": "x/get", "params": {"n": 1}}`))
	tests := []struct {
		name, body, kind, method string
		violations               int
	}{
		{"result", `{"jsonrpc": "2.0", "id": 7, "result": {"n": 1, "kind": 1}}`, "response", "x/get", 0},
		{"answered twice", `{"jsonrpc": "2.0", "id": 7, "result": null}`, "response", "", 1},
		{"null result, string id", `{"jsonrpc": "2.0", "id": "s", "result": null}`, "response", "x/get", 0},
		{"bad error", `{"jsonrpc": "2.0", "id": null, "error": {"code": "x", "message": "m"}}`, "response", "", 1},
		{"notification", `{"jsonrpc": "2.0", "method": "x/told", "params": {"n": 1, "m": [2]}}`, "notification", "x/told", 1},
		{"unknown", `{"jsonrpc": "2.0", "method": "x/other"}`, "notification", "x/other", 1},
		{"no version", `{"id": 1, "result": null}`, "unreadable", "", 1},
	}
	for _, tc := range tests {
		c := s.FromServer([]byte(tc.body))
		if c.Kind != tc.kind || c.Method != tc.method || len(c.Violations) != tc.violations {
			t.Errorf("%s: got %s %q with %v, want %s %q with %d violations", tc.name, c.Kind, c.Method, c.Violations, tc.kind, tc.method, tc.violations)
		}
	}
}

func TestResultRules(t *testing.T) {
	tests := []struct {
		name, method, params, result string
		want                         int
	}{
		{"comma at the insert position", "textDocument/completion", `{}`,
			`{"items": [{"label": "a", "textEdit": {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}}, "newText": "x"},
			  "additionalTextEdits": [{"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}}, "newText": ","}]}]}`, 1},
		{"comma at the end of the replaced token", "textDocument/completion", `{}`,
			`[{"label": "a", "textEdit": {"range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 4}}, "newText": "x"},
			  "additionalTextEdits": [{"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}}, "newText": ","}]}]`, 1},
		{"comma elsewhere", "textDocument/completion", `{}`,
			`[{"label": "a", "textEdit": {"range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 4}}, "newText": "x"},
			  "additionalTextEdits": [{"range": {"start": {"line": 1, "character": 9}, "end": {"line": 1, "character": 9}}, "newText": ","}]}]`, 0},
		{"hover beside the position", "textDocument/hover", `{"position": {"line": 3, "character": 0}}`,
			`{"contents": "x", "range": {"start": {"line": 3, "character": 1}, "end": {"line": 3, "character": 5}}}`, 1},
		{"hover at the range's end", "textDocument/hover", `{"position": {"line": 3, "character": 5}}`,
			`{"contents": "x", "range": {"start": {"line": 3, "character": 1}, "end": {"line": 3, "character": 5}}}`, 0},
		{"overlapping fix", "textDocument/codeAction", `{}`,
			`[{"title": "t", "edit": {"changes": {"file:///a": [
			  {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 5}}, "newText": ""},
			  {"range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 6}}, "newText": ""}]}}}]`, 1},
		{"adjacent edits", "textDocument/formatting", `{}`,
			`[{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 5}}, "newText": ""},
			  {"range": {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 5}}, "newText": "y"}]`, 0},
	}
	for _, tc := range tests {
		params, err1 := Decode([]byte(tc.params))
		result, err2 := Decode([]byte(tc.result))
		if err1 != nil || err2 != nil {
			t.Fatal(tc.name, err1, err2)
		}
		if got := ResultRules(tc.method, params, result); len(got) != tc.want {
			t.Errorf("%s: got %v, want %d violations", tc.name, got, tc.want)
		}
	}
}

// TestOfficialModel loads the real meta model and checks a few values
// every client takes, and one none does.
func TestOfficialModel(t *testing.T) {
	name, ok := refdata.Path("data/lsp-metamodel/metaModel.json")
	if !ok {
		refdata.Missing(t, "data/lsp-metamodel/metaModel.json")
	}
	m, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	hover := m.Request("textDocument/hover")
	for _, tc := range []struct {
		value string
		want  int
	}{
		{`null`, 0},
		{`{"contents": {"kind": "plaintext", "value": "x"}}`, 0},
		{`{"contents": {"kind": "html", "value": "x"}}`, 1},
		{`{"contents": "x", "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0}}}`, 1},
	} {
		v, _ := Decode([]byte(tc.value))
		if got := m.Validate(hover.Result, v); len(got) < tc.want || tc.want == 0 && len(got) > 0 {
			t.Errorf("hover %s: got %v, want %d violations", tc.value, got, tc.want)
		}
	}
}

func TestCapabilityRules(t *testing.T) {
	full := `{"textDocument": {"codeAction": {"codeActionLiteralSupport": {}, "isPreferredSupport": true}, "hover": {"contentFormat": ["markdown"]},
		"documentSymbol": {"hierarchicalDocumentSymbolSupport": true, "tagSupport": {"valueSet": [1]}, "symbolKind": {"valueSet": [24]}},
		"completion": {"completionItem": {"snippetSupport": true, "documentationFormat": ["markdown"], "preselectSupport": true,
			"insertTextModeSupport": {"valueSet": [1]}}, "completionItemKind": {"valueSet": [20]}},
		"publishDiagnostics": {"relatedInformation": true, "tagSupport": {"valueSet": [1]}}},
		"workspace": {"applyEdit": true}, "window": {"showDocument": {"support": true}}, "general": {"positionEncodings": ["utf-8"]}}`
	for _, tc := range []struct {
		name, kind, method, value string
		full, minimal             int // violations with either client
	}{
		{"a CodeAction", "response", "textDocument/codeAction", `[{"title": "t", "edit": {}}]`, 0, 1},
		{"a Command", "response", "textDocument/codeAction", `[{"title": "t", "command": "c"}]`, 0, 0},
		{"a markdown hover", "response", "textDocument/hover", `{"contents": {"kind": "markdown", "value": "x"}}`, 0, 1},
		{"a DocumentSymbol with tags", "response", "textDocument/documentSymbol", `[{"name": "n", "selectionRange": {}, "tags": [1]}]`, 0, 2},
		{"a snippet with markdown", "response", "textDocument/completion", `{"items": [{"label": "l", "insertTextFormat": 2, "documentation": {"kind": "markdown"}}]}`, 0, 2},
		{"an item as is, preselected, an enum member", "response", "textDocument/completion", `{"items": [{"label": "l", "insertTextMode": 1, "preselect": true, "kind": 20}]}`, 0, 3},
		{"a preferred fix", "response", "textDocument/codeAction", `[{"title": "t", "isPreferred": true}]`, 0, 2},
		{"an event symbol", "response", "textDocument/documentSymbol", `[{"name": "n", "kind": 24, "location": {}}]`, 0, 1},
		{"an encoding not offered", "response", "initialize", `{"capabilities": {"positionEncoding": "utf-8"}}`, 0, 1},
		{"utf-16", "response", "initialize", `{"capabilities": {"positionEncoding": "utf-16"}}`, 0, 0},
		{"tags and notes", "notification", "textDocument/publishDiagnostics", `{"diagnostics": [{"tags": [1], "relatedInformation": []}]}`, 0, 2},
		{"applyEdit", "request", "workspace/applyEdit", `{"edit": {}}`, 0, 1},
		{"showDocument", "request", "window/showDocument", `{"uri": "x"}`, 0, 1},
	} {
		for _, client := range []struct {
			caps string
			want int
		}{{full, tc.full}, {`{}`, tc.minimal}} {
			caps, err1 := Decode([]byte(client.caps))
			value, err2 := Decode([]byte(tc.value))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if got := CapabilityRules(caps, tc.kind, tc.method, value); len(got) != client.want {
				t.Errorf("%s to %s: got %v, want %d violations", tc.name, client.caps[:12], got, client.want)
			}
		}
	}
}
