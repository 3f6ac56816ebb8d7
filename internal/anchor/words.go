package anchor

import (
	"sort"
	"strconv"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// The helpers the engine's fixes and messages share with the editor
// features (internal/features).

// CommentAt returns the comment whose object holds offset (its braces
// included), or nil.
func CommentAt(doc *exchange.Document, offset int) *exchange.Comment {
	cs := doc.Review.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Node.End >= offset })
	if i < len(cs) && cs[i].Node.Start <= offset {
		return cs[i]
	}
	return nil
}

// Plural counts n things in words: "1 comment", "3 comments". Every count
// a person reads goes through it, so that none says "1 comments".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// UpperFirst capitalises a sentence that starts with a lower-case word.
func UpperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
