package exchange

import "fmt"

// SyntaxRefusal is how every action that needs the document's tree
// refuses a document with syntax errors (the tree is a guess there: an
// edit could land in the wrong value, an export place a comment that is
// not one): one wording, naming what was not done and where the first
// error is. It returns nil when the document has none.
func (d *Document) SyntaxRefusal(action string) error {
	if len(d.Syntax) == 0 {
		return nil
	}
	e := d.Syntax[0]
	line, col := d.Mapper().LineCol(e.Start)
	more := ""
	if n := len(d.Syntax) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return fmt.Errorf("cannot %s: syntax error at line %d, column %d: %s%s", action, line, col, e.Msg, more)
}
