package anchor

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The anchoring diagnostics of diagnostics.md and their fixes. Every fix is
// a list of minimal edits on the source: a member's value is replaced (the
// start_line number, the state string), never the comment object, so that
// a person's layout, unknown members and replies survive.
//
// State rules (review-exchange.md, "States"):
//   - dismissed: no anchoring diagnostic at all (the human decision beats
//     the anchoring failure); the comment is still resolved for hovers.
//   - orphaned: an unresolved anchor is information, not an error (the
//     file already says so); a resolving one is orphaned-resolves. A
//     resolving anchor whose snippet mismatches is snippet-mismatch,
//     downgraded to information for the same reason, and no
//     orphaned-resolves: reactivating it there would be wrong.
//   - stale: stale-anchor on the state, with the "re-anchor by content"
//     fix, in addition to whatever the anchor itself deserves. Both offer
//     the same moves (each diagnostic lists the fixes diagnostics.md gives
//     it).
//
// Moving an orphaned or stale comment by a quick fix also sets its state
// to active: once moved it resolves, and the person asked for it to stand
// there. No fixAll fix ever changes a state (diagnostics.md): only an
// active comment's fixes are Safe, and `fix` says why it left the others.

// maxRelatedLines bounds the related entries listing anchored lines.
const maxRelatedLines = 10

func (rv *resolver) diagnose(r *Resolution) []exchange.Diagnostic {
	if r.Skipped {
		return nil
	}
	c := r.Comment
	state := c.StateNorm()
	if state == exchange.StateDismissed {
		return nil
	}
	var ds []exchange.Diagnostic
	holds := false // the anchor resolves and its snippet matches (or is absent)
	switch {
	case !r.Resolved:
		rv.findCandidates(r)
		ds = append(ds, rv.orphanedAnchor(r))
	case !SnippetMatches(c.Snippet, r.Side, rv.ix.Patch, r.File, r.Lines()):
		rv.findCandidates(r)
		ds = append(ds, rv.snippetMismatch(r))
	default:
		holds = true
		if state == exchange.StateOrphaned {
			ds = append(ds, rv.orphanedResolves(r))
		}
	}
	if state == exchange.StateStale {
		ds = append(ds, rv.staleAnchor(r, holds))
	}
	if r.Hint != nil {
		for i := range ds {
			ds[i].Related = append(ds[i].Related, *r.Hint)
		}
		if r.Written {
			ds = append(ds, rv.headerPath(r))
		} else {
			ds = append(ds, rv.renamedPath(r))
		}
	}
	return ds
}

// orphanedMessage says why r does not resolve, adding related
// information to d.
func (rv *resolver) orphanedMessage(r *Resolution, d *exchange.Diagnostic) string {
	c := r.Comment
	var msg string
	switch r.Reason {
	case ReasonUnknownPath:
		msg = fmt.Sprintf("no file %q in the patch", c.Path)
		for i, p := range r.NearPaths {
			if f := rv.ix.FileEither(p, r.Side); f != nil {
				d.Related = append(d.Related, exchange.Related{Range: rv.patchRange(f.First, f.First), Message: fmt.Sprintf("did you mean %q?", p)})
			}
			if i == 0 {
				msg += fmt.Sprintf("; did you mean %q", p)
			} else {
				msg += fmt.Sprintf(" or %q", p)
			}
		}
		if len(r.NearPaths) > 0 {
			msg += "?"
		}
	case ReasonNoSuchImage:
		f := r.File
		switch f.Status {
		case NewFile:
			msg = fmt.Sprintf("%q is a new file: it has no LEFT (old) image to comment on", c.Path)
		case DeletedFile:
			msg = fmt.Sprintf("%q is a deleted file: it has no RIGHT (new) image to comment on", c.Path)
		default:
			msg = fmt.Sprintf("%q is not in the %s image of the patch", c.Path, r.Side)
		}
		d.Related = append(d.Related, exchange.Related{Range: rv.patchRange(f.First, f.First), Message: fmt.Sprintf("the diff of %q", c.Path)})
	case ReasonInvertedRange:
		msg = fmt.Sprintf("end_line %d is before start_line %d: the range holds no line", c.EndLine, c.StartLine)
	case ReasonLineNotInImage:
		line := c.StartLine
		if r.Member == "end_line" {
			line = c.EndLine
		}
		msg = fmt.Sprintf("%s is not in the patch", LineSpan(r.Side, line, line))
		if h, first, last, ok := NearestHunk(r.File, r.Side, line); ok {
			msg += fmt.Sprintf(": the nearest hunk of %q shows %s", c.Path, LineSpan(r.Side, first, last))
			d.Related = append(d.Related, exchange.Related{Range: rv.patchRange(h.Header, h.Header), Message: "nearest hunk: " + LineSpan(r.Side, first, last)})
		} else {
			msg += fmt.Sprintf(": the diff of %q shows no line of its %s image", c.Path, ImageWord(r.Side))
		}
	case ReasonRangeCrossesHunks:
		msg = fmt.Sprintf("%s crosses hunks: a range must stay within one hunk", LineSpan(r.Side, c.StartLine, c.EndLine))
		for _, n := range []int{c.StartLine, c.EndLine} {
			if h, i, ok := r.File.Find(r.Side, n); ok {
				pl := r.File.Hunks[h].PatchLine(i)
				d.Related = append(d.Related, exchange.Related{Range: rv.patchRange(pl, pl), Message: fmt.Sprintf("%s is in the hunk at %s", LineSpan(r.Side, n, n), rv.lineText(r.File.Hunks[h].Header))})
			}
		}
	}
	return msg
}

// findCandidates fills r.Candidates (and r.NearPaths for an unknown path).
func (rv *resolver) findCandidates(r *Resolution) {
	c := r.Comment
	if r.Reason == ReasonUnknownPath {
		r.NearPaths = rv.nearPaths(c.Path)
		r.Normalised = len(r.NearPaths) > 0 && slices.Contains(normalisePath(c.Path), r.NearPaths[0])
		var files []*FileDiff
		var paths []string
		for _, p := range r.NearPaths {
			if f := rv.ix.FileEither(p, r.Side); f != nil {
				files, paths = append(files, f), append(paths, p)
			}
		}
		r.Candidates = rv.candidates(r, files, paths)
		return
	}
	if r.File != nil {
		r.Candidates = rv.candidates(r, []*FileDiff{r.File}, []string{c.Path})
	}
}

func (rv *resolver) severity(c *exchange.Comment, normal exchange.Severity) exchange.Severity {
	if c.StateNorm() == exchange.StateOrphaned {
		return exchange.SeverityInformation
	}
	return normal
}

func (rv *resolver) orphanedAnchor(r *Resolution) exchange.Diagnostic {
	c := r.Comment
	d := exchange.Diagnostic{
		Range:    exchange.NodeRange(c.Member(r.Member)),
		Severity: rv.severity(c, exchange.SeverityError),
		Code:     exchange.CodeOrphanedAnchor,
		Reason:   r.Reason,
	}
	msg := rv.orphanedMessage(r, &d)
	if len(r.Candidates) > 0 {
		where := "its snippet is at " + rv.snippetPlace(r)
		if strings.HasSuffix(msg, "?") {
			msg += " " + UpperFirst(where)
		} else {
			msg += "; " + where
		}
	}
	d.Message = msg + searchNote(r)
	d.Related = append(d.Related, rv.candidateRelated(r)...)
	d.Fixes = append(d.Fixes, rv.moveFixes(r, "Re-anchor "+c.Name()+" to", isActive(c))...)
	d.Fixes = rv.pathFixes(r, d.Fixes)
	if r.Reason == ReasonInvertedRange {
		d.Fixes = rv.swapFix(r, d.Fixes)
	}
	if c.StateNorm() != exchange.StateOrphaned {
		d.Fixes = append(d.Fixes, rv.stateFix(c, exchange.StateOrphaned, fmt.Sprintf("Mark %s orphaned", c.Name())))
	}
	d.Fixes = append(d.Fixes, rv.stateFix(c, exchange.StateDismissed, fmt.Sprintf("Dismiss %s", c.Name())))
	return d
}

// swapFix adds the fix of an inverted range: start_line and end_line
// written the wrong way round. When the swapped range resolves and holds
// the snippet, that is certain: the swap comes first, preferred (and
// fixAll's for an active comment) over any move, which would drop lines
// of the range.
func (rv *resolver) swapFix(r *Resolution, fixes []exchange.Fix) []exchange.Fix {
	c := r.Comment
	swap := exchange.Fix{
		Title: fmt.Sprintf("Swap %s's start_line and end_line: %s", c.Name(), LineSpan(r.Side, c.EndLine, c.StartLine)),
		Done:  fmt.Sprintf("swapped %s's start_line and end_line: %s", c.Name(), LineSpan(r.Side, c.EndLine, c.StartLine)),
		Edits: []exchange.Edit{
			exchange.ReplaceValue(c.Member("start_line"), strconv.Itoa(c.EndLine)),
			exchange.ReplaceValue(c.Member("end_line"), strconv.Itoa(c.StartLine)),
		},
	}
	h, i, ok := r.File.Find(r.Side, c.EndLine)
	h2, i2, ok2 := r.File.Find(r.Side, c.StartLine)
	if !ok || !ok2 || h != h2 || !SnippetMatches(c.Snippet, r.Side, rv.ix.Patch, r.File, imageLines(&r.File.Hunks[h], i, i2, r.Side)) {
		swap.Preferred = !hasPreferred(r.Candidates)
		return append(fixes, swap)
	}
	swap.Preferred, swap.Safe = true, isActive(c)
	for k := range fixes {
		fixes[k].Preferred, fixes[k].Safe = false, false
	}
	return append([]exchange.Fix{swap}, fixes...)
}

// imageLines lists the lines first to last of hunk h that belong to side
// s, with their patch lines.
func imageLines(h *Hunk, first, last int, s Side) []ImageLine {
	n := 0
	for _, l := range h.Lines[first : last+1] {
		if l.In(s) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]ImageLine, 0, n)
	for j := first; j <= last; j++ {
		if l := h.Lines[j]; l.In(s) {
			out = append(out, ImageLine{l, h.PatchLine(j)})
		}
	}
	return out
}

// isActive reports whether c's state is active (or absent): the only
// comments fixAll touches, since no automatic fix may change a state, and
// moving an orphaned, stale or dismissed comment without it would leave
// its state saying something false.
func isActive(c *exchange.Comment) bool { return c.StateNorm() == exchange.StateActive }

// searchNote adds to a message that the candidate search was cut short.
func searchNote(r *Resolution) string {
	if r.SearchCut {
		return "; the search for its snippet was cut short (work limit reached on a large patch)"
	}
	return ""
}

// hasPreferred reports whether one of the candidates is preferred.
func hasPreferred(cs []Candidate) bool {
	return slices.ContainsFunc(cs, func(k Candidate) bool { return k.Preferred })
}

