package forge

import (
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The hidden markers an export writes into bodies, so that an import
// recognises its own comments. HTML comments are not shown by either
// forge's Markdown.
const (
	markerOpen  = "<!-- lreview:"
	markerClose = " -->"
	// repliesMarker introduces the quoted replies under a comment's body.
	repliesMarker = "<!-- lreview:replies -->"
	// reviewMarker ends a review body made of the summary alone, and
	// reviewTitleMarker one whose first paragraph is the title in bold.
	reviewMarker      = "<!-- lreview -->"
	reviewTitleMarker = "<!-- lreview title -->"
)

// paragraphs joins the non-empty parts with a blank line.
func paragraphs(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p)
	}
	return b.String()
}

// commentBody is what a forge shows for c: its body, its replies quoted
// (unless dropped) and, with marker, the hidden marker with its id.
func commentBody(c *exchange.Comment, replies Replies, marker bool) string {
	marker = marker && c.ID != "" // an import could not name it anyway
	quoted := ""
	if replies == QuoteReplies && len(c.Replies) > 0 {
		quoted = quoteReplies(c.Replies)
		if marker {
			quoted = repliesMarker + "\n" + quoted
		}
	}
	m := ""
	if marker {
		m = markerOpen + escapeID(c.ID) + markerClose
	}
	return joinBody(c.Body, quoted, m)
}

// joinBody puts the body first as it is, even empty, so that splitBody
// finds it again: a blank line separates it from what follows.
func joinBody(body string, rest ...string) string {
	tail := paragraphs(rest...)
	if body == "" || tail == "" {
		return body + tail
	}
	return body + "\n\n" + tail
}

// quoteReplies writes replies as Markdown block quotes, one per reply,
// separated by a blank line: "> **author** (at): body", every line of
// the body quoted.
func quoteReplies(rs []*exchange.Reply) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(">")
		if r.Author != "" {
			b.WriteString(" **" + r.Author + "**")
			if r.At != "" {
				b.WriteString(" (" + r.At + ")")
			}
			b.WriteString(":")
		}
		for j, line := range strings.Split(r.Body, "\n") {
			if j > 0 {
				b.WriteString("\n>")
			}
			if line != "" {
				b.WriteString(" " + line)
			}
		}
	}
	return b.String()
}

// reply is a reply read back from a quote.
type reply struct{ author, body, at string }

// splitBody reverses commentBody: the body, the quoted replies and the
// marker's id. A body without a marker is all body (ok false); quoted
// replies are read only under the replies marker, and left in the body
// when they do not read back.
func splitBody(text string) (body string, replies []reply, id string, ok bool) {
	rest, id, ok := cutMarker(lfText(text))
	if !ok {
		return text, nil, "", false
	}
	rest = strings.TrimSuffix(rest, "\n\n")
	head, quoted, found := "", "", false
	if q, cut := strings.CutPrefix(rest, repliesMarker+"\n"); cut {
		quoted, found = q, true
	} else if i := strings.LastIndex(rest, "\n\n"+repliesMarker+"\n"); i >= 0 {
		head, quoted, found = rest[:i], rest[i+len("\n\n"+repliesMarker+"\n"):], true
	}
	if found {
		if rs, good := unquoteReplies(quoted); good {
			return head, rs, id, true
		}
	}
	return rest, nil, id, true
}

// lfText is text with CRLF line ends made LF when every line has one: an
// edit in the forge's web page rewrote the LF an export writes before
// the marker, and every other.
func lfText(text string) string {
	if n := strings.Count(text, "\r\n"); n > 0 && n == strings.Count(text, "\n") {
		return strings.ReplaceAll(text, "\r\n", "\n")
	}
	return text
}

// unmarked is text without the id marker that ends it: a body whose
// quoted replies are kept as text.
func unmarked(text string) string {
	rest, _, ok := cutMarker(lfText(text))
	if !ok {
		return text
	}
	return strings.TrimSuffix(rest, "\n\n")
}

// replyBody is what a forge that threads replies is sent for one reply
// posted as a real reply: the reply quoted as quoteReplies writes it, so
// that the forge shows whose words the poster posts, after the replies
// marker unless marker is false.
func replyBody(r *exchange.Reply, marker bool) string {
	q := quoteReplies([]*exchange.Reply{r})
	if !marker {
		return q
	}
	return repliesMarker + "\n" + q
}

// splitReplyBody reverses replyBody: the one reply quoted, ok false when
// text is not a reply an export posted.
func splitReplyBody(text string) (reply, bool) {
	q, ok := strings.CutPrefix(lfText(text), repliesMarker+"\n")
	if !ok {
		return reply{}, false
	}
	rs, good := unquoteReplies(strings.TrimRight(q, "\n"))
	if !good || len(rs) != 1 {
		return reply{}, false
	}
	return rs[0], true
}

