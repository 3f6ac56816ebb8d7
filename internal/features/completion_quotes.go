package features

import (
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Completion inside a closed string: `"side": "|"`, `"side": "RI|"`, or a
// key `"si|"` whose quotes the editor closed. Replacing the whole token,
// quotes and all, is what the protocol says, but clients do not agree on
// it: Neovim's built-in completion replaces from the edit's start to the
// cursor only, and leaves the closing quote after the item's own
// (`"RIGHT""`). An edit within the quotes, of the string's content, is
// applied alike by every client, whatever it does with the text after the
// cursor: it ends where the content does. So inside a closed string each
// item inserts its content, unquoted (escapes kept), and a key's colon,
// which goes after the closing quote, is an extra edit there.

// insideQuotes narrows c to the content of the closed string its range
// covers, when the cursor is inside it and every item is a string.
func insideQuotes(doc *exchange.Document, c *Completion, place completionContext, offset int) {
	rng := place.rng
	src := doc.Text
	if len(c.Items) == 0 || (place.kind != completeValue && place.kind != completeKey) ||
		offset <= rng.Start || offset >= rng.End || !closedString(src, rng.Start, rng.End) {
		return
	}
	colon := ""
	for _, it := range c.Items {
		text := it.Text
		if place.kind == completeKey && !place.colon {
			var ok bool
			if text, ok = strings.CutSuffix(text, ": "); !ok {
				return
			}
			colon = ": "
		}
		if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' {
			return
		}
	}
	for i := range c.Items {
		it := &c.Items[i]
		text := strings.TrimSuffix(it.Text, colon)
		it.Text, it.Snippet = text[1:len(text)-1], ""
		if colon != "" {
			it.Extra = append(it.Extra, exchange.Edit{Start: rng.End, End: rng.End, NewText: colon})
		}
	}
	c.Range = exchange.Range{Start: rng.Start + 1, End: rng.End - 1}
}

// RelativeIndent writes the lines of text after the first relative to
// indent, for a client that adds the cursor line's indentation to them
// itself (insertTextMode adjustIndentation, which Neovim's snippets and
// VS Code do): each loses indent from its start. A line that does not
// start with indent (a blank one) is left as it is.
func RelativeIndent(text, indent string) string {
	if indent == "" || !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(lines[i], indent)
	}
	return strings.Join(lines, "\n")
}
