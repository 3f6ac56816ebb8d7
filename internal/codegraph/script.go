package codegraph

import (
	"path"
	"strings"
)

// TypeScript/JavaScript are read with a lexer of this package's own, not a
// parser: the graph needs the import and export statements only, and the
// pure-Go parsers do not pay for that — tdewolff/parse's js parser reads no
// TypeScript (types, interfaces, generics), and esbuild's pkg/api is a
// bundler that would add megabytes to the binary and resolve modules the
// way a build does (node_modules, tsconfig), which a review needs not.
// The lexer knows what hides an import: comments, strings, template
// literals (with their ${} nesting) and regular expression literals; a
// string ends at its line's end, so a JSX text's apostrophe spoils one
// line at most.

// scriptSummary is what a TS/JS or Python file's lexing leaves.
type scriptSummary struct {
	imports []scriptImport
	defs    []goDef
}

// scriptImport is one import statement (or require/import() call).
type scriptImport struct {
	spec string // the module specifier: "./a", "react", ".models" (Python: dots and dotted name)
	// names are the imported names ("default" for a default import); nil
	// for a namespace, side-effect or dynamic import.
	names []string
	line  int
}

type jsTok struct {
	kind  byte // 'i' identifier/keyword, 's' string, 'p' punctuation, 'n' number, 't' template, 'r' regex
	text  string
	line  int
	depth int // brace depth before the token
}

func parseScript(p string, src []byte) *summary {
	lang := JavaScript
	if LanguageOf(p) == "typescript" {
		lang = TypeScript
	}
	s := &summary{lang: lang, generated: IsGenerated(src), test: isScriptTest(p)}
	toks := lexJS(string(src))
	ss := &scriptSummary{}
	s.script = ss
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != 'i' {
			continue
		}
		prevDot := i > 0 && toks[i-1].kind == 'p' && toks[i-1].text == "."
		switch {
		case (t.text == "require" || t.text == "import") && !prevDot && at(toks, i+1, 'p', "(") && at(toks, i+2, 's', "") && at(toks, i+3, 'p', ")"):
			ss.imports = append(ss.imports, scriptImport{spec: toks[i+2].text, line: t.line})
			i += 3
		case t.text == "import" && t.depth == 0 && !prevDot:
			i = jsImport(toks, i, ss)
		case t.text == "export" && t.depth == 0:
			i = jsExport(toks, i, ss)
		case t.depth == 0 && (t.text == "function" || t.text == "class") && !prevDot && i+1 < len(toks) && toks[i+1].kind == 'i':
			ss.defs = append(ss.defs, goDef{name: toks[i+1].text, kind: t.text, line: t.line})
			i++
		}
	}
	closeRanges(ss.defs, strings.Count(string(src), "\n")+1)
	return s
}

func at(toks []jsTok, i int, kind byte, text string) bool {
	return i < len(toks) && toks[i].kind == kind && (text == "" || toks[i].text == text)
}

// jsImport reads `import ... from "x"` or `import "x"` at toks[i].
func jsImport(toks []jsTok, i int, ss *scriptSummary) int {
	line := toks[i].line
	var names []string
	j := i + 1
	inBraces := false
	for ; j < len(toks) && j < i+400; j++ {
		t := toks[j]
		switch {
		case t.kind == 's':
			ss.imports = append(ss.imports, scriptImport{spec: t.text, names: names, line: line})
			return j
		case t.kind == 'p' && t.text == "{":
			inBraces = true
		case t.kind == 'p' && t.text == "}":
			inBraces = false
		case t.kind == 'p' && t.text == ";":
			return j
		case t.kind == 'i' && t.text == "as":
			j++ // the local name
		case t.kind == 'i' && (t.text == "from" || t.text == "type" && !inBraces):
		case t.kind == 'i' && t.text == "type" && inBraces && at(toks, j+1, 'i', ""):
		case t.kind == 'i' && inBraces:
			names = append(names, t.text)
		case t.kind == 'i' && !inBraces && (j == i+1 || at(toks, j-1, 'i', "type")):
			names = append(names, "default")
		case t.kind == 'p' && (t.text == "=" || t.text == "("):
			return j // import x = require(...) / import(...): read elsewhere
		}
	}
	return j
}

