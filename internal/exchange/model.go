package exchange

import (
	"strconv"
	"strings"
	"sync"
)

// Member names in the spec's order. The canonical writer emits them in this
// order; anything else is an unknown member.
var (
	ReviewKeys  = []string{"leanreview_review", "title", "summary", "patch", "comments"}
	CommentKeys = []string{"id", "author", "path", "side", "start_line", "end_line", "body", "state", "snippet", "at", "replies"}
	ReplyKeys   = []string{"author", "body", "at"}
)

// Comment states.
const (
	StateActive    = "active"
	StateDismissed = "dismissed"
	StateOrphaned  = "orphaned"
	StateStale     = "stale"
)

// Document is a parsed review exchange file: the JSON tree with positions
// and the review model decoded from it with the spec's tolerance rules.
//
// A Document never changes once parsed, but for the mapper it builds on
// first use.
type Document struct {
	Text   Text
	Root   *Node
	Syntax []SyntaxError
	Review Review
	mapper *lazyMapper
	// patchCarried is set when the patch was carried over from the
	// version this document was parsed as an edit of (base), where it
	// spanned patchFrom, moved by patchDelta bytes (ParseEdited). A
	// range, not the earlier node: that holds its version's text.
	patchCarried bool
	patchFrom    Range
	patchDelta   int
	// id identifies the document; base is the id of the one it was
	// parsed as an edit of (ParseEdited), whose text was baseLen bytes,
	// and change is how its own text differs from it. Identity by a
	// pointer to a value of its own keeps nothing of the earlier version
	// alive.
	id, base *docID
	baseLen  int
	change   Change
}

// docID is a document's identity: each document points to one of its own.
type docID struct{ _ byte }

// Mapper returns the document's position mapper, built on first use.
func (d *Document) Mapper() *Mapper {
	if d.mapper == nil { // a Document not made by this package's parsers
		return NewTextMapper(d.Text)
	}
	d.mapper.mu.Lock()
	defer d.mapper.mu.Unlock()
	if l := d.mapper; l.m == nil && l.from != nil {
		l.m, l.from = l.from.Edited(d.Text, l.change), nil
	} else if l.m == nil {
		l.m = NewTextMapper(d.Text)
	}
	return d.mapper.m
}

// UseMapper makes m, which the caller made for the document's text, the
// document's mapper, in place of one it would build, from scratch or
// from an earlier version's: the server's snapshot of a version holds a
// mapper of the same text already, and one line table of a large review
// is enough. It must be called before the document is shared.
func (d *Document) UseMapper(m *Mapper) {
	if m == nil || d.mapper == nil {
		return
	}
	d.mapper.mu.Lock()
	defer d.mapper.mu.Unlock()
	d.mapper.m, d.mapper.from = m, nil
}

// lazyMapper is a document's mapper, built once, by the first request
// that needs it, while others may ask at the same time: from the
// earlier version's, from, edited where change says (see reuseMapper),
// else by a scan of the text.
type lazyMapper struct {
	mu     sync.Mutex
	m      *Mapper
	from   *Mapper
	change Change
}

// built returns the mapper if it was built, else nil.
func (l *lazyMapper) built() *Mapper {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m
}

// Review is the top-level object. Fields hold decoded values where the
// member has the right type; the nodes keep ranges for diagnostics.
type Review struct {
	Node        *Node // the root object, nil if the root is not an object
	Version     int
	VersionNode *Node
	Title       string
	Summary     string
	Patch       Patch
	Comments    []*Comment
}

// Comment is one element of `comments`.
type Comment struct {
	Node  *Node // the comment object (nil members are absent or mistyped)
	Index int

	ID, Author, Path, Side, Body, State, Snippet, At string
	StartLine, EndLine                               int
	Replies                                          []*Reply
}

// Reply is one element of a comment's `replies`.
type Reply struct {
	Node             *Node
	Author, Body, At string
}

// SideNorm returns the side in upper case: the spec makes it case-insensitive.
func (c *Comment) SideNorm() string { return strings.ToUpper(c.Side) }

// StateNorm returns the state with the default applied.
func (c *Comment) StateNorm() string {
	if c.State == "" {
		return StateActive
	}
	return c.State
}

// Name is the one way a comment is named in words — messages, fix titles,
// the CLI's lines, the agent's ids: by its id, else by its place (Number).
func (c *Comment) Name() string {
	if c.ID != "" {
		return c.ID
	}
	return c.Number()
}

// Number names the comment by its place in `comments`, "#3": where its id
// would not tell it apart (two comments sharing one) or it has none.
func (c *Comment) Number() string { return "#" + strconv.Itoa(c.Index+1) }

