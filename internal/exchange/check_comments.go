package exchange

import (
	"sort"
)

// commentCheck is what the document checks found inside one comment: its
// schema, line-number, unknown-member and escape diagnostics. They read
// nothing but the comment's own bytes and its index (the schema's
// "element 3 of `comments`", Comment.Number's "#4"), so that a comment spelt
// the same at the same index in the next version gets them again, moved,
// without being checked again (CheckIncremental).
type commentCheck struct {
	index      int // the element's index in the comments array
	start, end int // the comment object's bytes
	// clean: closed, without a syntax error inside, in a document whose
	// syntax errors were all recorded. Only then is the comment's tree,
	// and what the checks say of it, a function of its bytes: the
	// validator drops some findings on a partial tree.
	clean         bool
	reused        bool // carried over from the previous version
	anchorInvalid bool // see Result.AnchorInvalid
	// The comment's id as checkIDs sees it: whether the member is there,
	// whether it is a string, and the string.
	hasID, stringID bool
	id              string
	diags           []Diagnostic
}

// commentSet holds a version's commentChecks, one per element of
// doc.Review.Comments, in order.
type commentSet struct {
	arr  *Node // the comments array; nil if there is none
	recs []commentCheck
	// stub is indexed by element index: the comment's findings were
	// carried over, so the validator gets a stand-in (instanceOf).
	stub []bool
}

// newCommentSet matches doc's comments with prev's: a comment spelt
// byte for byte as the one at the same index of prev, clean in both,
// takes that one's findings moved to its place. The comparison costs a
// pass over the comments' bytes, far less than checking them.
func newCommentSet(doc *Document, prev *Result) *commentSet {
	cs := &commentSet{recs: make([]commentCheck, len(doc.Review.Comments))}
	if a := doc.Root.Member("comments"); a != nil && a.Kind == KindArray {
		cs.arr = a
	}
	var old []commentCheck
	var oldSrc Text
	if prev != nil {
		old, oldSrc = prev.comments, prev.src
	}
	complete := len(doc.Syntax) < maxSyntaxErrors
	j := 0
	for k, c := range doc.Review.Comments {
		n := c.Node
		rec := &cs.recs[k]
		rec.index, rec.start, rec.end = c.Index, n.Start, n.End
		rec.clean = complete && n.Closed && (len(doc.Syntax) == 0 || !syntaxErrorIn(doc, n))
		for j < len(old) && old[j].index < c.Index {
			j++
		}
		if !rec.clean || j >= len(old) || old[j].index != c.Index {
			continue
		}
		o := &old[j]
		if !o.clean || o.end-o.start != n.End-n.Start || !doc.Text.Equal(n.Start, n.End, oldSrc, o.start) {
			continue
		}
		rec.reused, rec.anchorInvalid = true, o.anchorInvalid
		rec.hasID, rec.stringID, rec.id = o.hasID, o.stringID, o.id
		rec.diags = MovedBy(o.diags, n.Start-o.start)
		if cs.stub == nil {
			cs.stub = make([]bool, len(cs.arr.Elems()))
		}
		cs.stub[c.Index] = true
	}
	for k, c := range doc.Review.Comments {
		if rec := &cs.recs[k]; !rec.reused {
			idNode := c.Member("id")
			rec.hasID, rec.stringID, rec.id = idNode != nil, idNode != nil && idNode.Kind == KindString, c.ID
		}
	}
	return cs
}

// owner returns the record of the comment n lies in (n itself included),
// or nil when n is outside every comment.
func (cs *commentSet) owner(n *Node) *commentCheck {
	if cs.arr == nil {
		return nil
	}
	path := Path(cs.arr, n)
	if len(path) < 2 || path[1].Kind != KindObject {
		return nil
	}
	i := int(path[1].Index)
	k := sort.Search(len(cs.recs), func(k int) bool { return cs.recs[k].index >= i })
	if k == len(cs.recs) || cs.recs[k].index != i {
		return nil
	}
	return &cs.recs[k]
}

// inComment reports whether n is a comment of the set (an object element
// of the comments array): the global walks leave those to checkComment.
func (cs *commentSet) inComment(n *Node) bool {
	if cs.arr == nil || n.Kind != KindObject || n.Index < 0 {
		return false
	}
	es := cs.arr.Elems()
	return int(n.Index) < len(es) && es[n.Index] == n
}

// checkComment runs the per-comment checks but the schema's (checkSchema
// files those) on a comment that was not carried over.
func checkComment(doc *Document, c *Comment, rec *commentCheck) {
	add := func(d Diagnostic) { rec.diags = append(rec.diags, d) }
	checkLineNumbers(doc, c, rec)
	unknownMembers(doc, c.Node, CommentKeys, "comment "+c.Name(), add)
	for _, r := range c.Replies {
		unknownMembers(doc, r.Node, ReplyKeys, "a reply of comment "+c.Name(), add)
	}
	checkEscapes(doc, c.Node, add, nil)
	checkDuplicateMembers(doc, c.Node, "comment "+c.Name(), add, nil)
}

// idsUnchanged reports whether the comments' ids, as checkIDs reads
// them, are those of prev's comments, in the same order: then checkIDs
// would find what it found in prev.
func (cs *commentSet) idsUnchanged(prev *Result) bool {
	if prev == nil || len(prev.comments) != len(cs.recs) {
		return false
	}
	for k := range cs.recs {
		a, b := &cs.recs[k], &prev.comments[k]
		if a.hasID != b.hasID || a.stringID != b.stringID || a.id != b.id {
			return false
		}
	}
	return true
}
