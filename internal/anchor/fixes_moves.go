package anchor

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The fixes that move a comment or change its path: to a drift candidate,
// to the path it names once normalised, to the name of its side of a
// renamed file.

// moveFixes returns one fix per candidate, the preferred one first (it is
// first in the list when it exists). Titles read "Re-anchor c1 to RIGHT
// 74: text", the words of diagnostics.md's fix list, prefix being
// "Re-anchor c1 to". Done reads "moved c1 from RIGHT 72 to RIGHT 74", what
// `lreview-lsp fix` reports. fixAll says whether the unique best
// candidate may be marked Safe: never a tie (no candidate is Preferred
// then), never a move that changes the state.
func (rv *resolver) moveFixes(r *Resolution, prefix string, fixAll bool) []exchange.Fix {
	c := r.Comment
	var fs []exchange.Fix
	for _, k := range r.Candidates {
		title := prefix + " " + rv.placeName(c, k)
		to := LineSpan(k.Side, k.Start, k.End)
		if k.Path != c.Path {
			to = k.Path + " " + to
		}
		done := fmt.Sprintf("moved %s from %s %s to %s", c.Name(), c.SideNorm(), lineRange(c.StartLine, c.EndLine), to)
		if k.respaced != "" {
			title += " (snippet respaced)"
			done += ", its snippet respaced as the patch spells it"
		}
		edits := rv.moveEdits(r, k)
		if len(edits) == 0 {
			continue
		}
		fs = append(fs, exchange.Fix{
			Title:     title,
			Done:      done,
			Edits:     edits,
			Preferred: k.Preferred,
			// fixAll takes a unique best candidate, but not one in
			// another file: that rests on a guessed path.
			Safe: fixAll && k.Preferred && k.Path == c.Path,
		})
	}
	return fs
}

// moveEdits sets the anchor members that differ from candidate k, and the
// state to active for an orphaned or stale comment.
func (rv *resolver) moveEdits(r *Resolution, k Candidate) []exchange.Edit {
	c := r.Comment
	var edits []exchange.Edit
	if k.Path != c.Path {
		edits = append(edits, exchange.ReplaceValue(c.Member("path"), jsontext.Quote(k.Path)))
	}
	if k.Side != r.Side {
		edits = append(edits, exchange.ReplaceValue(c.Member("side"), jsontext.Quote(k.Side.String())))
	}
	start := exchange.ReplaceValue(c.Member("start_line"), strconv.Itoa(k.Start))
	changedStart := k.Start != c.StartLine
	if n := c.Member("end_line"); n != nil {
		if k.End != c.EndLine {
			edits = append(edits, exchange.ReplaceValue(n, strconv.Itoa(k.End)))
		}
	} else if k.End != k.Start {
		// One edit rather than a replacement and an insertion that touch:
		// some clients reject adjacent text edits.
		ins := exchange.InsertMember(rv.src, c.Node, "end_line", strconv.Itoa(k.End), "start_line")
		if ins.Start == start.End {
			start.NewText += ins.NewText
			changedStart = true
		} else {
			edits = append(edits, ins)
		}
	}
	if changedStart {
		edits = append(edits, start)
	}
	if k.respaced != "" && k.respaced != c.Snippet {
		edits = append(edits, exchange.ReplaceValue(c.Member("snippet"), jsontext.Quote(k.respaced)))
	}
	if s := c.StateNorm(); s == exchange.StateOrphaned || s == exchange.StateStale {
		edits = append(edits, exchange.ReplaceValue(c.Member("state"), jsontext.Quote(exchange.StateActive)))
	}
	return edits
}

// pathFixes adds to fixes one "change path" fix per near path. A path that
// names one patch path once normalised (a/ or b/ prefix, leading ./,
// backslashes) needs no choice: its fix comes first, is preferred over any
// move (the moves rest on it) and is fixAll's for an active comment.
func (rv *resolver) pathFixes(r *Resolution, fixes []exchange.Fix) []exchange.Fix {
	c := r.Comment
	certain := r.Normalised && len(r.NearPaths) == 1
	var paths []exchange.Fix
	for _, p := range r.NearPaths {
		paths = append(paths, pathFix(c, p, certain || len(r.NearPaths) == 1 && !hasPreferred(r.Candidates), certain && isActive(c)))
	}
	if !certain {
		return append(fixes, paths...)
	}
	for i := range fixes {
		fixes[i].Preferred = false
	}
	return append(paths, fixes...)
}

