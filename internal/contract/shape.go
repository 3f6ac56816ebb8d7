package contract

import "bytes"

// What a comparison costs is known before it runs: the YAML parser and
// oasdiff walk every collection of a description, and at each one build
// what names its place (its path of keys), so that their time and memory
// grow with the sum, over the collections, of the depth each sits at —
// linearly for a real description, quadratically for a deeply nested
// one (issue 44: 24 schemas 4,900 levels deep took 85–118 s and 1.1 GB).
// Neither library can be stopped once started, so a side whose shape
// exceeds the budget is not given to them: measure reads the text once,
// without parsing it, and the axis reports the file as not compared
// (partial) instead.

// shape is a text's nesting: its nodes (block lines, flow collections
// and entries), the depth of the deepest, and its work, the sum of the
// depths they sit at.
type shape struct {
	nodes, depth, work int64
}

// measure scans a JSON or YAML text for its shape. It follows what
// nests — flow brackets outside quoted scalars, block indentation, "- "
// items — and skips comments and block scalars' text; where it cannot
// tell (a quote after a tag), it counts the text as structure, so that
// it may overestimate a shape, never underestimate it.
func measure(text []byte) shape {
	m := measurer{scalar: -1}
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		m.line(line)
	}
	return m.s
}

type measurer struct {
	s shape
	// stack holds the block indentation columns open; flow the flow
	// collections open; quote the quoted scalar open (0, '"' or '\'').
	stack []int
	flow  int64
	quote byte
	// scalar is the indentation of the line that opened a block scalar
	// ("|" or ">"), -1 when none is open: deeper lines are its text.
	scalar int
}

func (m *measurer) line(line []byte) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	rest := line[indent:]
	if m.quote == 0 && m.flow == 0 {
		if len(rest) == 0 || rest[0] == '#' {
			return
		}
		if m.scalar >= 0 && indent > m.scalar {
			return // a block scalar's text
		}
		m.scalar = -1
		for len(m.stack) > 0 && m.stack[len(m.stack)-1] > indent {
			m.stack = m.stack[:len(m.stack)-1]
		}
		if len(m.stack) == 0 || m.stack[len(m.stack)-1] < indent {
			m.stack = append(m.stack, indent)
		}
		d := int64(len(m.stack))
		for len(rest) >= 2 && rest[0] == '-' && rest[1] == ' ' {
			d++ // each "- " opens an item one level deeper
			rest = bytes.TrimLeft(rest[2:], " ")
		}
		m.open(d)
		if opensBlockScalar(rest) {
			m.scalar = indent
		}
	}
	m.scan(rest)
}

// open counts a node at depth d.
func (m *measurer) open(d int64) {
	m.s.nodes++
	m.s.work += d
	m.s.depth = max(m.s.depth, d)
}

// scan follows the flow collections and quoted scalars of a line's text.
func (m *measurer) scan(b []byte) {
	prev := byte(' ') // the last byte outside a quote that is not a space
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch m.quote {
		case '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				m.quote, prev = 0, c
			}
			continue
		case '\'':
			if c == '\'' {
				m.quote, prev = 0, c // '' is a quote closed and opened again
			}
			continue
		}
		switch c {
		case ' ', '\t':
			continue
		case '"', '\'':
			if startsScalar(prev) {
				m.quote = c
			}
		case '#':
			if i == 0 || b[i-1] == ' ' || b[i-1] == '\t' {
				return
			}
		case '{', '[':
			m.flow++
			m.open(int64(len(m.stack)) + m.flow)
		case ',':
			if m.flow > 0 {
				m.open(int64(len(m.stack)) + m.flow)
			}
		case '}', ']':
			m.flow = max(0, m.flow-1)
		}
		prev = c
	}
}

// startsScalar reports whether a quote after prev opens a quoted scalar,
// as in YAML: at the start of a value, a key or an item.
func startsScalar(prev byte) bool {
	switch prev {
	case ' ', ':', '-', '[', '{', ',', '?':
		return true
	}
	return false
}

// opensBlockScalar reports whether a block line ends with a block
// scalar's indicator ("key: |", "- >-", "key: |2+").
func opensBlockScalar(rest []byte) bool {
	if i := bytes.Index(rest, []byte(" #")); i >= 0 {
		rest = rest[:i]
	}
	rest = bytes.TrimRight(rest, " \t")
	n := len(rest)
	for n > 0 && (rest[n-1] == '+' || rest[n-1] == '-' || rest[n-1] >= '1' && rest[n-1] <= '9') {
		n--
	}
	if n == 0 || rest[n-1] != '|' && rest[n-1] != '>' {
		return false
	}
	return n == 1 || rest[n-2] == ' '
}
