package features

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// Completion while a person writes a review by hand: member names from the
// schema, the enumerated values, paths from the patch and the line numbers
// that exist in the chosen image. Documents being typed are rarely valid
// JSON, so the context is read from the tolerant reader's tree and the
// bytes around the cursor, never from the model alone.

// ItemKind says what a completion item inserts.
type ItemKind uint8

const (
	ItemMember ItemKind = iota + 1 // a member name
	ItemEnum                       // an enumerated value (side, state)
	ItemPath                       // a file path of the patch
	ItemLine                       // a line number of an image
	ItemValue                      // another value (an author, the version)
)

// Item is one completion candidate. Its text replaces Completion.Range.
type Item struct {
	Label  string
	Kind   ItemKind
	Detail string
	Doc    string // Markdown
	// Text is the plain text to insert; Snippet the same with LSP snippet
	// placeholders, for clients that take snippets ("" when Text serves).
	Text, Snippet string
	// Filter is what the client matches the typed text against: the text
	// as it starts in the document (with its opening quote when the
	// replaced token has one).
	Filter    string
	Sort      string
	Preselect bool
	// Extra are edits to make with the item elsewhere: the comma a new
	// member needs after the one before it.
	Extra []exchange.Edit
}

// Completion is the candidates for one position.
type Completion struct {
	// Range is what an item replaces: the partial token being typed (a
	// string with its quotes, a number, a bare word), or the empty range
	// at the cursor.
	Range exchange.Range
	Items []Item
	// Indent is the white space the cursor's line starts with: a client
	// that adjusts the indentation of a multi-line item (the protocol's
	// default insertTextMode) adds it to the item's lines after the first,
	// which must then be written relative to it (RelativeIndent).
	Indent string
}

// maxLineDocs bounds the line items that carry a diff excerpt as their
// documentation: beyond it the list would outweigh the rest of the reply
// many times over.
const maxLineDocs = 300

// Complete returns the completion candidates at offset.
func Complete(an *anchor.Analysis, offset int) Completion {
	doc := an.Doc
	place := completionAt(doc, offset)
	out := Completion{Range: place.rng}
	switch place.kind {
	case completeKey:
		out.Items = memberItems(doc, place)
	case completeValue:
		out.Items = valueItems(an, place)
	case completeComment:
		out.Items = []Item{newCommentItem(an, place)}
	}
	insideQuotes(doc, &out, place, offset)
	out.Indent = exchange.LineIndent(doc.Text, offset)
	// The filter text starts as the replaced token does, so that a typed
	// `"si` matches `"side"`.
	quoted := out.Range.End > out.Range.Start && doc.Text.Byte(out.Range.Start) == '"'
	for i := range out.Items {
		it := &out.Items[i]
		it.Filter = it.Label
		if quoted {
			it.Filter = jsontext.Quote(it.Label)
		}
		it.Extra = commaInside(it, out.Range)
	}
	return out
}

// commaInside moves a comma that goes where the replaced range starts into
// the item's own text, and returns the extra edits left. An extra edit at
// the main edit's position would land before or after the item's text as
// each client pleases (the protocol forbids it); elsewhere it is kept
// apart, so that the replaced range stays the token the client filters by.
func commaInside(it *Item, rng exchange.Range) []exchange.Edit {
	var rest []exchange.Edit
	for _, e := range it.Extra {
		if e.Start == rng.Start && e.End == e.Start && e.NewText == "," {
			it.Text = "," + it.Text
			if it.Snippet != "" {
				it.Snippet = "," + it.Snippet
			}
			continue
		}
		rest = append(rest, e)
	}
	return rest
}

// completionKind says what may be typed at the cursor.
type completionKind uint8

const (
	completeNothing completionKind = iota
	completeKey                    // a member name goes here
	completeValue                  // the value of member goes here
	completeComment                // a new element of `comments` goes here
)

// completionContext is where the cursor is and what may go there.
type completionContext struct {
	kind completionKind
	rng  exchange.Range
	// obj is the object the member goes in (completeKey) or belongs to (completeValue).
	obj   *exchange.Node
	owner string
	// member is the member whose value is typed (completeValue), or whose key
	// is typed (completeKey, nil at a fresh place).
	member *exchange.Node
	name   string // completeValue: the member's name
	// colon reports that the key being typed already has its colon: only
	// the name is inserted then.
	colon bool
	// comma is where the member before the cursor ends when no comma
	// follows it (-1 otherwise).
	comma int
	// space: the value follows its colon directly, so it is inserted with
	// a space before it.
	space bool
	// trail: an element follows the slot without a comma between them, so
	// the new element is inserted with one after it (completeComment).
	trail bool
}

