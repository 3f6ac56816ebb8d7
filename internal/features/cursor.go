package features

import (
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Where the person types next. An action that writes a new comment or
// reply leaves its body empty for the person to type, so the editor
// should put the cursor between that body's quotes: the person writing
// forty comments should not have to look for where each one went.

// BodyCursor names the body an action writes empty: comment Comment's
// (by anchor.CommentName), or, when Reply >= 0, that of its reply of
// that index. It is found again in the document once the action is
// applied (BodyAt): positions computed before the edit would describe a
// version the editor has not yet sent.
type BodyCursor struct {
	Comment string
	Reply   int
}

// BodyAt is where the cursor goes in the body bc names: inside its
// quotes, at the end of what it holds (the person may have typed
// already). ok is false when the document has no such body string.
func BodyAt(doc *exchange.Document, bc BodyCursor) (int, bool) {
	b, err := bodyAt(doc, bc)
	if err != nil {
		return 0, false
	}
	return b.Range.End - 1, true
}

// emptyBody reports whether an inserted text writes an empty "body".
func emptyBody(text string) bool {
	k := strings.Index(text, `"body"`)
	if k < 0 {
		return false
	}
	rest := strings.TrimLeft(text[k+len(`"body"`):], " \t")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(rest[1:], " \t\r\n"), `""`)
}

// withBodyCursor marks a one-edit action that writes an empty body.
func withBodyCursor(a Action, bc BodyCursor) Action {
	if len(a.Edits) == 1 && emptyBody(a.Edits[0].NewText) {
		a.Cursor = &bc
	}
	return a
}

// patchLineNear is PatchLineAt, or, when offset is beside a patch element
// on its line of the document (in the indentation before it, on the comma
// or the blanks after it), that element's line: a code action is asked
// for wherever the cursor is on the line. The end of a selection does
// not look right (ahead): a selection of whole lines ends at the start of
// the line after them.
func patchLineNear(doc *exchange.Document, offset int, ahead bool) (int, bool) {
	if i, ok := PatchLineAt(doc, offset); ok {
		return i, true
	}
	src := doc.Text
	if offset < 0 || offset > src.Len() {
		return -1, false
	}
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	r := offset
	for r < src.Len() && blank(src.Byte(r)) {
		r++
	}
	if ahead && r < src.Len() && src.Byte(r) == '"' {
		if i, ok := PatchLineAt(doc, r); ok {
			return i, true
		}
	}
	l := offset
	for l > 0 && (blank(src.Byte(l-1)) || src.Byte(l-1) == ',') {
		l--
	}
	if l > 0 && src.Byte(l-1) == '"' {
		return PatchLineAt(doc, l-1)
	}
	return -1, false
}
