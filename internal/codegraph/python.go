package codegraph

import (
	"path"
	"strings"
)

// Python is read by a lexer of logical lines (strings, comments, brackets
// and backslashes joined), not a parser: go-python/gpython parses Python 3.4
// and stalls on the f-strings, walrus and match statements of today's code,
// and the graph needs the import statements and the top-level names only.

// pyLine is one logical line: its first physical line, its indentation and
// its words (names, dotted names split at '.', punctuation).
type pyLine struct {
	line, indent int
	words        []string
}

func parsePython(p string, src []byte) *summary {
	base := path.Base(p)
	s := &summary{lang: Python, generated: IsGenerated(src),
		test: strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py"}
	ss := &scriptSummary{}
	s.script = ss
	for _, l := range pyLines(string(src)) {
		w := l.words
		if len(w) == 0 {
			continue
		}
		switch {
		case w[0] == "import":
			for _, mod := range splitTop(w[1:]) {
				name := dotted(mod)
				if name != "" {
					ss.imports = append(ss.imports, scriptImport{spec: name, line: l.line})
				}
			}
		case w[0] == "from":
			i := 1
			mod := ""
			for i < len(w) && w[i] != "import" {
				mod += w[i]
				i++
			}
			var names []string
			for _, part := range splitTop(w[min(i+1, len(w)):]) {
				if len(part) > 0 && part[0] != "(" && part[0] != ")" && part[0] != "*" {
					names = append(names, part[0])
				} else if len(part) > 1 && part[0] == "(" {
					names = append(names, part[1])
				}
			}
			ss.imports = append(ss.imports, scriptImport{spec: mod, names: names, line: l.line})
		case l.indent > 0:
		case (w[0] == "def" || w[0] == "class") && len(w) > 1:
			ss.defs = append(ss.defs, goDef{name: w[1], kind: w[0], line: l.line, exported: !strings.HasPrefix(w[1], "_")})
		case w[0] == "async" && len(w) > 2 && w[1] == "def":
			ss.defs = append(ss.defs, goDef{name: w[2], kind: "def", line: l.line, exported: !strings.HasPrefix(w[2], "_")})
		case len(w) > 1 && isPyName(w[0]) && (w[1] == "=" || w[1] == ":"):
			ss.defs = append(ss.defs, goDef{name: w[0], kind: "var", line: l.line, exported: !strings.HasPrefix(w[0], "_")})
		}
	}
	closeRanges(ss.defs, strings.Count(string(src), "\n")+1)
	return s
}

// splitTop splits words at top-level commas, dropping "as x" aliases.
func splitTop(w []string) [][]string {
	var out [][]string
	var cur []string
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case ",":
			out = append(out, cur)
			cur = nil
		case "as":
			i++
		case ")", "\\":
		default:
			cur = append(cur, w[i])
		}
	}
	return append(out, cur)
}

func dotted(w []string) string {
	var b strings.Builder
	for _, s := range w {
		if s != "." && !isPyName(s) {
			break
		}
		b.WriteString(s)
	}
	return b.String()
}

func isPyName(s string) bool {
	return s != "" && isIdentStart(s[0]) && s[0] != '$'
}

// pyLines splits Python source into logical lines.
func pyLines(src string) []pyLine {
	var out []pyLine
	var cur *pyLine
	line, nest := 1, 0
	startOfLine := true
	indent := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			if nest == 0 {
				cur = nil
				startOfLine, indent = true, 0
			}
			continue
		case c == ' ' || c == '\t':
			if startOfLine {
				indent++
			}
			i++
			continue
		case c == '\r':
			i++
			continue
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i++
			for i < len(src) && src[i] != '\n' {
				i++
			}
			line++
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		if cur == nil {
			out = append(out, pyLine{line: line, indent: indent})
			cur = &out[len(out)-1]
		}
		startOfLine = false
		switch {
		case c == '\'' || c == '"':
			i = skipPyString(src, i, &line)
			cur.words = append(cur.words, "\"")
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"') && j-i <= 3 && strings.Trim(strings.ToLower(src[i:j]), "rbfu") == "" {
				i = skipPyString(src, j, &line) // a prefixed string: r"", b'', f"""..."""
				cur.words = append(cur.words, "\"")
				continue
			}
			cur.words = append(cur.words, src[i:j])
			i = j
		default:
			switch c {
			case '(', '[', '{':
				nest++
			case ')', ']', '}':
				nest = max(0, nest-1)
			}
			if len(cur.words) < 64 {
				cur.words = append(cur.words, src[i:i+1])
			}
			i++
		}
	}
	return out
}

// skipPyString returns the index after the string literal at src[i],
// counting its newlines into line.
func skipPyString(src string, i int, line *int) int {
	q := src[i]
	if strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		end := strings.Index(src[i+3:], strings.Repeat(string(q), 3))
		for end >= 0 && escaped(src, i+3+end) {
			next := strings.Index(src[i+3+end+1:], strings.Repeat(string(q), 3))
			if next < 0 {
				end = -1
				break
			}
			end += 1 + next
		}
		if end < 0 {
			*line += strings.Count(src[i:], "\n")
			return len(src)
		}
		*line += strings.Count(src[i:i+3+end], "\n")
		return i + 3 + end + 3
	}
	j := i + 1
	for j < len(src) && src[j] != q && src[j] != '\n' {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	return j + 1
}

// escaped reports whether src[i] follows an odd run of backslashes.
func escaped(src string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && src[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// pyModules indexes the tree's Python files by every dotted suffix of
// their module name, so that an absolute import finds its file whatever
// directory is on the path (the root, src/, a subproject).
type pyModules map[string][]string

func newPyModules(paths []string) pyModules {
	m := pyModules{}
	for _, p := range paths {
		if LanguageOf(p) != "python" {
			continue
		}
		mod := strings.TrimSuffix(strings.TrimSuffix(p, ".py"), ".pyi")
		mod = strings.TrimSuffix(mod, "/__init__")
		parts := strings.Split(mod, "/")
		for i := range parts {
			name := strings.Join(parts[i:], ".")
			m[name] = append(m[name], p)
		}
	}
	return m
}

// resolve places a module among the tree's files: the one of the
// shortest path ("" when none, or when two of that length tie).
func (m pyModules) resolve(name string) string {
	best := ""
	tie := false
	for _, p := range m[name] {
		switch {
		case best == "" || len(p) < len(best):
			best, tie = p, false
		case len(p) == len(best) && p != best:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// resolvePython resolves an import's specifier (with its leading dots for
// a relative one) written in file from; sub is set when the name is a
// submodule rather than a name of the module's file.
func resolvePython(from, spec string, mods pyModules, has func(string) bool) string {
	if !strings.HasPrefix(spec, ".") {
		return mods.resolve(spec)
	}
	dir := path.Dir(from)
	rest := spec[1:]
	for strings.HasPrefix(rest, ".") {
		dir = path.Dir(dir)
		rest = rest[1:]
	}
	base := dir
	if rest != "" {
		base = path.Join(dir, strings.ReplaceAll(rest, ".", "/"))
	}
	for _, c := range []string{base + ".py", base + "/__init__.py", base + ".pyi"} {
		if has(c) {
			return c
		}
	}
	return ""
}