// completionAt reads the completion context at offset. A token holds the
// cursor from just after its first byte to its end: a cursor right after
// `7` or inside `"si` completes that token; one after a closing quote is
// past the string.
func completionAt(doc *exchange.Document, offset int) completionContext {
	src := doc.Text
	none := completionContext{rng: exchange.Range{Start: offset, End: offset}, comma: -1}
	n := doc.Root
	if n == nil || !holdsCursor(src, n, offset) || (n.Kind != exchange.KindObject && n.Kind != exchange.KindArray) {
		return none
	}
	for {
		var next *exchange.Node
		if n.Kind == exchange.KindObject {
			for _, m := range n.Members() {
				if keyHoldsCursor(src, m, offset) {
					c := none
					c.kind, c.obj, c.owner, c.member = completeKey, n, ownerOf(doc, n), m
					c.rng = tokenRange(src, m.KeyStart(), m.KeyEnd(), closedString(src, m.KeyStart(), m.KeyEnd()), offset)
					c.colon = colonAfter(src, m.KeyEnd())
					c.comma = missingComma(src, n, m.KeyStart(), m)
					return c
				}
				if holdsCursor(src, m, offset) {
					next = m
					break
				}
			}
		} else {
			for _, e := range n.Elems() {
				if holdsCursor(src, e, offset) {
					next = e
					break
				}
			}
		}
		if next == nil {
			break
		}
		if next.Kind != exchange.KindObject && next.Kind != exchange.KindArray {
			// A scalar token holds the cursor: its value is being typed.
			if n.Kind != exchange.KindObject { // an element, not a member
				return none
			}
			c := none
			c.kind, c.obj, c.owner, c.member, c.name = completeValue, n, ownerOf(doc, n), next, next.Name
			c.rng = tokenRange(src, next.Start, next.End, next.Kind != exchange.KindString || next.Closed, offset)
			return c
		}
		n = next
	}
	if isCommentsArray(doc, n) {
		return commentSlot(doc, n, offset)
	}
	if n.Kind != exchange.KindObject {
		return none
	}
	return betweenTokens(doc, n, offset, none)
}

