package exchange

// ElementsMade reports whether the elements of n, a patch node, exist:
// false for one whose elements are kept in a table that nothing has
// asked for them yet (see lazyElems).
func ElementsMade(n *Node) bool {
	l := n.table()
	return l == nil || l.made != nil
}

// parseIncremental is ParseEdited of src, the change found by comparing.
func parseIncremental(src []byte, prev *Document) *Document {
	t := NewText(src)
	return ParseEdited(t, prev, ChangeBetween(prev.Text, t))
}

// PatchCarried returns how many bytes the patch moved when it was carried
// over from the version this document was parsed as an edit of, and
// whether it was.
func (d *Document) PatchCarried() (delta int, ok bool) { return d.patchDelta, d.patchCarried }

// What only the tests ask of the package.

// isMember reports whether n is the value of a member of an object in
// root's tree.
func (n *Node) isMember(root *Node) bool {
	p := Parent(root, n)
	return p != nil && p.Kind == KindObject
}

// memberDoc returns the markdown description of member name of owner
// ("review", "comment" or "reply"), or "" when the schema does not define
// it.
func memberDoc(owner, name string) string {
	m, _ := Member(owner, name)
	return m.Markdown
}

// sourceOffset maps a byte offset in a string node's decoded value to the
// source offset of the escape or character that produced it.
func sourceOffset(t Text, n *Node, decoded int) int {
	start, end := contentRange(n)
	src := t.Slice(start, end)
	if !n.Escape {
		// The source is the value: only back up to the character's start.
		return start + charStart(src, max(0, min(decoded, end-start)))
	}
	d := 0
	for i := start; i < end; {
		dec, size := escapeAt(src, i-start)
		if d+len(dec) > decoded {
			return i // decoded falls in this unit: its start
		}
		d += len(dec)
		i += size
	}
	return end
}

// validateSchema checks doc against the embedded schema; see
// SchemaValidator.Validate.
func validateSchema(doc *Document) []SchemaViolation {
	return DefaultSchema().Validate(doc)
}

// lineSegments splits a string node's decoded value at line feeds and gives
// each line the source range of its escaped text. A trailing carriage
// return is dropped from the line (CRLF patches), and so is the empty line
// after a final line feed. Each line's Text is a substring of n.Str.
func lineSegments(src Text, n *Node) []Segment {
	var out []Segment
	splitLines(src.window(n.Start, n.End), n, func(s span) {
		out = append(out, Segment{Text: n.Str[s.textStart:s.textEnd], Start: s.start, End: s.end})
	})
	return out
}

// editOf returns how d's text differs from prev's, when d was parsed by
// ParseEdited as an edit of prev: the caller then need not compare them.
func (d *Document) editOf(prev *Document) (Change, bool) {
	if d.base == nil || d.base != prev.id {
		return Change{}, false
	}
	return d.change, true
}

// Segment is a piece of a JSON string: its decoded text and the byte range
// of its escaped spelling in the source.
type Segment struct {
	Text       string
	Start, End int
}
