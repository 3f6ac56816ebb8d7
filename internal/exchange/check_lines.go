package exchange

import (
	"math"
	"strconv"
	"strings"
)

// maxLine is the largest line number a reader is sure to hold exactly:
// 2^53−1, the top of I-JSON's interoperable integers (RFC 7493 §2.2).
const maxLine = 1<<53 - 1

// checkLineNumbers reports a start_line or end_line that the schema
// accepts (a whole number of at least 1) but that no reader can use as a
// line number: 2^63 and beyond, 1e400, a whole number past 2^53 written
// with an exponent or a fraction. Comment.StartLine would silently read it
// as 0 and the anchor would go unchecked; instead the value gets an error,
// under the schema code since it is a value the format cannot take, and
// the anchor is skipped like any other invalid one.
func checkLineNumbers(doc *Document, c *Comment, rec *commentCheck) {
	for _, name := range []string{"start_line", "end_line"} {
		n := c.Node.Member(name)
		if n == nil || n.Kind != KindNumber || rec.anchorInvalid && schemaErrorOn(rec.diags, n) {
			continue
		}
		if _, ok := n.Int(doc.Text); ok {
			continue
		}
		text := doc.Text.String(n.Start, n.End)
		f, err := strconv.ParseFloat(text, 64)
		if strings.HasPrefix(text, "-") || err == nil && (f != math.Trunc(f) || f <= maxLine) {
			continue // negative, fractional or small: the schema's own words cover it
		}
		rec.diags = append(rec.diags, Diagnostic{Range: NodeRange(n), Severity: SeverityError, Code: CodeSchema,
			Message: "`" + name + "` must be a line number of at most " + strconv.Itoa(maxLine) + ", got " + clipNumber(text)})
		rec.anchorInvalid = true
	}
}

// schemaErrorOn reports whether a schema diagnostic among the comment's
// already sits on n.
func schemaErrorOn(ds []Diagnostic, n *Node) bool {
	for _, d := range ds {
		if d.Code == CodeSchema && d.Range == NodeRange(n) {
			return true
		}
	}
	return false
}

// clipNumber keeps a hostile number's text short in a message.
func clipNumber(text string) string {
	if len(text) > 40 {
		return text[:37] + "…"
	}
	return text
}