// betweenTokens reads the context of a cursor between the tokens of
// object n: what comes before it says whether a name or a value goes here.
func betweenTokens(doc *exchange.Document, n *exchange.Node, offset int, none completionContext) completionContext {
	src := doc.Text
	prev := offset - 1
	for prev >= 0 && isBlank(src.Byte(prev)) {
		prev--
	}
	if prev < n.Start {
		return none
	}
	c := none
	c.obj, c.owner = n, ownerOf(doc, n)
	switch src.Byte(prev) {
	case ':':
		for _, m := range n.Members() {
			if m.KeyEnd() <= prev && onlyBlanks(src.Slice(m.KeyEnd(), prev)) {
				c.kind, c.member, c.name = completeValue, m, m.Name
				c.space = prev == offset-1
				return c
			}
		}
		return none
	case '{', ',':
		c.kind = completeKey
		c.comma = missingComma(src, n, offset, nil)
		return c
	}
	// After a complete member without its comma: a name may follow, with
	// the comma. After a bare key (no colon yet), nothing may.
	for _, m := range n.Members() {
		if m.KeyEnd() == prev+1 {
			return none
		}
	}
	c.kind = completeKey
	c.comma = missingComma(src, n, offset, nil)
	return c
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func onlyBlanks(b []byte) bool {
	for _, c := range b {
		if !isBlank(c) {
			return false
		}
	}
	return true
}

// holdsCursor reports whether the cursor at offset is inside n: after its
// first byte and before its end, or at its end when n is a token the
// cursor may still extend (a number, a bare word, an unterminated string
// or container).
func holdsCursor(src exchange.Text, n *exchange.Node, offset int) bool {
	if offset <= n.Start || offset > n.End {
		return false
	}
	if offset < n.End {
		return true
	}
	switch n.Kind {
	case exchange.KindString, exchange.KindObject, exchange.KindArray:
		return !n.Closed
	}
	return n.End > n.Start // a number, a literal, a bare word
}

func keyHoldsCursor(src exchange.Text, m *exchange.Node, offset int) bool {
	if offset <= m.KeyStart() || offset > m.KeyEnd() {
		return false
	}
	return offset < m.KeyEnd() || !closedString(src, m.KeyStart(), m.KeyEnd())
}

// closedString reports whether the token [start, end) is a string with
// its closing quote (not an escaped one).
func closedString(src exchange.Text, start, end int) bool {
	if end-start < 2 || src.Byte(start) != '"' || src.Byte(end-1) != '"' {
		return false
	}
	next, open, _ := jsontext.SkipString(src.Slice(start, end), 1, false)
	return !open && start+next == end
}

// tokenRange is the range a completion replaces for the token
// [start, end). An unterminated string runs to the end of its line; only
// its part up to the end of the word under the cursor is replaced, so that
// what follows on the line survives.
func tokenRange(src exchange.Text, start, end int, closed bool, offset int) exchange.Range {
	if closed {
		return exchange.Range{Start: start, End: end}
	}
	e := offset
	for e < end && !strings.ContainsRune(" \t\",:{}[]", rune(src.Byte(e))) {
		e++
	}
	return exchange.Range{Start: start, End: e}
}

func colonAfter(src exchange.Text, i int) bool {
	for i < src.Len() && isBlank(src.Byte(i)) {
		i++
	}
	return i < src.Len() && src.Byte(i) == ':'
}

// missingComma returns where a comma must go for a member inserted at pos
// of obj: after the member that ends before pos when no comma separates
// the two; -1 when none is needed. skip is the member being typed.
func missingComma(src exchange.Text, obj *exchange.Node, pos int, skip *exchange.Node) int {
	var before *exchange.Node
	for _, m := range obj.Members() {
		if m != skip && max(m.End, m.KeyEnd()) <= pos {
			before = m
		}
	}
	if before == nil {
		return -1
	}
	end := max(before.End, before.KeyEnd())
	if before.End == before.Start && before.Kind == exchange.KindInvalid {
		return -1 // a member without a value: the comma is not what it lacks
	}
	i := end
	for i < pos && isBlank(src.Byte(i)) {
		i++
	}
	if i < src.Len() && src.Byte(i) == ',' {
		return -1
	}
	return end
}

// memberItems proposes the owner's members that obj does not have yet.
func memberItems(doc *exchange.Document, c completionContext) []Item {
	if c.owner == "" {
		return nil
	}
	present := map[string]bool{}
	for _, m := range c.obj.Members() {
		if m != c.member {
			present[m.Name] = true
		}
	}
	var extra []exchange.Edit
	if c.comma >= 0 {
		extra = []exchange.Edit{{Start: c.comma, End: c.comma, NewText: ","}}
	}
	var items []Item
	for i, m := range exchange.Members(c.owner) {
		if present[m.Name] {
			continue
		}
		it := Item{
			Label: m.Name,
			Kind:  ItemMember,
			Doc:   m.Markdown,
			Sort:  fmt.Sprintf("%02d", i),
			Extra: extra,
		}
		it.Detail = m.Title
		if m.Required {
			it.Detail += " (required)"
		}
		name := jsontext.Quote(m.Name)
		if c.colon {
			it.Text = name
		} else {
			it.Text = name + ": "
			it.Snippet = name + ": " + valueSnippet(c.owner, m)
		}
		items = append(items, it)
	}
	return items
}

// valueSnippet is the placeholder a new member's value starts as: inside
// quotes for a string, so that the value's own completion can follow.
func valueSnippet(owner string, m exchange.MemberInfo) string {
	if owner == exchange.OwnerReview && m.Name == "leanreview_review" {
		return "${1:1}"
	}
	switch m.Type {
	case "string":
		return `"$1"`
	case "array":
		return "[$1]"
	case "object":
		return "{$1}"
	}
	return "$1"
}

func valueItems(an *anchor.Analysis, c completionContext) []Item {
	var items []Item
	switch {
	case c.owner == exchange.OwnerReview && c.name == "leanreview_review":
		items = []Item{{Label: "1", Kind: ItemValue, Text: "1", Detail: "format version 1"}}
	case c.owner == exchange.OwnerComment && (c.name == "side" || c.name == "state"):
		for i, v := range exchange.EnumValues(c.owner, c.name) {
			items = append(items, Item{Label: v.Value, Kind: ItemEnum, Doc: v.Markdown, Text: jsontext.Quote(v.Value), Sort: fmt.Sprintf("%02d", i)})
		}
	case c.owner == exchange.OwnerComment && c.name == "path":
		items = pathItems(an, c)
	case c.owner == exchange.OwnerComment && (c.name == "start_line" || c.name == "end_line"):
		items = lineItems(an, c)
	case (c.owner == exchange.OwnerComment || c.owner == exchange.OwnerReply) && c.name == "author":
		items = authorItems(an, c)
	}
	if c.space {
		for i := range items {
			items[i].Text = " " + items[i].Text
		}
	}
	return items
}

// sideOf reads the side of the comment object obj, and whether it has a
// valid one.
func sideOf(obj *exchange.Node) (anchor.Side, bool) {
	if n := obj.Member("side"); n != nil && n.Kind == exchange.KindString {
		return anchor.ParseSide(n.Str)
	}
	return anchor.Right, false
}

// pathItems proposes the patch's file names: those of the comment's side
// when it has one (a path is compared with the new name for RIGHT, the
// old one for LEFT), every name otherwise.
func pathItems(an *anchor.Analysis, c completionContext) []Item {
	side, known := sideOf(c.obj)
	var items []Item
	seen := map[string]bool{}
	for _, f := range an.Index.Files {
		names := []string{f.OldName, f.NewName}
		if known {
			names = []string{f.Name(side)}
			if !anchor.HasImage(f, side) {
				continue
			}
		}
		for _, name := range names {
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			items = append(items, Item{
				Label:  name,
				Kind:   ItemPath,
				Detail: fileDetail(f),
				Text:   jsontext.Quote(name),
				Sort:   fmt.Sprintf("%06d", len(items)),
			})
		}
	}
	return items
}

// fileDetail reads "modified · +2 −1".
func fileDetail(f *anchor.FileDiff) string {
	added, removed := 0, 0
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l.Kind() {
			case anchor.Added:
				added++
			case anchor.Removed:
				removed++
			}
		}
	}
	s := statusWords(f)
	if f.Status == anchor.Renamed || f.Status == anchor.Copied {
		s += " from " + f.OldName
	}
	return fmt.Sprintf("%s · +%d −%d", s, added, removed)
}

