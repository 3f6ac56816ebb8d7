package exchange

import "unicode/utf8"

// Cursor converts the offsets of one text to positions, as Position does,
// for a caller whose offsets mostly ascend: the semantic tokens of a
// patch, one or two a line over all its lines. It remembers the line of
// the last offset and the column of a character boundary on it, so that
// the next offset costs a step to its line and a count from there, not a
// search of the line table and a count from the line's start. An offset
// before the last one, or far after it, is looked up as Position does.
type Cursor struct {
	m   *Mapper
	enc Encoding
	// line is the line of the last offset (-1 before the first), which
	// spans [start, end) up to its terminator; the next one starts at next.
	line             int
	start, end, next int
	// at is a character boundary of the line at or before the last offset
	// (start, a mark, or where a count stopped) and col its column.
	at, col int
}

// lineSteps is how many lines the cursor steps forward before it
// searches the line table instead.
const lineSteps = 8

// Cursor returns a cursor over m's text counting columns in enc.
func (m *Mapper) Cursor(enc Encoding) Cursor {
	return Cursor{m: m, enc: enc, line: -1}
}

// Position converts a byte offset, clamped to the content, to a position:
// the same as the mapper's Position.
func (c *Cursor) Position(offset int) Position {
	m := c.m
	offset = max(0, min(offset, m.content.Len()))
	if c.line < 0 || offset < c.start || offset >= c.next {
		c.seek(offset)
	}
	offset = min(offset, c.end)
	if c.enc == UTF8 {
		return Position{Line: c.line, Character: m.charStart(c.start, c.end, offset) - c.start}
	}
	if offset < c.at {
		c.at, c.col = c.start, 0
	}
	if offset-c.at > markStep {
		if mk := m.markBefore(c.start, offset); int(mk.off) > c.at {
			c.at, c.col = int(mk.off), mk.units(c.enc)
		}
	}
	n, i := advance(m.bytes(c.at, min(c.end, offset+utf8.UTFMax)), offset-c.at, c.enc)
	c.at, c.col = c.at+i, c.col+n
	return Position{Line: c.line, Character: c.col}
}

// seek moves the cursor to the start of the line holding offset: a step
// at a time over the next few lines, else by a search.
func (c *Cursor) seek(offset int) {
	m := c.m
	line, start, next := -1, 0, 0
	if c.line >= 0 && offset >= c.next {
		for l, at := c.line+1, c.next; l < min(c.line+1+lineSteps, m.Lines()); l++ {
			n := m.startAfter(l, at)
			if offset < n {
				line, start, next = l, at, n
				break
			}
			at = n
		}
	}
	if line < 0 {
		line = m.Line(offset)
		start = m.start(line)
		next = m.startAfter(line, start)
	}
	c.line, c.start, c.next, c.end = line, start, next, m.content.Len()
	if next <= m.content.Len() {
		c.end = m.endBefore(start, next)
	}
	c.at, c.col = c.start, 0
}
