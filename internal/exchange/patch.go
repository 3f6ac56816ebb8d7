package exchange

import (
	"slices"
	"strings"
)

// The patch: its form, its lines (a table of offsets, shared by the
// versions that carry the patch over), reading them, and decoding the
// patch member into it.

// PatchForm says how the patch member is spelt.
type PatchForm uint8

const (
	PatchMissing PatchForm = iota // no patch member
	PatchArray                    // an array of strings, one diff line each
	PatchString                   // a single string with embedded line feeds
	PatchInvalid                  // some other JSON type
)

// Patch is the embedded diff as a list of lines, each traced back to the
// source text it was decoded from.
type Patch struct {
	Node *Node
	Form PatchForm
	// lines is the line table, read through lineValue and lineSource,
	// unless table is set. It holds no pointer and no absolute offset,
	// so a version whose patch is carried over from an earlier one
	// (parseIncremental), moved or not, shares it as it is.
	lines []PatchLine
	// table is set instead of lines when the elements are kept in a
	// table and each is one closed line (see decodeTable): it is that
	// table without a trailing empty element, line i being made from
	// element i when read rather than kept. tableBase is where the patch
	// node started when the table was read, which its offsets count
	// from: moving the patch moves both, so a carried over patch shares
	// them as they are.
	table     stringTable
	tableBase int32
	// TrailingEmpty is the forbidden final "" element of the array form; it
	// is not one of the lines.
	TrailingEmpty *Node
	// src is the patch's bytes in the document's text, which the lines'
	// texts are decoded from when the elements are kept in a table (see
	// stringElem).
	src window
	// origin is shared by the versions whose patch was carried over from
	// one read (parseIncremental): see Origin.
	origin *PatchOrigin
}

// PatchOrigin identifies a patch as read: the versions of a document whose
// patch the parse carried over from an earlier one, moved or not, share
// their Patch's origin, and so spell the patch alike. It holds nothing of
// any version, so a result kept with it keeps no version alive.
type PatchOrigin struct{ _ byte }

// Origin returns the identity of the patch's text (see PatchOrigin), nil
// for a document without a patch.
func (p *Patch) Origin() *PatchOrigin { return p.origin }

// PatchLine is one diff line of the patch. A large review has very many
// of them: it holds 32-bit numbers only (Parse takes no source of 2 GiB),
// relative to the patch node and to the line's element, so that the
// garbage collector need not scan the table and a moved patch need not
// copy it. Patch's Line methods read it.
type PatchLine struct {
	// elem is the index of the array element the line comes from (0 for
	// the string form).
	elem int32
	// start and end delimit the line's escaped text in the source,
	// inside the quotes, relative to the patch node's Start.
	start, end int32
	// textStart and textEnd delimit the line's decoded text, without its
	// line terminator, in its element's Str: the element's other lines
	// and line breaks are decoded around it.
	textStart, textEnd int32
}

// LineCount returns the number of diff lines in the patch.
func (p *Patch) LineCount() int {
	if p.table != nil {
		return len(p.table)
	}
	return len(p.lines)
}

// The two accessors below read line i's PatchLine, kept or made from its
// element when the table holds the lines (as decodeTable would keep it).
// The loops over every line call them: they return the fields as numbers,
// which stay in registers, where a PatchLine is copied through memory.

// lineValue returns line i's PatchLine elem, textStart and textEnd.
func (p *Patch) lineValue(i int) (elem, start, end int32) {
	if p.table == nil {
		l := &p.lines[i]
		return l.elem, l.textStart, l.textEnd
	}
	return int32(i), 0, p.table[i].size
}

// lineSource returns line i's PatchLine start and end.
func (p *Patch) lineSource(i int) (start, end int32) {
	if p.table == nil {
		l := &p.lines[i]
		return l.start, l.end
	}
	e := &p.table[i]
	return e.start + 1 - p.tableBase, e.end() - 1 - p.tableBase
}

// LineNode returns the string node line i comes from: its array element,
// or the patch string itself.
func (p *Patch) LineNode(i int) *Node {
	elem, _, _ := p.lineValue(i)
	return p.nodeOf(elem)
}

func (p *Patch) nodeOf(elem int32) *Node {
	if p.Form == PatchArray {
		return p.Node.children()[elem]
	}
	return p.Node
}

