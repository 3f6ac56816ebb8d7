package exchange

import (
	"os"
	"testing"
)

// FuzzParseEdited applies two edits to a document, each parsed from the
// version before as the server parses (a text of pieces, told the
// change), and requires
// what a full parse gives each time: the second parse takes comments
// and the patch from a version that took them itself. The earlier
// versions must read as they did.
func FuzzParseEdited(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint32(len(s)/2), uint8(1), "x", uint32(len(s)), uint8(0), ",")
	}
	if src, err := os.ReadFile("../../examples/auth.review.json"); err == nil {
		body := len(src) - 200 // in the last comment, about
		f.Add(src, uint32(body), uint8(0), "x", uint32(body-300), uint8(1), "")
		f.Add(src, uint32(body), uint8(2), "},{", uint32(40), uint8(0), `"`)
	}
	f.Fuzz(func(t *testing.T, data []byte, at1 uint32, del1 uint8, ins1 string, at2 uint32, del2 uint8, ins2 string) {
		if len(data) > 1<<16 || len(ins1) > 64 || len(ins2) > 64 {
			return
		}
		prev := Parse(data)
		before := shape(prev.Root)
		for _, e := range []struct {
			at  uint32
			del uint8
			ins string
		}{{at1, del1, ins1}, {at2, del2, ins2}} {
			n := prev.Text.Len()
			start := int(e.at % uint32(n+1))
			end := min(n, start+int(e.del%8))
			// As the server edits: a text of pieces, shared with prev's.
			next := prev.Text.Replace(start, end, []byte(e.ins))
			got := ParseEdited(next, prev, Change{Prefix: start, Suffix: n - end})
			requireSameParse(t, got, "edit")
			requireSameMapper(t, got, "edit")
			if shape(prev.Root) != before {
				t.Fatal("the earlier version's tree changed")
			}
			prev, before = got, shape(got.Root)
		}
	})
}
