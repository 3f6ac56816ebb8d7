package metamodel

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// documents follows the texts of the documents the client has open, as
// its didOpen and didChange notifications make them, so that a reply's
// positions can be checked against the text of the version the request
// was sent for: the specification lets a server answer for no other.
type documents struct {
	// enc is the position encoding the server chose at initialize
	// ("utf-16" unless it said otherwise).
	enc   string
	texts map[string]string
}

// noted applies a notification of the client to the texts.
func (d *documents) noted(method string, params any) {
	if d.texts == nil {
		d.texts = map[string]string{}
	}
	doc := field(params, "textDocument")
	uri, _ := field(doc, "uri").(string)
	switch method {
	case "textDocument/didOpen":
		d.texts[uri], _ = field(doc, "text").(string)
	case "textDocument/didClose":
		delete(d.texts, uri)
	case "textDocument/didChange":
		text, ok := d.texts[uri]
		if !ok {
			return
		}
		for _, ch := range asArray(field(params, "contentChanges")) {
			repl, _ := field(ch, "text").(string)
			r, isRange := spanOf(field(ch, "range"))
			if !isRange {
				text = repl
				continue
			}
			start, ok1 := offsetOf(text, r.start, d.enc)
			end, ok2 := offsetOf(text, r.end, d.enc)
			if !ok1 || !ok2 || end < start {
				delete(d.texts, uri) // not followed any more: nothing checked
				return
			}
			text = text[:start] + repl + text[end:]
		}
		d.texts[uri] = text
	}
}

// lines splits text as LSP counts lines: \n, \r\n and \r end one.
func lines(text string) []string {
	var out []string
	for {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i])
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		text = text[i+1:]
	}
}

// units counts line's characters in the encoding.
func units(line, enc string) int64 {
	switch enc {
	case "utf-8":
		return int64(len(line))
	case "utf-32":
		return int64(utf8.RuneCountInString(line))
	}
	n := int64(0)
	for _, r := range line {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// offsetOf converts p to a byte offset of text.
func offsetOf(text string, p position, enc string) (int, bool) {
	ls := lines(text)
	if p.line < 0 || p.line >= int64(len(ls)) {
		return 0, false
	}
	at := 0
	for _, l := range ls[:p.line] {
		at += len(l)
		if strings.HasPrefix(text[at:], "\r\n") {
			at += 2
		} else {
			at++
		}
	}
	line, n := ls[p.line], int64(0)
	for i, r := range line {
		if n >= p.char {
			return at + i, n == p.char
		}
		n += units(string(r), enc)
	}
	return at + len(line), n == p.char
}

// PositionRules checks every position a result about the document uri
// holds against text, that document as the request saw it: a position
// past a line's end or past the last line was computed on another
// version. Positions inside a part that names another document (a
// location's uri, a workspace edit's other file) are not checked, nor
// opaque data. Semantic tokens are decoded, and each must end on its
// line unless the client takes multiline tokens.
func PositionRules(method, uri, text, enc string, multiline bool, result any) []Violation {
	ls := lines(text)
	var out []Violation
	check := func(p position, path string) {
		switch {
		case p.line < 0 || p.line >= int64(len(ls)):
			out = append(out, Violation{Path: path, Message: fmt.Sprintf("position %s is past the document's last line (%d lines in the version the request was sent for)", p, len(ls))})
		case p.char < 0 || p.char > units(ls[p.line], enc):
			out = append(out, Violation{Path: path, Message: fmt.Sprintf("position %s is past the end of line %d (%d %s units in the version the request was sent for)", p, p.line, units(ls[p.line], enc), enc)})
		}
	}
	var walk func(v any, path, cur string)
	walk = func(v any, path, cur string) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				walk(e, fmt.Sprintf("%s[%d]", path, i), cur)
			}
		case map[string]any:
			if u, ok := v["uri"].(string); ok {
				cur = u
			}
			if u, ok := asObject(v["textDocument"])["uri"].(string); ok {
				cur = u // a TextDocumentEdit's edits are of its document
			}
			if p, ok := positionOf(v); ok && cur == uri {
				check(p, path)
			}
			for k, e := range v {
				switch k {
				case "data":
					continue // opaque to the client
				case "changes": // a WorkspaceEdit's: by document
					for u, edits := range asObject(e) {
						walk(edits, path+".changes["+u+"]", u)
					}
					continue
				case "targetRange", "targetSelectionRange":
					if t, _ := v["targetUri"].(string); t != uri {
						continue
					}
				}
				walk(e, path+"."+k, cur)
			}
		}
	}
	walk(result, "", uri)
	if method == "textDocument/semanticTokens/full" || method == "textDocument/semanticTokens/range" {
		out = append(out, tokenRules(ls, enc, multiline, field(result, "data"))...)
	}
	return out
}

// tokenRules decodes semantic tokens' relative encoding and checks each.
func tokenRules(ls []string, enc string, multiline bool, data any) []Violation {
	nums := asArray(data)
	var line, start int64
	for i := 0; i+4 < len(nums); i += 5 {
		get := func(k int) int64 { n, _ := nums[i+k].(json.Number).Int64(); return n }
		if dl := get(0); dl > 0 {
			line, start = line+dl, get(1)
		} else {
			start += get(1)
		}
		length := get(2)
		switch {
		case line >= int64(len(ls)):
			return []Violation{{Path: fmt.Sprintf(".data[%d]", i), Message: fmt.Sprintf("token %d is on line %d, past the document's %d lines in the version the request was sent for", i/5, line, len(ls))}}
		case !multiline && start+length > units(ls[line], enc):
			return []Violation{{Path: fmt.Sprintf(".data[%d]", i), Message: fmt.Sprintf("token %d (%d:%d, length %d) runs past the end of its line (%d %s units in the version the request was sent for), and the client takes no multiline tokens", i/5, line, start, length, units(ls[line], enc), enc)}}
		}
	}
	return nil
}

func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
