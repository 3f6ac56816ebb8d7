package features

import (
	"sort"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// GutterLabel is the text a diff viewer's gutter shows beside a body line:
// its old and new numbers, blank on the side it is not part of, padded to
// the widest number of its file so that the column lines up.
func GutterLabel(f *anchor.FileDiff, l anchor.DiffLine) string {
	return gutterLabel(numberWidth(f), l)
}

func gutterLabel(w int, l anchor.DiffLine) string {
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
// writes in start_line. The lines are in the patch's order, so the span's
// are found by a binary search in each hunk it reaches: an editor asks
// for the visible lines at every scroll, a few out of a large patch.
func Gutter(an *anchor.Analysis, span exchange.Range) []GutterHint {
	var out []GutterHint
	at := func(patchLine int) int { return LineRange(an.Index.Patch, patchLine).Start }
	for _, f := range an.Index.Files {
		w := -1 // the file's number width, once it has a line in span
		for _, h := range f.Hunks {
			lines := h.Lines
			if len(lines) == 0 || at(h.PatchLine(len(lines)-1)) < span.Start {
				continue
			}
			for i := sort.Search(len(lines), func(i int) bool { return at(h.PatchLine(i)) >= span.Start }); i < len(lines); i++ {
				pos := at(h.PatchLine(i))
				if pos > span.End {
					return out
				}
				if w < 0 {
					w = numberWidth(f)
				}
				out = append(out, GutterHint{At: pos, Label: gutterLabel(w, lines[i]), Tooltip: numbersWords(lines[i])})
			}
		}
	}
	return out
}