// lineItems proposes the line numbers of the image the comment's path and
// side name (RIGHT when the side is not set yet), in order. An end_line
// must stay in start_line's hunk, at or after it, when start_line
// resolves.
func lineItems(an *anchor.Analysis, c completionContext) []Item {
	pathNode := c.obj.Member("path")
	if pathNode == nil || pathNode.Kind != exchange.KindString {
		return nil
	}
	side, known := sideOf(c.obj)
	f, _ := an.Index.FileFor(pathNode.Str, side)
	if f == nil && !known {
		side = anchor.Left // a deleted file's only image
		f, _ = an.Index.FileFor(pathNode.Str, side)
	}
	if f == nil || !anchor.HasImage(f, side) {
		return nil
	}
	hunks := f.Hunks
	hunkBase, from := 0, 0
	if c.name == "end_line" {
		if start, ok := c.obj.Member("start_line").Int(an.Doc.Text); ok {
			if h, i, ok := f.Find(side, start); ok {
				hunks, hunkBase, from = f.Hunks[h:h+1], h, i
			}
		}
	}
	snippet := ""
	if n := c.obj.Member("snippet"); n != nil && n.Kind == exchange.KindString && c.name == "start_line" {
		snippet = n.Str
	}
	total := 0
	for k := range hunks {
		total += len(hunks[k].Lines)
	}
	var items []Item
	preselected := false
	for k := range hunks {
		h := &f.Hunks[hunkBase+k]
		start := 0
		if k == 0 {
			start = from
		}
		for i := start; i < len(h.Lines); i++ {
			l := anchor.ImageLine{DiffLine: h.Lines[i], Patch: h.PatchLine(i)}
			n := l.Number(side)
			if n == 0 {
				continue
			}
			it := Item{
				Label:  strconv.Itoa(n),
				Kind:   ItemLine,
				Detail: string(marker(l.Kind())) + " " + anchor.Clip(strings.TrimSpace(f.Content(an.Index.Patch, l.Patch))),
				Text:   strconv.Itoa(n),
				Sort:   fmt.Sprintf("%09d", n),
			}
			if total <= maxLineDocs {
				var b strings.Builder
				diffBlock(&b, an.Index.Patch, f, h, i, i, side)
				it.Doc = b.String()
			}
			if snippet != "" && !preselected && strings.TrimSpace(snippet) != "" && anchor.SnippetMatches(snippet, side, an.Index.Patch, f, []anchor.ImageLine{l}) {
				it.Preselect, preselected = true, true
			}
			items = append(items, it)
		}
	}
	return items
}

// authorItems proposes the authors already in the review, in order of
// appearance, but not the one being typed.
func authorItems(an *anchor.Analysis, c completionContext) []Item {
	var items []Item
	seen := map[string]bool{}
	add := func(n *exchange.Node) {
		if n == nil || n == c.member || n.Kind != exchange.KindString || n.Str == "" || seen[n.Str] {
			return
		}
		seen[n.Str] = true
		items = append(items, Item{Label: n.Str, Kind: ItemValue, Detail: "author in this review", Text: jsontext.Quote(n.Str), Sort: fmt.Sprintf("%06d", len(items))})
	}
	for _, cm := range an.Doc.Review.Comments {
		add(cm.Member("author"))
		for _, rp := range cm.Replies {
			add(rp.Node.Member("author"))
		}
	}
	return items
}