// text returns line i's decoded text. When the elements are kept in a
// table (see lazyElems), which reading a line then does not make, its
// element is decoded from the version's text with dec.
func (p *Patch) text(dec *elemDecoder, i int) string {
	elem, start, end := p.lineValue(i)
	if t := p.Node.table(); t != nil && p.Form == PatchArray {
		e, delta := t.elem(int(elem))
		return dec.value(e, delta)[start:end]
	}
	return p.nodeOf(elem).Str[start:end]
}

// element returns array element i with this version's offsets. When the
// elements are kept in a table, it is a node of its own made from the
// table (not the node Elems would make: compare ranges, not pointers):
// the checks that run on every version read a few elements that way, and
// make no other.
func (p *Patch) element(i int) *Node {
	t := p.Node.table()
	if t == nil {
		return p.Node.children()[i]
	}
	dec := newElemDecoder(p.src, false)
	n := t.table.node(i, t.delta, dec.value(&t.table[i], t.delta))
	return &n
}

// LineElemRange returns the range of line i's string node, LineNode's,
// quotes included, without making the elements kept in a table (see
// lazyElems): the lenses and gutter hints an editor asks for after every
// keystroke read one per file or per visible line.
func (p *Patch) LineElemRange(i int) Range {
	if p.Form != PatchArray {
		return NodeRange(p.Node)
	}
	return elemRange(p.Node, p.LineElem(i))
}

// LineText returns line i decoded, without its line terminator.
func (p *Patch) LineText(i int) string {
	dec := newElemDecoder(p.src, false)
	return p.text(&dec, i)
}

// LineLen returns the length of line i's decoded text, LineText's,
// without reading its element: a pass over every line's length touches
// the table alone.
func (p *Patch) LineLen(i int) int {
	_, start, end := p.lineValue(i)
	return int(end - start)
}

// LineStart returns where line i's escaped text starts in the source,
// inside the quotes.
func (p *Patch) LineStart(i int) int {
	start, _ := p.lineSource(i)
	return p.Node.Start + int(start)
}

// LineEnd returns where line i's escaped text ends in the source: see
// LineStart.
func (p *Patch) LineEnd(i int) int {
	_, end := p.lineSource(i)
	return p.Node.Start + int(end)
}

// LineElem returns the index of the array element line i comes from (0
// for the string form).
func (p *Patch) LineElem(i int) int {
	elem, _, _ := p.lineValue(i)
	return int(elem)
}

// LineShared reports that line i's element holds other lines too, or a
// line feed after its only one (patch-multiline-element), or, in the
// string form, always.
func (p *Patch) LineShared(i int) bool {
	if p.Form != PatchArray {
		return true // the patch string
	}
	if p.table != nil {
		return false // each element holds one line, without a line feed
	}
	elem, _, _ := p.lineValue(i)
	if t := p.Node.table(); t != nil {
		e, _ := t.elem(int(elem))
		return e.lineFeed()
	}
	return p.nodeOf(elem).lineFeed
}

func decodePatch(src Text, n *Node) Patch {
	p := Patch{Node: n}
	if n != nil {
		p.origin = new(PatchOrigin)
		p.src = src.window(n.Start, n.End)
	}
	switch {
	case n == nil:
		p.Form = PatchMissing
	case n.Kind == KindString:
		p.Form = PatchString
		// splitLines already drops the empty line after a final line feed
		// ("a\nb\n" is two lines); an empty string holds no line at all.
		if n.Str != "" {
			p.lines = appendLines(p.lines, p.src, n, 0, n.Start)
		}
	case n.Kind == KindArray:
		p.Form = PatchArray
		if t := n.table(); t != nil {
			decodeTable(&p, t)
			break
		}
		elems := n.Elems()
		p.lines = make([]PatchLine, 0, len(elems))
		if k := len(elems); k > 0 && elems[k-1].Kind == KindString && elems[k-1].Str == "" {
			p.TrailingEmpty = elems[k-1]
			elems = elems[:k-1]
		}
		for i, e := range elems {
			if e.Kind == KindString { // else a schema error; not a diff line
				p.lines = appendElem(p.lines, p.src, e, i, n.Start)
			}
		}
	default:
		p.Form = PatchInvalid
	}
	return p
}