// Member returns the value node of the comment's member name, or nil.
func (c *Comment) Member(name string) *Node { return c.Node.Member(name) }

// Parse reads a review exchange document. It never fails: syntax errors are
// listed in Syntax and the model holds whatever could be decoded.
//
// The document keeps src, and the patch's elements are decoded from it
// when asked for (see lazyElems): the caller must therefore never modify
// src's bytes once it is parsed (appending past its length is harmless);
// give Parse a copy of a buffer that will be reused. A source of 2 GiB or
// more is not read: it gets one syntax error.
func Parse(src []byte) *Document { return parseFlat(src) }

// ParseText is Parse of a Text. The reader reads one run of bytes: a
// text of several pieces is copied into one first, which the document
// then holds.
func ParseText(t Text) *Document { return parseFlat(t.Bytes()) }

func parseFlat(src []byte) *Document {
	root, errs := ParseJSON(src)
	t := NewText(src)
	d := &Document{Text: t, Root: root, Syntax: errs, id: new(docID), mapper: &lazyMapper{}}
	if root.Kind == KindObject {
		d.Review = decodeReview(t, root)
	}
	return d
}

func str(n *Node) string {
	if n != nil && n.Kind == KindString {
		return n.Str
	}
	return ""
}

func decodeReview(src Text, root *Node) Review {
	return decodeReviewWithPatch(src, root, decodePatch(src, root.Member("patch")), nil)
}

// decodeReviewWithPatch decodes the review around an already decoded
// patch. prev are the comments of the version the tree was parsed as an
// edit of (nil if none): a comment whose node that version shares, at the
// same index, is its Comment, shared too, as decoding it again would give
// the same.
func decodeReviewWithPatch(src Text, root *Node, patch Patch, prev []*Comment) Review {
	r := Review{Node: root, VersionNode: root.Member("leanreview_review"), Patch: patch}
	r.Version, _ = r.VersionNode.Int(src)
	r.Title = str(root.Member("title"))
	r.Summary = str(root.Member("summary"))
	if cs := root.Member("comments"); cs != nil && cs.Kind == KindArray {
		j := 0
		for i, e := range cs.Elems() {
			if e.Kind != KindObject {
				continue
			}
			for j < len(prev) && prev[j].Index < i {
				j++
			}
			if j < len(prev) && prev[j].Index == i && prev[j].Node == e {
				r.Comments = append(r.Comments, prev[j])
				continue
			}
			r.Comments = append(r.Comments, decodeComment(src, e, i))
		}
	}
	return r
}

func decodeComment(src Text, n *Node, index int) *Comment {
	c := &Comment{Node: n, Index: index}
	// One pass over the members rather than a Member lookup per field: a
	// keystroke decodes every comment again. A later duplicate overwrites
	// an earlier one, so the last wins, as with Member.
	var start, end, replies *Node
	for _, m := range n.Members() {
		switch m.Name {
		case "id":
			c.ID = str(m)
		case "author":
			c.Author = str(m)
		case "path":
			c.Path = str(m)
		case "side":
			c.Side = str(m)
		case "body":
			c.Body = str(m)
		case "state":
			c.State = str(m)
		case "snippet":
			c.Snippet = str(m)
		case "at":
			c.At = str(m)
		case "start_line":
			start = m
		case "end_line":
			end = m
		case "replies":
			replies = m
		}
	}
	// The short members get memory of their own: they are what other
	// packages keep in results carried over to later versions of the
	// document (the anchor package's drift candidates hold the path), and
	// a string in the reader's blocks would keep the whole block alive.
	own(&c.ID, &c.Author, &c.Path, &c.Side, &c.State, &c.At)
	c.StartLine, _ = start.Int(src)
	c.EndLine = c.StartLine
	if e, ok := end.Int(src); ok {
		c.EndLine = e
	}
	if replies != nil && replies.Kind == KindArray {
		for _, e := range replies.Elems() {
			if e.Kind == KindObject {
				c.Replies = append(c.Replies, &Reply{Node: e, Author: str(e.Member("author")), Body: str(e.Member("body")), At: str(e.Member("at"))})
			}
		}
	}
	return c
}

// own replaces the strings with copies, all in one allocation.
func own(ss ...*string) {
	size := 0
	for _, s := range ss {
		size += len(*s)
	}
	var b strings.Builder
	b.Grow(size)
	for _, s := range ss {
		at := b.Len()
		b.WriteString(*s)
		*s = b.String()[at:]
	}
}
