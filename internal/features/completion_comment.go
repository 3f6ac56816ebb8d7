package features

import (
	"slices"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// ItemComment is a whole new comment object, offered between the elements
// of `comments`.
const ItemComment ItemKind = ItemValue + 1

// commentSlot reads the context of a cursor between the elements of the
// `comments` array arr: a new comment goes there. The commas it needs are
// part of the item: one after the element before the cursor when that
// has none (an extra edit), one after the new object when an element
// follows without one between.
func commentSlot(doc *exchange.Document, arr *exchange.Node, offset int) completionContext {
	c := completionContext{kind: completeComment, obj: arr, rng: exchange.Range{Start: offset, End: offset}, comma: -1}
	src := doc.Text
	for _, e := range arr.Elems() {
		switch {
		case e.End <= offset:
			c.comma = -1
			if onlyBlanks(src.Slice(e.End, offset)) {
				c.comma = e.End
			}
		case e.Start >= offset:
			c.trail = !strings.Contains(src.String(offset, e.Start), ",")
			return c
		default:
			return completionContext{rng: c.rng, comma: -1} // inside an element that is not an object: not a slot
		}
	}
	return c
}

// isCommentsArray reports whether n is the review's `comments` array.
func isCommentsArray(doc *exchange.Document, n *exchange.Node) bool {
	return n.Kind == exchange.KindArray && n.Name == "comments" && slices.Contains(doc.Root.Members(), n)
}

// newCommentItem is the new comment for slot c: the required members
// (id, path, side, start_line, body), laid out like the comments already
// there. Its values are real ones (a fresh id, the patch's first file and
// first line of that file's image) so that the plain text is a comment
// that resolves; the snippet makes each a placeholder and leaves the
// cursor in the body.
func newCommentItem(an *anchor.Analysis, c completionContext) Item {
	doc := an.Doc
	id := FreshID(doc)
	path, side, line := firstPlace(an)
	st := exchange.LayoutOf(doc.Text, doc.Root).Nested()
	if len(c.obj.Elems()) > 0 {
		if first := c.obj.Elems()[0]; first.Kind == exchange.KindObject && len(first.Members()) > 0 {
			st = exchange.LayoutOf(doc.Text, first)
		}
	}
	plain := []exchange.MemberText{
		{Name: "id", Value: jsontext.Quote(id)},
		{Name: "path", Value: jsontext.Quote(path)},
		{Name: "side", Value: jsontext.Quote(side.String())},
		{Name: "start_line", Value: strconv.Itoa(line)},
		{Name: "body", Value: `""`},
	}
	snip := []exchange.MemberText{
		{Name: "id", Value: `"${1:` + snippetText(strings.Trim(jsontext.Quote(id), `"`)) + `}"`},
		{Name: "path", Value: `"${2:` + snippetText(strings.Trim(jsontext.Quote(path), `"`)) + `}"`},
		// A placeholder, not a choice: Neovim's snippets leave a choice
		// empty until one is picked, and an empty side breaks the review.
		// The side's own completion offers both values.
		{Name: "side", Value: `"${3:` + side.String() + `}"`},
		{Name: "start_line", Value: "${4:" + strconv.Itoa(line) + "}"},
		{Name: "body", Value: `"$0"`},
	}
	tail := ""
	if c.trail {
		tail = ","
	}
	it := Item{
		Label:  "new comment",
		Kind:   ItemComment,
		Detail: "id, path, side, start_line, body",
		Doc:    "A new review comment with the members the format requires, anchored on " + code(path) + " " + side.String() + " " + strconv.Itoa(line) + ".",
		Text:   st.Render(plain) + tail,
		// The snippet's own text needs no escaping: member names and
		// JSON punctuation hold no "$", "\" or "}" of snippet syntax
		// outside the placeholders.
		Snippet:   st.Render(snip) + tail,
		Sort:      "00",
		Preselect: true,
	}
	if c.comma >= 0 {
		it.Extra = []exchange.Edit{{Start: c.comma, End: c.comma, NewText: ","}}
	}
	return it
}

// firstPlace is where a new comment starts anchored: the patch's first
// file, on the new image unless the file was deleted, at the first line
// of its first hunk in that image; "" RIGHT 1 for an empty patch.
func firstPlace(an *anchor.Analysis) (string, anchor.Side, int) {
	if len(an.Index.Files) == 0 {
		return "", anchor.Right, 1
	}
	f := an.Index.Files[0]
	side, path := anchor.Right, f.NewName
	if path == "" {
		side, path = anchor.Left, f.OldName
	}
	line := 1
	for _, h := range f.Hunks {
		start := h.NewStart
		if side == anchor.Left {
			start = h.OldStart
		}
		if start > 0 {
			line = start
			break
		}
	}
	return path, side, line
}

// snippetText escapes text for an LSP snippet placeholder, where "$", "}"
// and "\" are syntax.
func snippetText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}
