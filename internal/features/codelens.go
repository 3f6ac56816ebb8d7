package features

import (
	"sort"
	"strconv"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Lens is one code lens: a title over a place, and where its command
// takes the person. Every lens goes somewhere, so that clicking one is
// never a no-op.
type Lens struct {
	Range  exchange.Range // the line it sits above
	Title  string
	Target exchange.Range // where its command goes (an empty range: a cursor)
}

// Lenses returns the review's lenses, given the diagnostics the person
// sees (silenced codes left out):
//
//   - on the document's first brace, its comments by state, going to the
//     first comment that needs attention (or the first comment, or the
//     `comments` member when there is none yet), and, when there are
//     problems, their count, going to the first of them;
//   - on each file's first header line in the patch, that file's comments
//     by state ("3 comments: 2 active, 1 stale"), going the same way among
//     the file's comments.
//
// A comment needs attention when a diagnostic other than a hint sits on
// it: an anchor that broke or drifted, a stale or orphaned state to settle.
func Lenses(an *anchor.Analysis, shown []exchange.Diagnostic) []Lens {
	root := an.Doc.Root
	if root == nil || root.Kind != exchange.KindObject {
		return nil
	}
	attention := attention(an, shown)
	all := make([]int, len(an.Doc.Review.Comments))
	for i := range all {
		all[i] = i
	}
	top := exchange.Range{Start: root.Start, End: root.Start + 1}
	out := []Lens{{Range: top, Title: commentsTitle(an, all), Target: lensTarget(an, all, attention)}}
	if title, first, ok := problems(shown); ok {
		out = append(out, Lens{Range: top, Title: title, Target: exchange.Range{Start: first, End: first}})
	}
	byFile := map[*anchor.FileDiff][]int{}
	for i, res := range an.Anchors.Resolutions {
		if res.File != nil {
			byFile[res.File] = append(byFile[res.File], i)
		}
	}
	patch := &an.Doc.Review.Patch
	for _, f := range an.Index.Files {
		if f.First >= patch.LineCount() {
			continue
		}
		idx := byFile[f]
		out = append(out, Lens{Range: LineRange(patch, f.First), Title: commentsTitle(an, idx), Target: lensTarget(an, idx, attention)})
	}
	return out
}

// commentsTitle reads "3 comments: 2 active, 1 stale", or "no comments".
func commentsTitle(an *anchor.Analysis, idx []int) string {
	if len(idx) == 0 {
		return "no comments"
	}
	counts := map[string]int{}
	for _, i := range idx {
		counts[an.Doc.Review.Comments[i].StateNorm()]++
	}
	return anchor.Plural(len(idx), "comment", "comments") + ": " + StateWords(counts)
}

// StateWords lists comment counts by state in the spec's order: "2
// active, 1 stale".
func StateWords(counts map[string]int) string {
	out := ""
	for _, st := range []string{exchange.StateActive, exchange.StateDismissed, exchange.StateOrphaned, exchange.StateStale} {
		if counts[st] > 0 {
			if out != "" {
				out += ", "
			}
			out += strconv.Itoa(counts[st]) + " " + st
		}
	}
	return out
}

// lensTarget is where a lens over comments idx goes: the first problem on
// the first comment that has one, else the first comment, else (no
// comment) the `comments` member, where a new one would go.
func lensTarget(an *anchor.Analysis, idx []int, attention map[int]int) exchange.Range {
	at := -1
	for _, i := range idx {
		if off, ok := attention[i]; ok {
			at = off
			break
		}
	}
	switch {
	case at >= 0:
	case len(idx) > 0:
		at = an.Doc.Review.Comments[idx[0]].Node.Start
	default:
		at = an.Doc.Root.Start
		if m := an.Doc.Root.Member("comments"); m != nil {
			at = m.KeyStart()
		}
	}
	return exchange.Range{Start: at, End: at}
}

// attention maps each comment that needs attention to the start of its
// first problem.
func attention(an *anchor.Analysis, shown []exchange.Diagnostic) map[int]int {
	cs := an.Doc.Review.Comments
	out := map[int]int{}
	for _, d := range shown {
		if d.Severity == exchange.SeverityHint || d.Severity == 0 {
			continue
		}
		i := sort.Search(len(cs), func(i int) bool { return cs[i].Node.End > d.Range.Start })
		if i < len(cs) && cs[i].Node.Start <= d.Range.Start {
			if prev, ok := out[i]; !ok || d.Range.Start < prev {
				out[i] = d.Range.Start
			}
		}
	}
	return out
}

// problems counts the diagnostics a person must look at (hints aside):
// "1 error, 2 warnings", and the start of the first of them.
func problems(ds []exchange.Diagnostic) (string, int, bool) {
	var counts [4]int
	first := -1
	for _, d := range ds {
		if d.Severity < exchange.SeverityError || d.Severity > exchange.SeverityInformation {
			continue
		}
		counts[d.Severity]++
		if first < 0 || d.Range.Start < first {
			first = d.Range.Start
		}
	}
	title := ""
	for _, w := range []struct {
		sev       exchange.Severity
		one, many string
	}{{exchange.SeverityError, "error", "errors"}, {exchange.SeverityWarning, "warning", "warnings"}, {exchange.SeverityInformation, "note", "notes"}} {
		if n := counts[w.sev]; n > 0 {
			if title != "" {
				title += ", "
			}
			title += anchor.Plural(n, w.one, w.many)
		}
	}
	return title, first, first >= 0
}