// decodeTable is decodePatch for an array whose elements are kept in a
// table: it reads the table, and makes no element. When every element is
// one line, closed (an unclosed one is a syntax error), the lines are
// made from the table when read (see Patch.table): kept, they would
// repeat it. Else they are kept.
func decodeTable(p *Patch, t *lazyElems) {
	k := len(t.table)
	if k > 0 && t.table[k-1].size == 0 {
		p.TrailingEmpty = p.element(k - 1)
		k--
	}
	if !slices.ContainsFunc(t.table[:k], func(e stringElem) bool { return e.lineFeed() || e.carriage() || !e.closed() }) {
		p.table, p.tableBase = t.table[:k:k], int32(p.Node.Start-t.delta)
		return
	}
	ls := make([]PatchLine, 0, k)
	// The length of a value of one line is in the table; one of several
	// is split by reading its escapes in the source.
	for i := range k {
		te := &t.table[i]
		e := t.table.node(i, t.delta, "")
		if !te.lineFeed() && !te.carriage() {
			start, end := contentRange(&e)
			ls = append(ls, PatchLine{elem: int32(i), start: int32(start - p.Node.Start), end: int32(end - p.Node.Start), textEnd: te.size})
			continue
		}
		ls = appendLines(ls, p.src, &e, i, p.Node.Start)
	}
	p.lines = ls
}

// appendElem appends to ls the lines of e, element elem of the patch
// that starts at base.
func appendElem(ls []PatchLine, src window, e *Node, elem, base int) []PatchLine {
	// Without an escape the value cannot hold a line break (a raw one
	// ends the string); most lines have none, so this skips the scan.
	if !e.Escape || strings.IndexByte(e.Str, '\n') < 0 && strings.IndexByte(e.Str, '\r') < 0 {
		start, end := contentRange(e)
		return append(ls, PatchLine{elem: int32(elem), start: int32(start - base), end: int32(end - base), textEnd: int32(len(e.Str))})
	}
	return appendLines(ls, src, e, elem, base) // "line\n" is one line: splitLines drops the empty rest
}

// appendLines appends to ls the lines of the string node e, element elem
// of the patch that starts at base (or the patch string).
func appendLines(ls []PatchLine, src window, e *Node, elem, base int) []PatchLine {
	splitLines(src, e, func(s span) {
		ls = append(ls, PatchLine{elem: int32(elem), start: int32(s.start - base), end: int32(s.end - base), textStart: int32(s.textStart), textEnd: int32(s.textEnd)})
	})
	return ls
}

// LineReader reads many lines' texts, as LineText does, with few
// allocations: the lines are decoded into blocks it holds (see stringBlocks),
// or, by Peek, into a scratch it reuses.
type LineReader struct {
	p    *Patch
	dec  elemDecoder // copies
	peek elemDecoder // peeks
}

// NewLineReader returns a LineReader of p's lines.
func (p *Patch) NewLineReader() *LineReader {
	return &LineReader{p: p, dec: newElemDecoder(p.src, false), peek: newElemDecoder(p.src, true)}
}

// Text returns line i decoded, without its line terminator.
func (lr *LineReader) Text(i int) string { return lr.p.text(&lr.dec, i) }

// Peek returns line i decoded, without its line terminator, for a caller
// that drops it before it reads the next line: the bytes are the text's
// or the reader's scratch, which the next call may overwrite.
func (lr *LineReader) Peek(i int) []byte {
	p := lr.p
	elem, start, end := p.lineValue(i)
	if t := p.Node.table(); t != nil && p.Form == PatchArray {
		e, delta := t.elem(int(elem))
		return lr.peek.peek(e, delta)[start:end]
	}
	return []byte(p.nodeOf(elem).Str[start:end])
}

// LineHead returns the first byte of line i decoded, and false for an
// empty line, without decoding the rest: the index reads a hunk's body
// lines by their marker alone.
func (p *Patch) LineHead(i int) (byte, bool) {
	_, textStart, textEnd := p.lineValue(i)
	if textEnd == textStart {
		return 0, false
	}
	if p.src.b == nil || p.Form != PatchArray || textStart != 0 {
		return p.LineText(i)[0], true
	}
	src := p.src.b
	s, e := p.lineSource(i)
	start, end := p.Node.Start+int(s)-p.src.at, p.Node.Start+int(e)-p.src.at
	if src[start] != '\\' {
		return src[start], true
	}
	dec, _ := escapeAt(src[:end], start)
	if len(dec) == 0 {
		return p.LineText(i)[0], true
	}
	return dec[0], true
}
