package features

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestHoverRangeHoldsTheOffset: wherever a hover is offered, in the
// examples whole and cut off at every line (as while being typed), its
// range is the text it is about, and so holds the hovered offset.
func TestHoverRangeHoldsTheOffset(t *testing.T) {
	names, err := filepath.Glob("../../examples/*.review.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no example reviews: %v", err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		texts := []string{string(b)}
		for i := 0; i < len(b); i += 1 + strings.IndexByte(string(b[i:]), '\n') {
			texts = append(texts, string(b[:i]))
			if strings.IndexByte(string(b[i:]), '\n') < 0 {
				break
			}
		}
		bad := 0
		for _, text := range texts {
			an := analyze(exchange.Parse([]byte(text)))
			for off := 0; off <= len(text); off++ {
				h, ok := HoverAt(an, off)
				if ok && (off < h.Range.Start || off > h.Range.End) {
					if bad++; bad <= 5 {
						t.Errorf("%s cut at %d: hover at %d (%q) has range %d-%d (%q)", filepath.Base(n), len(text), off, text[max(0, off-10):off], h.Range.Start, h.Range.End, text[h.Range.Start:min(h.Range.End, h.Range.Start+30)])
					}
				}
			}
		}
	}
}
