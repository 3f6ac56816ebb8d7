package agent

import (
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Pages: lreview_comments, lreview_check and lreview_locate list at most
// limit items a call, and stop earlier when their text would pass
// maxPageText, so that a reply fits an agent's context whatever the
// review's size. The structured content holds the same page. A cursor
// names where the next page starts, in that version of the file listed
// with those filters: a cursor from another version is refused rather
// than silently skipping or repeating items.

const (
	// defaultLimit is the page size when the call gives none.
	defaultLimit = 50
	// maxLimit bounds what a call may ask for.
	maxLimit = 500
	// maxPageText bounds a page's text rendering, in bytes; headRoom of
	// it is kept for the line that heads the page.
	maxPageText = 16 << 10
	headRoom    = 1 << 10
)

// Page is the part of a paged tool's input that says which page.
type Page struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many items (1 to 500, default 50); a page also ends before its text passes 16 KB"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to read on; omit for the first page"`
}

// pager walks one page of a list of n items.
type pager struct {
	start, limit int
	cursor       string // as given, for messages
	key          uint32 // the version and filters the cursor belongs to
}

// newPager reads the page asked for in a list of the version of a file
// whose checksum is sum, kept by filters.
func newPager(pg Page, sum uint32, filters ...string) (pager, error) {
	p := pager{limit: pg.Limit, key: crc32.Update(sum, crc32.IEEETable, []byte(strings.Join(filters, "\x00")))}
	switch {
	case p.limit == 0:
		p.limit = defaultLimit
	case p.limit < 1 || p.limit > maxLimit:
		return p, argError("limit", "expected 1 to %d items a page, got %d", maxLimit, pg.Limit)
	}
	if pg.Cursor == "" {
		return p, nil
	}
	at, key, ok := strings.Cut(pg.Cursor, "-")
	n, err := strconv.Atoi(at)
	if !ok || err != nil || n < 0 || key != fmt.Sprintf("%08x", p.key) {
		return p, argError("cursor", "%q is not a cursor of this file as it is now with these filters (it changed since that page, or the filters differ): call again without cursor", pg.Cursor)
	}
	p.start, p.cursor = n, pg.Cursor
	return p, nil
}

// next is the cursor of the page after one of n items, or "" at the end
// of a list of total.
func (p pager) next(n, total int) string {
	if p.start+n >= total {
		return ""
	}
	return fmt.Sprintf("%d-%08x", p.start+n, p.key)
}

// fill adds items start, start+1, … of a list of total to the page while
// it holds fewer than limit and its text stays under maxPageText (one
// item at least); render returns item i's text. It returns how many. A
// cursor is the caller's words, checked as such: one whose key is right
// but whose start is not an item of the list (next never makes one) is
// refused, not read past the list.
func (p pager) fill(total int, b *strings.Builder, render func(i int) string) (int, error) {
	if p.cursor != "" && p.start >= total {
		return 0, argError("cursor", "%q starts at item %d, past the end of the list (%d items): call again without cursor", p.cursor, p.start+1, total)
	}
	n := 0
	for i := p.start; i < total && n < p.limit; i++ {
		text := render(i)
		if n > 0 && b.Len()+len(text) > maxPageText-headRoom {
			break
		}
		text = cut(text, maxPageText-headRoom)
		b.WriteString(text)
		n++
	}
	return n, nil
}

// cut shortens an item's text that alone passes max bytes, at a
// character boundary, saying so: the structured content holds it whole.
func cut(text string, max int) string {
	if len(text) <= max {
		return text
	}
	const note = "\n  … (cut here: %d bytes more; the structured content holds it whole)"
	at := max - len(note) - 8
	for at > 0 && !utf8.RuneStart(text[at]) {
		at--
	}
	return text[:at] + fmt.Sprintf(note, len(text)-at)
}

// pageNote says which items a page shows and how to read on.
func pageNote(what string, p pager, n, total int, next string) string {
	if p.start == 0 && n == total {
		return ""
	}
	note := fmt.Sprintf("; %s %d–%d shown", what, p.start+1, p.start+n)
	if n == 0 {
		note = fmt.Sprintf("; none shown from %d", p.start+1)
	}
	if next != "" {
		note += fmt.Sprintf(`; more with cursor %q`, next)
	}
	return note
}
