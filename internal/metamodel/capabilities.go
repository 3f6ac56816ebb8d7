package metamodel

import (
	"encoding/json"
	"fmt"
	"slices"
)

// CapabilityRules checks that a server's message uses only what the
// client declared in its initialize capabilities (caps, as Decode returns
// them): the model types what may be sent to any client, the capabilities
// narrow it for this one. kind and method are as in Checked; for a
// response, value is its result, otherwise the message's params.
func CapabilityRules(caps any, kind, method string, value any) []Violation {
	r := &ruler{td: field(caps, "textDocument")}
	switch {
	case kind == "response" && method == "initialize":
		enc, _ := field(field(value, "capabilities"), "positionEncoding").(string)
		offered := stringList(field(field(caps, "general"), "positionEncodings"))
		if enc != "" && enc != "utf-16" && !slices.Contains(offered, enc) {
			r.fail(".capabilities.positionEncoding", "%q, which the client did not offer (%q)", enc, offered)
		}
	case kind == "response" && method == "textDocument/codeAction":
		r.codeActions(asArray(value))
	case kind == "response" && method == "textDocument/hover":
		formats := stringList(field(field(r.td, "hover"), "contentFormat"))
		if k, _ := field(field(value, "contents"), "kind").(string); k == "markdown" && !slices.Contains(formats, "markdown") {
			r.fail(".contents", "markdown, to a client whose hover.contentFormat is %q", formats)
		}
	case kind == "response" && method == "textDocument/documentSymbol":
		ds := field(r.td, "documentSymbol")
		hierarchical := field(ds, "hierarchicalDocumentSymbolSupport") == true
		tags := field(ds, "tagSupport") != nil
		kinds := asArray(field(field(ds, "symbolKind"), "valueSet"))
		r.out = append(r.out, symbolRules(asArray(value), "", hierarchical, tags, kinds)...)
	case kind == "response" && method == "textDocument/completion":
		items := asArray(value)
		if list, ok := value.(map[string]any); ok {
			items = asArray(list["items"])
		}
		r.completionItems(items)
	case kind == "notification" && method == "textDocument/publishDiagnostics":
		r.diagnostics(asArray(field(value, "diagnostics")))
	case kind == "request" && method == "workspace/applyEdit":
		if field(field(caps, "workspace"), "applyEdit") != true {
			r.fail("", "workspace/applyEdit, to a client without workspace.applyEdit")
		}
	case kind == "request" && method == "window/showDocument":
		if field(field(field(caps, "window"), "showDocument"), "support") != true {
			r.fail("", "window/showDocument, to a client without window.showDocument.support")
		}
	}
	return r.out
}

// ruler collects the violations of one message; td is the client's
// textDocument capabilities.
type ruler struct {
	td  any
	out []Violation
}

func (r *ruler) fail(path, format string, args ...any) {
	r.out = append(r.out, Violation{Path: path, Message: fmt.Sprintf(format, args...)})
}

// codeActions: Commands only without codeActionLiteralSupport, isPreferred
// only with isPreferredSupport.
func (r *ruler) codeActions(actions []any) {
	ca := field(r.td, "codeAction")
	for i, a := range actions {
		if _, isCommand := field(a, "command").(string); !isCommand && field(ca, "codeActionLiteralSupport") == nil {
			r.fail(fmt.Sprintf("[%d]", i), "a CodeAction literal, to a client without codeActionLiteralSupport (Command only)")
		}
		if field(a, "isPreferred") != nil && field(ca, "isPreferredSupport") != true {
			r.fail(fmt.Sprintf("[%d].isPreferred", i), "isPreferred, to a client without codeAction.isPreferredSupport")
		}
	}
}