// pathFix changes c's path to p.
func pathFix(c *exchange.Comment, p string, preferred, safe bool) exchange.Fix {
	return exchange.Fix{
		Title:     fmt.Sprintf("Change %s's path to %q", c.Name(), p),
		Done:      fmt.Sprintf("changed %s's path from %q to %q", c.Name(), c.Path, p),
		Edits:     []exchange.Edit{exchange.ReplaceValue(c.Member("path"), jsontext.Quote(p))},
		Preferred: preferred,
		Safe:      safe,
	}
}

// renamedPath is the hint review-exchange.md promises when a path names a
// renamed file by its other name ("Decision — paths"): the anchor
// resolves, but leanreview shows the comment under the name of its side.
func (rv *resolver) renamedPath(r *Resolution) exchange.Diagnostic {
	c := r.Comment
	name := r.File.Name(r.Side)
	f := pathFix(c, name, true, false)
	return exchange.Diagnostic{
		Range:    exchange.NodeRange(c.Member("path")),
		Severity: exchange.SeverityHint,
		Code:     exchange.CodeRenamedPath,
		Message:  fmt.Sprintf("%q is the %s name of renamed file %q: on %s it is called %q", c.Path, ImageWord(r.Side.other()), name, r.Side, name),
		Related:  []exchange.Related{*r.Hint},
		Fixes:    []exchange.Fix{f},
	}
}

// placeName describes a candidate in titles and messages: "RIGHT 74:
// text", with the path first when it is not the comment's.
func (rv *resolver) placeName(c *exchange.Comment, k Candidate) string {
	s := LineSpan(k.Side, k.Start, k.End)
	if k.Path != c.Path {
		s = k.Path + " " + s
	}
	if t, ok := rv.contentOf(k.Path, k.Side, k.Start); ok {
		s += ": " + Clip(strings.TrimSpace(t))
	}
	return s
}

func (rv *resolver) candidateRelated(r *Resolution) []exchange.Related {
	var out []exchange.Related
	for _, k := range r.Candidates {
		f := rv.ix.FileEither(k.Path, k.Side)
		if f == nil {
			continue
		}
		h, i, ok := f.Find(k.Side, k.Start)
		_, j, ok2 := f.Find(k.Side, k.End)
		if !ok {
			continue
		}
		if !ok2 || j < i {
			j = i
		}
		msg := "snippet found at " + LineSpan(k.Side, k.Start, k.End)
		if k.Path != r.Comment.Path {
			msg = "snippet found in " + k.Path + " at " + LineSpan(k.Side, k.Start, k.End)
		}
		out = append(out, exchange.Related{Range: rv.patchRange(f.Hunks[h].PatchLine(i), f.Hunks[h].PatchLine(j)), Message: msg})
	}
	return out
}

// headerPath is the hint on a path that names a plain diff's file as its
// "---"/"+++" line writes it (a/x, x.orig): the anchor resolves, and the
// fix, which needs no choice, names the file by its path.
func (rv *resolver) headerPath(r *Resolution) exchange.Diagnostic {
	c := r.Comment
	name := cmp.Or(r.File.Name(r.Side), r.File.DisplayName()) // the path of a side it lacks is the other's
	f := pathFix(c, name, true, isActive(c))
	return exchange.Diagnostic{
		Range:    exchange.NodeRange(c.Member("path")),
		Severity: exchange.SeverityHint,
		Code:     exchange.CodeHeaderPath,
		Message:  fmt.Sprintf("%q is how the diff's header writes %q: name the file by its path, %q", c.Path, name, name),
		Related:  []exchange.Related{*r.Hint},
		Fixes:    []exchange.Fix{f},
	}
}
