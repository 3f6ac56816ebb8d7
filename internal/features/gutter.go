package features

import (
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
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
	return num(int(l.Old)) + " " + num(int(l.New))
}

func numberWidth(f *anchor.FileDiff) int {
	widest := 1
	for _, h := range f.Hunks {
		if k := len(h.Lines); k > 0 {
			last := h.Lines[k-1]
			widest = max(widest, h.OldStart+h.OldCount, h.NewStart+h.NewCount, int(last.Old), int(last.New))
		}
	}
	return len(strconv.Itoa(widest))
}

// GutterHint is a gutter label to show before a body line of the patch.
type GutterHint struct {
	At             int // where it stands: before the element's opening quote, or the line's text in the single-string form
	Label, Tooltip string
}

// Gutter puts a diff gutter before every body line of the patch whose
// hint stands in span: the old and new line numbers, the numbers one
// writes in start_line.
func (r Analysed) Gutter(span exchange.Range) []GutterHint {
	var out []GutterHint
	for _, f := range r.Index.Files {
		for _, h := range f.Hunks {
			for _, dl := range h.Lines {
				at := LineRange(r.Index.Patch, int(dl.Patch)).Start
				if at < span.Start || at > span.End {
					continue
				}
				out = append(out, GutterHint{At: at, Label: GutterLabel(f, dl), Tooltip: numbersWords(dl)})
			}
		}
	}
	return out
}
