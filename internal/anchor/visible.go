package anchor

import "strings"

// Visible returns s with its control characters other than tab shown as
// their Unicode control pictures ("\r" as ␍, ESC as ␛, DEL as ␡). A diff
// line may hold a lone carriage return or a terminal escape (golden files
// of terminal output): in a message, a title or a hover they are text to
// read, while written raw they would move a terminal's cursor, end a
// Markdown line or colour the rest of check's output.
func Visible(s string) string {
	i := strings.IndexFunc(s, isControl)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r == 0x7f:
			b.WriteRune('␡')
		case isControl(r):
			b.WriteRune(0x2400 + r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }
