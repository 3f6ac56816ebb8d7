package features

import (
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review meets the working tree: where a patch line or a comment's
// lines are in the reviewed repository's files now, links to those files,
// and what changed since the review. The tree is read as it is on disk
// when asked (worktree.Tree caches by size and modification time).

// SourceLine returns where the patch line at offset is in the working
// tree: a body line itself, a removed line where it was removed, a hunk
// header its hunk's first line, a file header its first hunk's; a line
// whose text changed since, the place it had (nearestSource). ok is false
// off the patch, or where the tree does not hold the file.
func SourceLine(an *anchor.Analysis, t *worktree.Tree, offset int) (worktree.Location, bool) {
	p := PlaceAt(an.Doc, offset)
	if p.Kind != PlacePatchLine {
		return worktree.Location{}, false
	}
	fi, h, i, _ := an.Index.LineAt(p.PatchLine)
	if fi < 0 {
		return worktree.Location{}, false
	}
	f := an.Index.Files[fi]
	var loc worktree.Location
	switch {
	case h < 0:
		loc = fileStart(an, t, f)
	case i < 0:
		loc = t.LocateHunk(&an.Doc.Review.Patch, f, h)
	default:
		loc = t.LocateDiffLine(&an.Doc.Review.Patch, f, h, i)
	}
	if h >= 0 && changed(loc) {
		return nearestSource(an, t, f, h, i) // its text changed: where it was
	}
	return loc, loc.Found()
}

// fileStart is where the first hunk of f starts in the tree.
func fileStart(an *anchor.Analysis, t *worktree.Tree, f *anchor.FileDiff) worktree.Location {
	for h := range f.Hunks {
		if loc := t.LocateHunk(&an.Doc.Review.Patch, f, h); loc.Found() || loc.File == nil {
			return loc
		}
	}
	return worktree.Location{Path: f.NewName, Err: worktree.ErrNoLine}
}

// SourceOfComment returns where the comment the offset is in (any of its
// members, its replies included) has its lines in the working tree: a
// RIGHT comment all its lines, a LEFT one its first.
func SourceOfComment(an *anchor.Analysis, t *worktree.Tree, offset int) (worktree.Location, bool) {
	p := placeNear(an.Doc, offset)
	if p.Comment < 0 {
		return worktree.Location{}, false
	}
	loc := t.LocateComment(&an.Doc.Review.Patch, an.Anchors.Resolutions[p.Comment])
	return loc, loc.Found()
}

// SourceLink is a link from the review to a working-tree file.
type SourceLink struct {
	Range exchange.Range
	// File is the absolute path of the file linked; Line the line, from
	// 1, or 0 for the file alone.
	File string
	Line int
}

// SourceLinks links each comment's path value and each file diff's
// "diff --git" and "+++" lines to the file in the working tree, at the
// line where the comment's (or the first hunk's) lines are. A path the
// tree does not hold, or that leads out of it, is not linked.
func SourceLinks(an *anchor.Analysis, t *worktree.Tree) []SourceLink {
	var out []SourceLink
	patch := &an.Doc.Review.Patch
	for _, f := range an.Index.Files {
		if f.NewName == "" || f.First >= patch.LineCount() {
			continue
		}
		abs, err := t.Resolve(f.NewName)
		if err != nil {
			continue
		}
		loc := fileStart(an, t, f)
		for i := f.First; i <= f.Last && i < patch.LineCount(); i++ {
			text := patch.LineText(i)
			if (i == f.First && strings.HasPrefix(text, "diff --git")) || strings.HasPrefix(text, "+++ ") {
				out = append(out, SourceLink{Range: LineRange(patch, i), File: abs, Line: loc.Start})
			}
			if len(f.Hunks) > 0 && i >= f.Hunks[0].Header {
				break
			}
		}
	}
	for ci, c := range an.Doc.Review.Comments {
		n := c.Member("path")
		if n == nil || n.Kind != exchange.KindString {
			continue
		}
		res := an.Anchors.Resolutions[ci]
		path := c.Path
		if res.File != nil && res.File.NewName != "" {
			path = res.File.NewName
		}
		abs, err := t.Resolve(path)
		if err != nil {
			continue
		}
		out = append(out, SourceLink{Range: exchange.NodeRange(n), File: abs, Line: t.LocateComment(&an.Doc.Review.Patch, res).Start})
	}
	return out
}

// WorktreeDiagnostics are what the working tree says about the review:
// suggestion-applied on each active RIGHT comment whose suggestion the
// tree holds where its lines were (AppliedSuggestion), source-changed on
// each other one whose lines the tree no longer holds, or, when the tree is plainly not the reviewed revision
// (fewer than half of the files with RIGHT lines hold them), one
// worktree-differs on the patch instead.
func WorktreeDiagnostics(an *anchor.Analysis, t *worktree.Tree) []exchange.Diagnostic {
	patch := an.Doc.Review.Patch.Node
	if patch == nil {
		return nil
	}
	holding, total := t.Holding(an.Index)
	if holding*2 < total {
		return []exchange.Diagnostic{{
			Range:    exchange.KeyRange(patch),
			Severity: exchange.SeverityInformation,
			Code:     CodeWorktreeDiffers,
			Message: fmt.Sprintf("the working tree %s is not the reviewed revision: %d of the %d files with RIGHT lines in the patch hold them; comments are not checked against it",
				t.Root(), holding, total),
		}}
	}
	var out []exchange.Diagnostic
	for ci, c := range an.Doc.Review.Comments {
		res := an.Anchors.Resolutions[ci]
		if c.StateNorm() != exchange.StateActive || res == nil || !res.Resolved || res.Side != anchor.Right {
			continue
		}
		if ap, ok := AppliedSuggestion(an, t, ci); ok {
			out = append(out, appliedDiagnostic(c, ap))
			continue
		}
		loc := t.LocateComment(&an.Doc.Review.Patch, res)
		if loc.Found() || !errors.Is(loc.Err, worktree.ErrChanged) {
			continue
		}
		d := exchange.Diagnostic{
			Range:    commentAnchorRange(c),
			Severity: exchange.SeverityInformation,
			Code:     CodeSourceChanged,
			Message:  fmt.Sprintf("%s no longer holds %s of the review: the code changed since", loc.Path, reviewLines(res)),
		}
		if loc.PartialStart > 0 && loc.File != nil {
			d.Related = []exchange.Related{{
				File: loc.File.Abs, FileStart: loc.PartialStart, FileEnd: loc.PartialEnd,
				Message: fmt.Sprintf("a part of them is at %s", lineSpan(loc.Path, loc.PartialStart, loc.PartialEnd)),
			}}
		}
		out = append(out, d)
	}
	return out
}

// commentAnchorRange is where a diagnostic about a comment's lines sits:
// its start_line value, else the comment's opening brace.
func commentAnchorRange(c *exchange.Comment) exchange.Range {
	if n := c.Member("start_line"); n != nil {
		return exchange.NodeRange(n)
	}
	return exchange.Range{Start: c.Node.Start, End: c.Node.Start + 1}
}

// reviewLines names a resolved comment's lines in the review: "RIGHT 72–73".
func reviewLines(res *anchor.Resolution) string {
	ls := res.Lines()
	if len(ls) == 0 {
		return anchor.LineSpan(res.Side, res.Comment.StartLine, res.Comment.EndLine)
	}
	return anchor.LineSpan(res.Side, ls[0].Number(res.Side), ls[len(ls)-1].Number(res.Side))
}

// lineSpan is "path:72" or "path:72–73".
func lineSpan(path string, start, end int) string {
	if end <= start {
		return fmt.Sprintf("%s:%d", path, start)
	}
	return fmt.Sprintf("%s:%d–%d", path, start, end)
}

// SourceHover is the line a comment's hover adds about the working tree:
// where its lines are now, moved by how much, or changed; and why its
// suggestion cannot be applied, when it has one that cannot.
func SourceHover(an *anchor.Analysis, t *worktree.Tree, offset int) string {
	p := PlaceAt(an.Doc, offset)
	if p.Comment < 0 || p.Kind != PlaceValue {
		return ""
	}
	res := an.Anchors.Resolutions[p.Comment]
	loc := t.LocateComment(&an.Doc.Review.Patch, res)
	var b strings.Builder
	b.WriteString("**Working tree:** ")
	if ap, ok := AppliedSuggestion(an, t, p.Comment); ok {
		fmt.Fprintf(&b, "%s holds %s's suggestion: it is applied.", code(ap.Place()), ap.Name)
		return b.String()
	}
	switch {
	case loc.Found() && loc.Moved() == 0:
		fmt.Fprintf(&b, "%s, where the review has them", code(lineSpan(loc.Path, loc.Start, loc.End)))
	case loc.Found():
		fmt.Fprintf(&b, "%s, moved %s", code(lineSpan(loc.Path, loc.Start, loc.End)), movedWords(loc.Moved()))
	case errors.Is(loc.Err, worktree.ErrChanged):
		fmt.Fprintf(&b, "%s no longer holds %s: the code changed since the review", code(loc.Path), reviewLines(res))
	default:
		fmt.Fprintf(&b, "not found: %v", loc.Err)
	}
	if loc.Found() && !loc.Exact {
		b.WriteString(" (white space aside)")
	}
	b.WriteString(".")
	if _, err := SuggestionOf(an, t, p.Comment); err != nil && !errors.Is(err, errNoSuggestion) {
		fmt.Fprintf(&b, "\n\nThe suggestion cannot be applied: %v.", err)
	}
	return b.String()
}

func movedWords(n int) string {
	switch {
	case n == 1:
		return "1 line down"
	case n == -1:
		return "1 line up"
	case n > 0:
		return fmt.Sprintf("%d lines down", n)
	}
	return fmt.Sprintf("%d lines up", -n)
}
