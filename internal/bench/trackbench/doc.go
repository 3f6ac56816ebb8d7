package main

import (
	"slices"
	"unicode/utf16"
)

// doc is the harness's own account of a source file's text: its lines
// and, for each, the RIGHT line (from 1) of the review's diff it is, 0
// for a line that is not one (typed, pasted, or changed). Where a comment
// must be is told from it alone, never from the server's tracking: its
// RIGHT lines' places, when they are still consecutive.
type doc struct {
	uri, path string
	lines     []string
	tags      []int
	version   int
	comments  []comment
}

func newDoc(uri, path, text string, comments []comment) *doc {
	d := &doc{uri: uri, path: path, lines: splitLines(text), comments: comments}
	d.tags = make([]int, len(d.lines))
	for i := range d.tags {
		d.tags[i] = i + 1
	}
	return d
}

func (d *doc) text() string { return joinLines(d.lines) }

// expected is where c must be (lines from 1), ok false when its lines
// are no longer there, in order and unchanged: it must then be outdated.
func (d *doc) expected(c comment) (start, end int, ok bool) {
	i := slices.Index(d.tags, c.start)
	if i < 0 {
		return 0, 0, false
	}
	for k := 0; k <= c.end-c.start; k++ {
		if i+k >= len(d.tags) || d.tags[i+k] != c.start+k {
			return 0, 0, false
		}
	}
	return i + 1, i + 1 + c.end - c.start, true
}

// change is one incremental change, in LSP's terms (UTF-16 columns).
type change struct {
	startLine, startChar, endLine, endChar int
	text                                   string
}

func (ch change) params() map[string]any {
	return map[string]any{
		"range": map[string]any{
			"start": map[string]any{"line": ch.startLine, "character": ch.startChar},
			"end":   map[string]any{"line": ch.endLine, "character": ch.endChar},
		},
		"text": ch.text,
	}
}

// insertLines puts lines (with their tags: nil for new ones) before line
// at (from 0).
func (d *doc) insertLines(at int, lines []string, tags []int) change {
	if tags == nil {
		tags = make([]int, len(lines))
	}
	d.lines = slices.Insert(d.lines, at, lines...)
	d.tags = slices.Insert(d.tags, at, tags...)
	return change{startLine: at, endLine: at, text: joinLines(lines)}
}

// deleteLines deletes lines from to to (from 0, to excluded) and returns
// them with their tags.
func (d *doc) deleteLines(from, to int) (change, []string, []int) {
	lines, tags := slices.Clone(d.lines[from:to]), slices.Clone(d.tags[from:to])
	d.lines = slices.Delete(d.lines, from, to)
	d.tags = slices.Delete(d.tags, from, to)
	return change{startLine: from, endLine: to}, lines, tags
}

// typeAtEnd types s at the end of line i (from 0): a "\n" breaks the line
// there, the new line after it is a new one (an editor's `o`, or Enter at
// a line's end); another text is appended to the line, which is then no
// longer a line of the review unless it is a new one already.
func (d *doc) typeAtEnd(i int, s string) change {
	col := utf16Len(d.lines[i])
	ch := change{startLine: i, startChar: col, endLine: i, endChar: col, text: s}
	if s == "\n" {
		d.lines = slices.Insert(d.lines, i+1, "")
		d.tags = slices.Insert(d.tags, i+1, 0)
		return ch
	}
	d.lines[i] += s
	d.tags[i] = 0
	return ch
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
