package features

import (
	"github.com/leanreview/lreview-lsp/internal/anchor"
	"strconv"
	"strings"
)

// GutterLabel is the text a diff viewer's gutter shows beside a body line:
// its old and new numbers, blank on the side it is not part of, padded to
// the widest number of its file so that the column lines up.
func GutterLabel(f *anchor.FileDiff, l anchor.DiffLine) string {
	w := numberWidth(f)
	num := func(n int) string {
		if n == 0 {
			return strings.Repeat(" ", w)
		}
		s := strconv.Itoa(n)
		return strings.Repeat(" ", max(0, w-len(s))) + s
	}
	return num(l.Old) + " " + num(l.New)
}

func numberWidth(f *anchor.FileDiff) int {
	widest := 1
	for _, h := range f.Hunks {
		if k := len(h.Lines); k > 0 {
			last := h.Lines[k-1]
			widest = max(widest, h.OldStart+h.OldCount, h.NewStart+h.NewCount, last.Old, last.New)
		}
	}
	return len(strconv.Itoa(widest))
}
