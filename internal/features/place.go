package features

import (
	"sort"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Where a byte offset of a review document is: the member, value or
// patch line a cursor is on, which hover, definition, references and
// completion all start from.

// PlaceKind says what a byte offset of a document is on.
type PlaceKind uint8

const (
	PlaceNone      PlaceKind = iota // outside the document's root object
	PlaceKey                        // a member's key
	PlaceValue                      // a value, or a container's punctuation and blanks
	PlacePatchLine                  // a line of the patch
)

// Place is what a byte offset designates.
type Place struct {
	Kind PlaceKind
	// Range is the source text the place covers: the key (quotes
	// included), the value, or the patch line (its array element; its
	// own text when it shares a string with other lines).
	Range exchange.Range
	// Node is the member's value (for a key too), the innermost value
	// holding the offset, or the patch line's element or string.
	Node *exchange.Node
	// Owner names the object Node is a member of when the format defines
	// it (exchange.OwnerReview, OwnerComment, OwnerReply); "" otherwise.
	Owner string
	// Comment and Reply index doc.Review.Comments and that comment's
	// Replies when the offset is inside one; -1 otherwise.
	Comment, Reply int
	// PatchLine indexes doc.Review.Patch's lines for PlacePatchLine.
	PatchLine int
	// parent is the object or array Node is in; nil for the root.
	parent *exchange.Node
}

// Member is the name of the member the place is the key or value of, or
// "" for an array element or the root.
func (p Place) Member() string {
	if p.Node != nil && p.parent != nil && p.parent.Kind == exchange.KindObject {
		return p.Node.Name
	}
	return ""
}

// PlaceAt returns what offset designates in doc. A token covers
// [start, end): the offset just after a closing quote is not on the
// string, as a mouse pointer or block cursor right after it is not.
func PlaceAt(doc *exchange.Document, offset int) Place {
	p := Place{Comment: -1, Reply: -1, PatchLine: -1}
	n := doc.Root
	if n == nil || !within(n, offset) {
		return p
	}
	var parent *exchange.Node
	for {
		var next *exchange.Node
		switch n.Kind {
		case exchange.KindObject:
			m := memberAt(n, offset)
			if m == nil {
				break
			}
			if offset >= m.KeyStart() && offset < m.KeyEnd() {
				p.Kind, p.Range, p.Node, p.Owner, p.parent = PlaceKey, exchange.KeyRange(m), m, ownerOf(doc, n), n
				return p
			}
			if within(m, offset) {
				next = m
			}
		case exchange.KindArray:
			next = elemAt(n, offset)
		}
		if next == nil {
			break
		}
		parent, n = n, next
		if n.Kind == exchange.KindObject {
			switch ownerOf(doc, n) {
			case exchange.OwnerComment:
				p.Comment = commentIndex(doc, n)
			case exchange.OwnerReply:
				if p.Comment >= 0 {
					p.Reply = replyIndex(doc.Review.Comments[p.Comment], n)
				}
			}
		}
	}
	patch := &doc.Review.Patch
	if patch.Node != nil && n.Kind == exchange.KindString && (n == patch.Node || parent == patch.Node) {
		if i := patchLineAt(patch, n, offset); i >= 0 {
			p.Kind, p.Range, p.Node, p.PatchLine, p.parent = PlacePatchLine, LineRange(patch, i), n, i, parent
			return p
		}
	}
	p.Kind, p.Range, p.Node, p.parent = PlaceValue, exchange.NodeRange(n), n, parent
	if parent != nil && parent.Kind == exchange.KindObject {
		p.Owner = ownerOf(doc, parent)
	}
	return p
}

func within(n *exchange.Node, offset int) bool { return n.Start <= offset && offset < n.End }

// memberAt returns the member of obj whose key or value may hold offset:
// the last one starting at or before it. Members are in source order.
func memberAt(obj *exchange.Node, offset int) *exchange.Node {
	ms := obj.Members()
	i := sort.Search(len(ms), func(i int) bool { return ms[i].KeyStart() > offset }) - 1
	if i < 0 || offset >= max(ms[i].KeyEnd(), ms[i].End) {
		return nil
	}
	return ms[i]
}

// elemAt returns the element of arr holding offset, searching by halves:
// a patch array has one element per diff line.
func elemAt(arr *exchange.Node, offset int) *exchange.Node {
	es := arr.Elems()
	i := sort.Search(len(es), func(i int) bool { return es[i].Start > offset }) - 1
	if i < 0 || !within(es[i], offset) {
		return nil
	}
	return es[i]
}

// ownerOf names the format's object obj is: the review, a comment or a
// reply; "" for anything else (an unknown member's object).
func ownerOf(doc *exchange.Document, obj *exchange.Node) string {
	if obj == nil || obj.Kind != exchange.KindObject {
		return ""
	}
	if obj == doc.Root {
		return exchange.OwnerReview
	}
	// A comment is root/comments/i; a reply, root/comments/i/replies/j.
	path := exchange.Path(doc.Root, obj)
	if len(path) != 3 && len(path) != 5 || path[1].Kind != exchange.KindArray || doc.Root.Member("comments") != path[1] {
		return ""
	}
	if len(path) == 3 {
		return exchange.OwnerComment
	}
	if path[2].Kind == exchange.KindObject && path[3].Kind == exchange.KindArray && path[2].Member("replies") == path[3] {
		return exchange.OwnerReply
	}
	return ""
}

func commentIndex(doc *exchange.Document, obj *exchange.Node) int {
	cs := doc.Review.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Index >= int(obj.Index) })
	if i < len(cs) && cs[i].Node == obj {
		return i
	}
	return -1
}

func replyIndex(c *exchange.Comment, obj *exchange.Node) int {
	for i, r := range c.Replies {
		if r.Node == obj {
			return i
		}
	}
	return -1
}

// patchLineAt returns the index of the line of the patch string n (an
// array element, or the whole string form) that offset is on, or -1.
func patchLineAt(p *exchange.Patch, n *exchange.Node, offset int) int {
	i := sort.Search(p.LineCount(), func(i int) bool { return p.LineStart(i) > offset }) - 1
	// A line's text starts after its element's opening quote: the quote
	// belongs to the element's first line.
	if i+1 < p.LineCount() && p.LineNode(i+1) == n && (i < 0 || p.LineNode(i) != n) {
		i++
	}
	if i < 0 || p.LineNode(i) != n {
		return -1
	}
	return i
}

// LineRange is the source range that stands for patch line i: its array
// element, quotes included, or its own text when it shares a string with
// other lines (the single-string form, a multi-line element).
func LineRange(p *exchange.Patch, i int) exchange.Range {
	if p.LineShared(i) {
		return exchange.Range{Start: p.LineStart(i), End: p.LineEnd(i)}
	}
	return p.LineElemRange(i)
}

// placeNear is PlaceAt, or the place just before offset when offset is
// on punctuation or blanks: a text cursor right after a token (`72|,`)
// asks about that token.
func placeNear(doc *exchange.Document, offset int) Place {
	p := PlaceAt(doc, offset)
	if offset > 0 && (p.Kind == PlaceNone || p.Kind == PlaceValue && (p.Node.Kind == exchange.KindObject || p.Node.Kind == exchange.KindArray)) {
		if q := PlaceAt(doc, offset-1); q.Kind != PlaceNone && q.Node != p.Node {
			return q
		}
	}
	return p
}