func (rv *resolver) snippetMismatch(r *Resolution) exchange.Diagnostic {
	c := r.Comment
	lines := r.Lines()
	d := exchange.Diagnostic{
		Range:    exchange.NodeRange(c.Member("snippet")),
		Severity: rv.severity(c, exchange.SeverityWarning),
		Code:     exchange.CodeSnippetMismatch,
		Message:  fmt.Sprintf("the snippet is not what %s of %q holds", LineSpan(r.Side, c.StartLine, c.EndLine), c.Path),
	}
	switch {
	case r.Here:
		d.Message = fmt.Sprintf("the snippet differs from what %s of %q holds in white space only", LineSpan(r.Side, c.StartLine, c.EndLine), c.Path)
	case r.Tie != "" || len(r.Candidates) > 0:
		d.Message += "; it is at " + rv.snippetPlace(r)
	}
	d.Message += searchNote(r)
	d.Related = append(rv.lineRelated(r, " is: "), rv.candidateRelated(r)...)
	d.Fixes = append(d.Fixes, rv.moveFixes(r, "Re-anchor "+c.Name()+" to", isActive(c))...)
	// An anchor on blank lines has no snippet to offer. A snippet that
	// differs from its lines in white space only (r.Here) is respaced as
	// they spell it: the unique best place is where the comment is, and
	// the fix needs no choice.
	snip := SnippetOf(rv.ix.Patch, r.File, lines)
	if r.Here && r.Respaced != "" {
		snip = r.Respaced
	}
	if strings.TrimSpace(snip) != "" && !rv.loneSurrogateIn(lines) {
		f := exchange.Fix{
			Title:     fmt.Sprintf("Update %s's snippet from the patch: %s", c.Name(), Clip(firstLine(snip))),
			Edits:     []exchange.Edit{exchange.ReplaceValue(c.Member("snippet"), jsontext.Quote(snip))},
			Preferred: r.Here,
			Safe:      r.Here && isActive(c),
		}
		if r.Here {
			f.Done = fmt.Sprintf("respaced %s's snippet as %s spells it", c.Name(), LineSpan(r.Side, c.StartLine, c.EndLine))
		}
		d.Fixes = append(d.Fixes, f)
	}
	d.Fixes = append(d.Fixes, rv.stateFix(c, exchange.StateDismissed, fmt.Sprintf("Dismiss %s", c.Name())))
	return d
}

func (rv *resolver) orphanedResolves(r *Resolution) exchange.Diagnostic {
	c := r.Comment
	d := exchange.Diagnostic{
		Range:    exchange.NodeRange(c.Member("state")),
		Severity: exchange.SeverityInformation,
		Code:     exchange.CodeOrphanedResolves,
		Message:  fmt.Sprintf("%s is marked orphaned, but its anchor resolves: %s of %q", c.Name(), LineSpan(r.Side, c.StartLine, c.EndLine), c.Path),
		Related:  rv.lineRelated(r, ": "),
	}
	f := rv.stateFix(c, exchange.StateActive, fmt.Sprintf("Reactivate %s", c.Name()))
	f.Preferred = true
	d.Fixes = []exchange.Fix{f}
	return d
}

// staleAnchor reports a stale comment. Its fix re-anchors by content:
// state active where the anchor already holds, a move (and active) to the
// snippet's nearest place, or orphaned when the snippet is nowhere.
func (rv *resolver) staleAnchor(r *Resolution, holds bool) exchange.Diagnostic {
	c := r.Comment
	d := exchange.Diagnostic{
		Range:    exchange.NodeRange(c.Member("state")),
		Severity: exchange.SeverityInformation,
		Code:     exchange.CodeStaleAnchor,
		Message:  fmt.Sprintf("%s is stale: its anchor may have moved and waits for re-anchoring", c.Name()),
	}
	name := c.Name()
	switch {
	case holds:
		d.Message += fmt.Sprintf("; it still holds at %s", LineSpan(r.Side, c.StartLine, c.EndLine))
		d.Related = rv.lineRelated(r, ": ")
		f := rv.stateFix(c, exchange.StateActive, fmt.Sprintf("Re-anchor %s by content: it still holds, mark it active", name))
		f.Done = fmt.Sprintf("marked %s active: its anchor still holds", name)
		// Preferred, but not fixAll's: it changes the state.
		f.Preferred = true
		d.Fixes = []exchange.Fix{f}
	case len(r.Candidates) > 0:
		d.Message += "; its snippet is at " + rv.snippetPlace(r)
		d.Related = rv.candidateRelated(r)
		d.Fixes = rv.moveFixes(r, "Re-anchor "+name+" by content to", false)
	default:
		f := rv.stateFix(c, exchange.StateOrphaned, fmt.Sprintf("Re-anchor %s by content: its snippet is not in the patch, mark it orphaned", name))
		f.Preferred = true
		d.Fixes = []exchange.Fix{f}
	}
	return d
}

// stateFix sets the comment's state, inserting the member in the spec's
// key order when it is absent.
func (rv *resolver) stateFix(c *exchange.Comment, state, title string) exchange.Fix {
	return exchange.Fix{Title: title, Edits: []exchange.Edit{
		exchange.SetStateEdit(rv.src, c, state),
	}}
}