// jsExport reads an export statement at toks[i]: a re-export from a
// module, or a definition.
func jsExport(toks []jsTok, i int, ss *scriptSummary) int {
	j := i + 1
	if at(toks, j, 'p', "*") || at(toks, j, 'p', "{") || at(toks, j, 'i', "type") && at(toks, j+1, 'p', "{") {
		var names []string
		for ; j < len(toks) && j < i+400; j++ {
			t := toks[j]
			switch {
			case t.kind == 's':
				ss.imports = append(ss.imports, scriptImport{spec: t.text, names: names, line: toks[i].line})
				return j
			case t.kind == 'p' && t.text == ";", t.kind == 'p' && t.text == "}" && !at(toks, j+1, 'i', "from"):
				return j
			case t.kind == 'i' && t.text == "as":
				j++
			case t.kind == 'i' && t.text != "from" && t.text != "type":
				names = append(names, t.text)
			}
		}
		return j
	}
	for ; j < len(toks) && j < i+6 && toks[j].kind == 'i'; j++ {
		switch toks[j].text {
		case "default", "declare", "async", "abstract":
			if toks[j].text == "default" && !at(toks, j+1, 'i', "function") && !at(toks, j+1, 'i', "class") {
				ss.defs = append(ss.defs, goDef{name: "default", kind: "var", line: toks[i].line, exported: true})
				return j
			}
			continue
		case "function", "class", "const", "let", "var", "interface", "type", "enum", "namespace":
			kind := toks[j].text
			k := j + 1
			if at(toks, k, 'p', "*") { // function*
				k++
			}
			name := "default"
			if at(toks, k, 'i', "") {
				name = toks[k].text
			}
			ss.defs = append(ss.defs, goDef{name: name, kind: kind, line: toks[i].line, exported: true})
			return k
		}
		break
	}
	return i
}

// closeRanges ends each top-level definition where the next begins (a
// lexer does not see where a body ends).
func closeRanges(defs []goDef, lines int) {
	for i := range defs {
		defs[i].end = lines
		if i+1 < len(defs) {
			defs[i].end = max(defs[i].line, defs[i+1].line-1)
		}
	}
}

// lexJS splits src into the tokens the import reader needs.
func lexJS(src string) []jsTok {
	var toks []jsTok
	line, depth := 1, 0
	var tmpl []int // brace depths at which a template's ${ opened
	prevValue := false
	emit := func(kind byte, text string) {
		toks = append(toks, jsTok{kind: kind, text: text, line: line, depth: depth})
		prevValue = kind == 'i' && !isKeywordBeforeExpr(text) || kind == 'n' || kind == 's' || kind == 't' || kind == 'r' ||
			kind == 'p' && (text == ")" || text == "]")
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			emit('s', src[i+1:min(j, len(src))])
			i = j + 1
		case c == '`' || c == '}' && len(tmpl) > 0 && tmpl[len(tmpl)-1] == depth:
			if c == '}' {
				tmpl = tmpl[:len(tmpl)-1]
			}
			j := i + 1
			for j < len(src) && src[j] != '`' && !(src[j] == '$' && j+1 < len(src) && src[j+1] == '{') {
				if src[j] == '\\' {
					j++
				} else if src[j] == '\n' {
					line++
				}
				j++
			}
			emit('t', "")
			if j < len(src) && src[j] == '$' {
				tmpl = append(tmpl, depth)
				j++
			}
			i = j + 1
		case c == '/' && !prevValue:
			j := i + 1
			inClass := false
			for j < len(src) && src[j] != '\n' && (src[j] != '/' || inClass) {
				switch src[j] {
				case '\\':
					j++
				case '[':
					inClass = true
				case ']':
					inClass = false
				}
				j++
			}
			emit('r', "")
			i = j + 1
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			emit('i', src[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && (isIdentPart(src[j]) || src[j] == '.') {
				j++
			}
			emit('n', "")
			i = j
		default:
			emit('p', src[i:i+1])
			switch c {
			case '{':
				depth++
			case '}':
				depth = max(0, depth-1)
			}
			i++
		}
	}
	return toks
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// isKeywordBeforeExpr: after these words a '/' starts a regular expression.
func isKeywordBeforeExpr(w string) bool {
	switch w {
	case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await":
		return true
	}
	return false
}

func isScriptTest(p string) bool {
	base := path.Base(p)
	return strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.Contains("/"+p, "/__tests__/")
}

// resolveScript places a relative TS/JS specifier among the tree's files.
func resolveScript(from, spec string, has func(string) bool) string {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return ""
	}
	base := path.Join(path.Dir(from), spec)
	if strings.HasPrefix(base, "../") || base == ".." {
		return ""
	}
	stem := base
	for _, js := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		if s, ok := strings.CutSuffix(base, js); ok {
			stem = s // TypeScript's ESM imports name the .js the .ts becomes
		}
	}
	cands := []string{base}
	for _, ext := range []string{".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"} {
		cands = append(cands, stem+ext)
	}
	for _, ext := range []string{"ts", "tsx", "js", "jsx"} {
		cands = append(cands, base+"/index."+ext)
	}
	for _, c := range cands {
		if has(c) {
			return c
		}
	}
	return ""
}
