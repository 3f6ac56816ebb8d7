package exchange

import (
	"bytes"
	"sync"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

var generatedOnce = sync.OnceValue(func() []byte { return reviewgen.Generate(reviewgen.Default()) })

// BenchmarkParseEditedComment is ParseEdited alone for a keystroke in the
// body of the first or the last comment of the 8 MB generated review,
// told the change as the server is, each version from the one before.
// The first comment's keystroke moves every later comment; the last
// one's moves none.
func BenchmarkParseEditedComment(b *testing.B) {
	src := generatedOnce()
	for _, tc := range []struct {
		name string
		at   int
	}{
		{"first", bytes.Index(src, []byte(`"body": "`)) + len(`"body": "`)},
		{"last", bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			prev := Parse(src)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				text := prev.Src // the new version's text is the caller's cost
				next := make([]byte, 0, len(text)+1)
				next = append(append(append(next, text[:tc.at]...), 'x'), text[tc.at:]...)
				b.StartTimer()
				prev = ParseEdited(next, prev, Change{Prefix: tc.at, Suffix: len(text) - tc.at})
			}
		})
	}
}