// completionItems: snippets, Markdown, insert-replace edits, insert modes,
// preselect and kinds past the first ones only to a client that takes them.
func (r *ruler) completionItems(items []any) {
	item := field(field(r.td, "completion"), "completionItem")
	kinds := field(field(field(r.td, "completion"), "completionItemKind"), "valueSet")
	for i, it := range items {
		at := fmt.Sprintf("[%d]", i)
		if field(it, "insertTextFormat") == jsonInt(2) && field(item, "snippetSupport") != true {
			r.fail(at, "a snippet, to a client without snippetSupport")
		}
		if k, _ := field(field(it, "documentation"), "kind").(string); k == "markdown" && !slices.Contains(stringList(field(item, "documentationFormat")), "markdown") {
			r.fail(at+".documentation", "markdown, to a client whose documentationFormat lacks it")
		}
		if _, isReplace := field(field(it, "textEdit"), "insert").(map[string]any); isReplace && field(item, "insertReplaceSupport") != true {
			r.fail(at+".textEdit", "an InsertReplaceEdit, to a client without insertReplaceSupport")
		}
		if m := field(it, "insertTextMode"); m != nil && !slices.Contains(asArray(field(field(item, "insertTextModeSupport"), "valueSet")), m) {
			r.fail(at+".insertTextMode", "insertTextMode %v, to a client whose insertTextModeSupport lacks it", m)
		}
		if field(it, "preselect") != nil && field(item, "preselectSupport") != true {
			r.fail(at+".preselect", "preselect, to a client without preselectSupport")
		}
		if !knownKind(field(it, "kind"), 18, kinds) {
			r.fail(at+".kind", "kind %v, past Text to Reference, to a client whose completionItemKind.valueSet lacks it", field(it, "kind"))
		}
	}
}

// diagnostics: tags, related information and code descriptions only to a
// client that takes them.
func (r *ruler) diagnostics(ds []any) {
	pd := field(r.td, "publishDiagnostics")
	tags := field(field(pd, "tagSupport"), "valueSet")
	for i, d := range ds {
		at := fmt.Sprintf(".diagnostics[%d]", i)
		for _, tag := range asArray(field(d, "tags")) {
			if !slices.Contains(asArray(tags), tag) {
				r.fail(at+".tags", "tag %v, to a client whose publishDiagnostics.tagSupport.valueSet is %v", tag, tags)
			}
		}
		if field(d, "relatedInformation") != nil && field(pd, "relatedInformation") != true {
			r.fail(at+".relatedInformation", "related information, to a client without publishDiagnostics.relatedInformation")
		}
		if field(d, "codeDescription") != nil && field(pd, "codeDescriptionSupport") != true {
			r.fail(at+".codeDescription", "a code description, to a client without publishDiagnostics.codeDescriptionSupport")
		}
	}
}

// symbolRules: DocumentSymbol only to a client with hierarchical support,
// SymbolInformation otherwise; tags only to a client that takes them.
func symbolRules(syms []any, path string, hierarchical, tags bool, kinds []any) []Violation {
	var out []Violation
	for i, s := range syms {
		at := fmt.Sprintf("%s[%d]", path, i)
		if !knownKind(field(s, "kind"), 18, kinds) {
			out = append(out, Violation{Path: at + ".kind", Message: fmt.Sprintf("kind %v, past File to Array, to a client whose symbolKind.valueSet lacks it", field(s, "kind"))})
		}
		if _, isDocumentSymbol := field(s, "selectionRange").(map[string]any); isDocumentSymbol && !hierarchical {
			out = append(out, Violation{Path: at, Message: "a DocumentSymbol, to a client without hierarchicalDocumentSymbolSupport"})
		}
		if field(s, "tags") != nil && !tags {
			out = append(out, Violation{Path: at + ".tags", Message: "tags, to a client without documentSymbol.tagSupport"})
		}
		out = append(out, symbolRules(asArray(field(s, "children")), at+".children", hierarchical, tags, kinds)...)
	}
	return out
}

func stringList(v any) []string {
	var out []string
	for _, e := range asArray(v) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// knownKind reports whether kind (absent is fine) is one a client takes:
// one of the protocol's initial ones, 1 to initial, or one of its
// valueSet: "if this property is not present the client only supports"
// those.
func knownKind(kind any, initial int64, valueSet any) bool {
	n, ok := kind.(json.Number)
	if !ok {
		return true
	}
	if i, err := n.Int64(); err == nil && i >= 1 && i <= initial {
		return true
	}
	return slices.Contains(asArray(valueSet), kind)
}
