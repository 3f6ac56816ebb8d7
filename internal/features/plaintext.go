package features

import "strings"

// PlainText is the Markdown this package writes as a client without
// Markdown shows it: fences dropped around their verbatim lines, inline
// code without its backticks, no bold markers, no backslash escapes.
func PlainText(md string) string {
	var b strings.Builder
	fence := ""
	for i, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence == "" && strings.HasPrefix(trimmed, "```") {
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
			continue
		}
		if fence != "" && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, "` ") == "" {
			fence = ""
			continue
		}
		if i > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		if fence != "" {
			b.WriteString(line)
		} else {
			plainLine(&b, line)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// plainLine writes one line of Markdown text (outside a fence) as plain text.
func plainLine(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_[]<>#|~&!{}()+-.", s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i += 2
		case s[i] == '`':
			run := len(s[i:]) - len(strings.TrimLeft(s[i:], "`"))
			ticks := s[i : i+run]
			end := closingRun(s, i+run, ticks)
			if end < 0 {
				b.WriteString(ticks)
				i += run
				continue
			}
			inner := s[i+run : end]
			if len(inner) >= 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.Trim(inner, " ") != "" {
				inner = inner[1 : len(inner)-1]
			}
			b.WriteString(inner)
			i = end + run
		case strings.HasPrefix(s[i:], "**"):
			i += 2
		default:
			b.WriteByte(s[i])
			i++
		}
	}
}

// closingRun returns where the backtick run ticks closes a code span that
// opens before from, or -1: the next run of exactly as many backticks.
func closingRun(s string, from int, ticks string) int {
	for i := from; i < len(s); {
		j := strings.Index(s[i:], ticks)
		if j < 0 {
			return -1
		}
		at := i + j
		run := len(s[at:]) - len(strings.TrimLeft(s[at:], "`"))
		if run == len(ticks) {
			return at
		}
		i = at + run
	}
	return -1
}
