package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// capsReview is the example with c1 dismissed: struck through in the
// outline, greyed out among the diagnostics.
var capsReview = strings.Replace(exampleReview, `"state": "active"`, `"state": "dismissed"`, 1)

// capsClient opens capsReview in a client that declares capabilities.
func capsClient(t *testing.T, capabilities map[string]any) (*testClient, protocol.DocumentURI, initializeResult) {
	t.Helper()
	c := newTestClient(t, Options{})
	res := c.initializeWith(capabilities)
	uri := protocol.DocumentURI("file:///work/caps.review.json")
	c.open(uri, capsReview)
	c.waitDiagnostics(uri, 1)
	return c, uri, res
}

func capsPos(t *testing.T, needle string, skip int) protocol.Position {
	t.Helper()
	i := strings.Index(capsReview, needle)
	if i < 0 {
		t.Fatalf("%q is not in the review", needle)
	}
	p := exchange.NewMapper([]byte(capsReview)).Position(i+skip, exchange.UTF16)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

func minimalCapabilities() map[string]any { return map[string]any{} }

// TestCodeActionsFollowLiteralSupport: CodeAction literals to a client with
// codeActionLiteralSupport, Commands that apply the same edits to one with
// workspace.applyEdit only, none to a client that can apply no edit.
func TestCodeActionsFollowLiteralSupport(t *testing.T) {
	rng := protocol.Range{Start: capsPos(t, `"id": "c1"`, 0), End: capsPos(t, `"id": "c1"`, 0)}
	params := map[string]any{"textDocument": map[string]any{"uri": "file:///work/caps.review.json"}, "range": rng, "context": map[string]any{"diagnostics": []any{}}}

	c, _, _ := capsClient(t, fullCapabilities())
	var literals []protocol.CodeAction
	c.mustCall("textDocument/codeAction", params, &literals)
	if len(literals) == 0 || literals[0].Edit == nil {
		t.Fatalf("full client: got %+v, want CodeAction literals with edits", literals)
	}

	c, _, _ = capsClient(t, map[string]any{"workspace": map[string]any{"applyEdit": true}})
	var raw []map[string]any
	c.mustCall("textDocument/codeAction", params, &raw)
	if len(raw) != len(literals) {
		t.Fatalf("client without literals: got %d actions, want the %d the full client gets, as commands", len(raw), len(literals))
	}
	for i, r := range raw {
		if r["command"] != CommandApplyEdit || r["title"] != literals[i].Title || r["edit"] != nil || r["kind"] != nil {
			t.Errorf("client without literals: action %d is %v, want the Command %q titled %q", i, r, CommandApplyEdit, literals[i].Title)
		}
	}
	// Picked, the command has the client apply the literal's edit.
	c.mustCall("workspace/executeCommand", map[string]any{"command": raw[0]["command"], "arguments": raw[0]["arguments"]}, nil)
	c.mu.Lock()
	applied := c.applied
	c.mu.Unlock()
	want, _ := json.Marshal(literals[0].Edit)
	if len(applied) != 1 {
		t.Fatalf("after the command: got %d applyEdit requests, want 1", len(applied))
	}
	if got, _ := json.Marshal(applied[0].Edit); string(got) != string(want) {
		t.Errorf("the command applied %s, want the literal's edit %s", got, want)
	}

	c, _, _ = capsClient(t, minimalCapabilities())
	raw = nil
	c.mustCall("textDocument/codeAction", params, &raw)
	if len(raw) != 0 {
		t.Errorf("client that can apply no edit: got %v, want no action", raw)
	}
}

// TestHoverFollowsContentFormat: Markdown to a client whose
// hover.contentFormat lists it, plain text otherwise; either way the range
// holds the hovered position.
func TestHoverFollowsContentFormat(t *testing.T) {
	pos := capsPos(t, `"side"`, 2)
	params := map[string]any{"textDocument": map[string]any{"uri": "file:///work/caps.review.json"}, "position": pos}
	for _, tc := range []struct {
		name string
		caps map[string]any
		kind protocol.MarkupKind
	}{{"markdown", fullCapabilities(), protocol.Markdown}, {"plaintext", minimalCapabilities(), protocol.PlainText}} {
		c, _, _ := capsClient(t, tc.caps)
		var h protocol.Hover
		c.mustCall("textDocument/hover", params, &h)
		if h.Contents.Kind != tc.kind || !strings.Contains(h.Contents.Value, "side") {
			t.Errorf("%s client: got %s %q, want %s about side", tc.name, h.Contents.Kind, h.Contents.Value, tc.kind)
		}
		if tc.kind == protocol.PlainText && strings.ContainsAny(h.Contents.Value, "`*") {
			t.Errorf("plaintext client: got %q, want no Markdown syntax", h.Contents.Value)
		}
		if h.Range == nil || h.Range.Start.Line != pos.Line || h.Range.Start.Character > pos.Character || h.Range.End.Character < pos.Character {
			t.Errorf("%s client: got range %+v, want one that holds %+v", tc.name, h.Range, pos)
		}
	}
}

// TestOutlineFollowsHierarchicalSupport: a tree whose dismissed comment
// is tagged deprecated (never the deprecated flag) to a client with
// hierarchical support and tags; the whole tree as a flat, untagged
// SymbolInformation[] to a minimal client.
func TestOutlineFollowsHierarchicalSupport(t *testing.T) {
	params := map[string]any{"textDocument": map[string]any{"uri": "file:///work/caps.review.json"}}
	c, _, _ := capsClient(t, fullCapabilities())
	var tree []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", params, &tree)
	var dismissed []protocol.DocumentSymbol
	var find func([]protocol.DocumentSymbol)
	find = func(syms []protocol.DocumentSymbol) {
		for _, s := range syms {
			if len(s.Tags) > 0 {
				dismissed = append(dismissed, s)
			}
			find(s.Children)
		}
	}
	find(tree)
	if len(tree) == 0 || len(dismissed) != 1 || dismissed[0].Tags[0] != protocol.SymbolTagDeprecated || dismissed[0].Deprecated {
		t.Errorf("full client: got the dismissed symbols %+v, want one tagged deprecated, without the deprecated flag", dismissed)
	}

	c, _, _ = capsClient(t, minimalCapabilities())
	var raw []map[string]any
	c.mustCall("textDocument/documentSymbol", params, &raw)
	if len(raw) <= len(tree) {
		t.Fatalf("minimal client: got %d symbols, want more than the tree's %d roots (the whole tree, flat)", len(raw), len(tree))
	}
	contained := 0
	for _, s := range raw {
		if s["location"] == nil || s["selectionRange"] != nil || s["children"] != nil || s["tags"] != nil || s["deprecated"] != nil {
			t.Errorf("minimal client: got %v, want a SymbolInformation without tags", s)
		}
		if s["containerName"] != nil {
			contained++
		}
	}
	if contained == 0 {
		t.Errorf("minimal client: no symbol names its container")
	}
}

// TestCompletionDocumentationFollowsItsFormat: Markdown to a client
// whose documentationFormat lists it, plain text otherwise.
func TestCompletionDocumentationFollowsItsFormat(t *testing.T) {
	pos := capsPos(t, `"id": "c1"`, 1)
	params := map[string]any{"textDocument": map[string]any{"uri": "file:///work/caps.review.json"}, "position": pos}
	for _, tc := range []struct {
		name string
		caps map[string]any
		kind string
	}{{"markdown", fullCapabilities(), "markdown"}, {"plaintext", minimalCapabilities(), "plaintext"}} {
		c, _, _ := capsClient(t, tc.caps)
		var list struct {
			Items []struct {
				Label         string `json:"label"`
				Documentation struct {
					Kind string `json:"kind"`
				} `json:"documentation"`
			} `json:"items"`
		}
		c.mustCall("textDocument/completion", params, &list)
		if len(list.Items) == 0 {
			t.Fatalf("%s client: no completion items", tc.name)
		}
		for _, it := range list.Items {
			if it.Documentation.Kind != tc.kind {
				t.Errorf("%s client: item %q documented in %q, want %q", tc.name, it.Label, it.Documentation.Kind, tc.kind)
			}
		}
	}
}

// TestDiagnosticsFollowPublishCapabilities: dismissed comments greyed
// out (the Unnecessary tag) and related information only to a client that
// declared it takes them.
func TestDiagnosticsFollowPublishCapabilities(t *testing.T) {
	for _, tc := range []struct {
		name          string
		caps          map[string]any
		greyed, notes bool
	}{{"full", fullCapabilities(), true, true}, {"minimal", minimalCapabilities(), false, false}} {
		c, uri, _ := capsClient(t, tc.caps)
		greyed := false
		for _, d := range c.waitDiagnostics(uri, 1) {
			greyed = greyed || len(d.Tags) > 0
		}
		drift := protocol.DocumentURI("file:///work/drift.review.json")
		c.open(drift, driftReview("71"))
		notes := false
		for _, d := range c.waitDiagnostics(drift, 1) {
			notes = notes || len(d.RelatedInformation) > 0
		}
		if greyed != tc.greyed || notes != tc.notes {
			t.Errorf("%s client: got a greyed out comment %v, related information %v; want %v, %v", tc.name, greyed, notes, tc.greyed, tc.notes)
		}
	}
}

// TestPositionEncodingIsOneOffered: one the client offered, UTF-8
// first, UTF-16 when it offered none.
func TestPositionEncodingIsOneOffered(t *testing.T) {
	for _, tc := range []struct {
		offered []string
		want    string
	}{{nil, "utf-16"}, {[]string{"utf-32"}, "utf-32"}, {[]string{"utf-32", "utf-8"}, "utf-8"}} {
		caps := map[string]any{}
		if tc.offered != nil {
			caps["general"] = map[string]any{"positionEncodings": tc.offered}
		}
		_, _, res := capsClient(t, caps)
		if got := res.Capabilities.PositionEncoding; got != tc.want {
			t.Errorf("offered %q: got %q, want %q", tc.offered, got, tc.want)
		}
	}
}

// TestKindsAndFlagsFollowTheClient: a client that declared neither the
// kinds past the protocol's first ones nor preselect, insertTextMode and
// isPreferred gets none of them; a full one gets them all.
func TestKindsAndFlagsFollowTheClient(t *testing.T) {
	literalsOnly := map[string]any{"textDocument": map[string]any{
		"codeAction":     map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix"}}}},
		"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
	}}
	for _, tc := range []struct {
		name string
		caps map[string]any
		full bool
	}{{"full", fullCapabilities(), true}, {"literals only", literalsOnly, false}} {
		c, uri, _ := capsClient(t, tc.caps)
		doc := map[string]any{"uri": uri}

		// A new comment (multi-line, preselected) and the values of side
		// (enum members).
		var list struct {
			Items []map[string]any `json:"items"`
		}
		end := strings.LastIndex(capsReview, "}\n  ]") + 1
		c.mustCall("textDocument/completion", map[string]any{"textDocument": doc, "position": capsPos(t, capsReview[end-20:end], 20)}, &list)
		var side struct {
			Items []map[string]any `json:"items"`
		}
		c.mustCall("textDocument/completion", map[string]any{"textDocument": doc, "position": capsPos(t, `"RIGHT"`, 1)}, &side)
		got := map[string]bool{}
		for _, it := range append(list.Items, side.Items...) {
			got["preselect"] = got["preselect"] || it["preselect"] != nil
			got["insertTextMode"] = got["insertTextMode"] || it["insertTextMode"] != nil
			got["enumMember"] = got["enumMember"] || it["kind"] == float64(protocol.CompletionItemKindEnumMember)
		}
		var syms []protocol.DocumentSymbol
		c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": doc}, &syms)
		var walk func([]protocol.DocumentSymbol)
		walk = func(ss []protocol.DocumentSymbol) {
			for _, s := range ss {
				got["event"] = got["event"] || s.Kind == protocol.SymbolKindEvent
				walk(s.Children)
			}
		}
		walk(syms)
		drift := protocol.DocumentURI("file:///work/drift.review.json")
		c.open(drift, driftReview("71"))
		c.waitDiagnostics(drift, 1)
		var actions []map[string]any
		at := strings.Index(driftReview("71"), `"snippet"`)
		p := exchange.NewMapper([]byte(driftReview("71"))).Position(at, exchange.UTF16)
		pos := protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
		c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": drift}, "range": protocol.Range{Start: pos, End: pos}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
		for _, a := range actions {
			got["isPreferred"] = got["isPreferred"] || a["isPreferred"] != nil
		}
		for _, what := range []string{"preselect", "insertTextMode", "enumMember", "event", "isPreferred"} {
			if got[what] != tc.full {
				t.Errorf("%s client: got %s %v, want %v", tc.name, what, got[what], tc.full)
			}
		}
	}
}
