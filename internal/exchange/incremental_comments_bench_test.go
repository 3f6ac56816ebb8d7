package exchange

import (
	"bytes"
	"testing"
)

// BenchmarkParseEditedComment is ParseEdited alone for a keystroke in the
// body of the first or the last comment of the 8 MB generated review,
// told the change as the server is, each version from the one before:
// an 'x' typed, then deleted, so that the two texts are made once and
// the loop allocates only what parsing does.
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
			typed := append(append(append([]byte(nil), src[:tc.at]...), 'x'), src[tc.at:]...)
			texts := [2][]byte{typed, src}
			prev := Parse(src)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				next := texts[i%2]
				ch := Change{Prefix: tc.at, Suffix: len(src) - tc.at}
				prev = ParseEdited(NewText(next), prev, ch)
			}
		})
	}
}