// lineRelated lists r's anchored lines (at most maxRelatedLines), each
// as its number, sep and its text.
func (rv *resolver) lineRelated(r *Resolution, sep string) []exchange.Related {
	var out []exchange.Related
	for i, l := range r.Lines() {
		if i == maxRelatedLines {
			break
		}
		n := l.Number(r.Side)
		out = append(out, exchange.Related{Range: rv.patchRange(l.Patch, l.Patch), Message: LineSpan(r.Side, n, n) + sep + Clip(strings.TrimSpace(r.File.Content(rv.ix.Patch, l.Patch)))})
	}
	return out
}

// snippetPlace names where r's snippet is: the tied places, or the best
// candidate.
func (rv *resolver) snippetPlace(r *Resolution) string {
	if r.Tie != "" {
		return r.Tie + " (none is chosen)"
	}
	return rv.placeName(r.Comment, r.Candidates[0])
}

// contentOf returns the text, without its diff marker, of line n of side
// s of path.
func (rv *resolver) contentOf(path string, s Side, n int) (string, bool) {
	f := rv.ix.FileEither(path, s)
	if f == nil {
		return "", false
	}
	h, i, ok := f.Find(s, n)
	if !ok {
		return "", false
	}
	return f.Content(rv.ix.Patch, f.Hunks[h].PatchLine(i)), true
}

// lineText returns patch line i's text, clipped, for messages.
func (rv *resolver) lineText(i int) string {
	p := &rv.doc.Review.Patch
	if i < 0 || i >= p.LineCount() {
		return ""
	}
	return Clip(p.LineText(i))
}

// NearestHunk returns the hunk of f whose span on side is nearest to line.
// Hunks in order (BuildIndex's spans) are binary-searched: a comment per
// line of a large file must not cost a pass over its hunks each.
func NearestHunk(f *FileDiff, s Side, line int) (h *Hunk, first, last int, ok bool) {
	best := -1
	nearest := func(from, to int) { // among hunks from to to (exclusive)
		for i := from; i < to; i++ {
			a, b := f.span(s, i)
			if b < a {
				continue // the hunk shows no line of this image
			}
			if d := max(0, a-line, line-b); best < 0 || d < best {
				best, h, first, last, ok = d, &f.Hunks[i], a, b, true
			}
		}
	}
	if spans := f.spans[s]; len(spans) == len(f.Hunks) && f.ordered[s] {
		k := sort.Search(len(spans), func(i int) bool { return spans[i].first > line })
		nearest(max(0, k-1), min(len(spans), k+1))
	}
	if !ok {
		nearest(0, len(f.Hunks))
	}
	return h, first, last, ok
}

// Clip shortens text for titles and messages, with its control
// characters made visible (see Visible).
func Clip(s string) string {
	const max = 60
	// Clipped before Visible, which maps a rune to one rune: the work is
	// bounded by max, not by the length of s (a line of a binary file).
	cut, n := 0, 0
	for i := range s {
		if n == max-1 {
			cut = i
		}
		if n == max {
			return Visible(s[:cut]) + "…"
		}
		n++
	}
	return Visible(s)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// lineRange spells a start and end line as "72" or "72–74".
func lineRange(start, end int) string {
	if end > start {
		return fmt.Sprintf("%d–%d", start, end)
	}
	return fmt.Sprint(start)
}

// loneSurrogateIn reports whether the patch lines a snippet update would
// copy are spelt with a lone surrogate escape: their decoded text holds
// U+FFFD there, and writing it into the snippet would turn the escape
// into a real U+FFFD (Patch.LineHoldsLoneSurrogate). No such fix is
// offered. (The snippet's own escapes do not matter: the fix replaces it.)
func (rv *resolver) loneSurrogateIn(lines []ImageLine) bool {
	return slices.ContainsFunc(lines, func(l ImageLine) bool { return rv.doc.Review.Patch.LineHoldsLoneSurrogate(l.Patch) })
}