// cutMarker removes the id marker that ends text (trailing white space
// aside, which a forge may add or drop).
func cutMarker(text string) (rest, id string, ok bool) {
	t := strings.TrimRight(text, " \t\r\n")
	if !strings.HasSuffix(t, markerClose) {
		return text, "", false
	}
	i := strings.LastIndex(t, markerOpen)
	if i < 0 || (i > 0 && t[i-1] != '\n') {
		return text, "", false
	}
	raw := t[i+len(markerOpen) : len(t)-len(markerClose)]
	if raw == "" || raw == "replies" || strings.ContainsAny(raw, " \n") {
		return text, "", false
	}
	id, good := unescapeID(raw)
	if !good {
		return text, "", false
	}
	return t[:i], id, true
}

// unquoteReplies reads quoteReplies' text back.
func unquoteReplies(text string) ([]reply, bool) {
	var out []reply
	for _, block := range strings.Split(text, "\n\n") {
		var body []string
		for _, line := range strings.Split(block, "\n") {
			switch {
			case line == ">":
				body = append(body, "")
			case strings.HasPrefix(line, "> "):
				body = append(body, line[2:])
			default:
				return nil, false
			}
		}
		r := reply{}
		first := body[0]
		if a, after, found := strings.Cut(strings.TrimPrefix(first, "**"), "**"); strings.HasPrefix(first, "**") && found {
			r.author = a
			if at, more, has := strings.Cut(strings.TrimPrefix(after, " ("), "):"); strings.HasPrefix(after, " (") && has {
				r.at, after = at, ":"+more
			}
			if !strings.HasPrefix(after, ":") {
				return nil, false
			}
			first = strings.TrimPrefix(after[1:], " ")
		}
		body[0] = first
		r.body = strings.Join(body, "\n")
		out = append(out, r)
	}
	return out, true
}

// body is the plan's review body on every forge: the title, the summary
// and the verdict section (Plan.Verdict, when set) after it, then the
// cohorts section. The cohorts go with the review's own words: a review
// with neither title, summary nor verdict has no body of its own, which
// each forge then fills or refuses as it requires.
func (p *Plan) body(marker bool) string {
	if p.Title == "" && p.Summary == "" && p.Verdict == "" {
		return reviewBody("", "", marker)
	}
	return reviewBody(p.Title, paragraphs(p.Summary, p.Verdict, p.Cohorts), marker)
}

// reviewBody is the review's own body: the title in bold, the summary,
// and with marker the hidden marker that lets an import tell them apart.
func reviewBody(title, summary string, marker bool) string {
	bold := ""
	if title != "" {
		bold = "**" + title + "**"
	}
	body := paragraphs(bold, summary)
	if !marker || body == "" {
		return body
	}
	if title != "" {
		return paragraphs(body, reviewTitleMarker)
	}
	return paragraphs(body, reviewMarker)
}

// splitReviewBody reverses reviewBody: a body an export did not write is
// all summary.
func splitReviewBody(text string) (title, summary string) {
	t := strings.TrimRight(text, " \t\r\n")
	if rest, ok := strings.CutSuffix(t, reviewMarker); ok {
		if summary := dropVerdict(strings.TrimSuffix(rest, "\n\n")); !isFilledSummary(summary) {
			return "", summary
		}
		return "", ""
	}
	rest, ok := strings.CutSuffix(t, reviewTitleMarker)
	if !ok {
		return "", text
	}
	rest = strings.TrimSuffix(rest, "\n\n")
	first, summary, _ := strings.Cut(rest, "\n\n")
	if len(first) < 4 || !strings.HasPrefix(first, "**") || !strings.HasSuffix(first, "**") {
		return "", text
	}
	return first[2 : len(first)-2], dropVerdict(summary)
}

// isReviewBody reports whether text ends with the marker reviewBody
// writes: the thread an export posted for the title and summary.
func isReviewBody(text string) bool {
	t := strings.TrimRight(text, " \t\r\n")
	return strings.HasSuffix(t, reviewMarker) || strings.HasSuffix(t, reviewTitleMarker)
}

// escapeID writes a comment id for a marker: an HTML comment may not hold
// "--" nor end with "-", and the marker ends at a space. What does not fit
// is percent-encoded.
func escapeID(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		safe := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._:~+=/@", c) >= 0
		if c == '-' {
			safe = i+1 < len(id) && id[i+1] != '-' && (i == 0 || id[i-1] != '-')
		}
		if safe {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
	}
	return b.String()
}

// unescapeID reverses escapeID.
func unescapeID(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), true
}
