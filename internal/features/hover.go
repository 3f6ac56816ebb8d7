package features

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Hover: what a person learns about the place under the cursor, in
// Markdown, reading the analyzed document; the language server only
// converts positions.

// Hover is a hover's Markdown text and the source range it is about.
type Hover struct {
	Markdown string
	Range    exchange.Range
}

// Hover describes what offset is on: a member key gets the schema's
// documentation, an enumerated value its meaning, a patch line its numbers
// and the comments anchored on it, and anything else inside a comment the
// diff lines the comment lands on. ok is false where there is nothing to
// say.
func HoverAt(an *anchor.Analysis, offset int) (h Hover, ok bool) {
	p := PlaceAt(an.Doc, offset)
	h.Range = p.Range
	switch p.Kind {
	case PlaceKey:
		h.Markdown = memberHover(p.Owner, p.Node.Name)
	case PlacePatchLine:
		h.Markdown = patchLineHover(an, p.PatchLine)
	case PlaceValue:
		if p.Owner == exchange.OwnerComment && p.Node.Kind == exchange.KindString && len(exchange.EnumValues(p.Owner, p.Member())) > 0 {
			h.Markdown = enumHover(p.Owner, p.Member(), p.Node.Str)
		} else if p.Comment >= 0 {
			h.Markdown = commentHover(an, p.Comment)
		}
	}
	// The range holds the offset, which a place can leave just outside:
	// the opening quote of a string-form patch, a line's `\n` escape.
	h.Range.Start, h.Range.End = min(h.Range.Start, offset), max(h.Range.End, offset)
	return h, h.Markdown != ""
}

// ownerWords names an owner in sentences.
var ownerWords = map[string]string{
	exchange.OwnerReview:  "the review",
	exchange.OwnerComment: "a comment",
	exchange.OwnerReply:   "a reply",
}

func memberHover(owner, name string) string {
	if owner == "" {
		return ""
	}
	m, ok := exchange.Member(owner, name)
	if !ok {
		return fmt.Sprintf("%s is not a member of %s: readers ignore it, and leanreview's rewrite drops it.", code(name), ownerWords[owner])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s — **%s**", code(name), m.Title)
	switch {
	case m.Required:
		b.WriteString(" (required)")
	case owner == exchange.OwnerComment && name == "id":
		b.WriteString(" (recommended)")
	}
	b.WriteString("\n\n" + m.Markdown)
	return b.String()
}

// enumHover explains an enumerated value, or lists the allowed values
// when value is none of them. `side` is case-insensitive, as the spec says.
func enumHover(owner, name, value string) string {
	vals := exchange.EnumValues(owner, name)
	for _, v := range vals {
		if v.Value == value || name == "side" && strings.EqualFold(v.Value, value) {
			return code(v.Value) + " — " + v.Markdown
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is not a valid %s. It is one of:\n", code(value), code(name))
	for _, v := range vals {
		fmt.Fprintf(&b, "\n- %s — %s", code(v.Value), v.Markdown)
	}
	return b.String()
}

// Lines of hunk context shown around anchored lines, and the most lines a
// diff block shows before it elides the middle of a long range.
const (
	hoverContext  = 2
	hoverMaxLines = 16
)

func commentHover(an *anchor.Analysis, ci int) string {
	c := an.Doc.Review.Comments[ci]
	res := an.Anchors.Resolutions[ci]
	var b strings.Builder
	fmt.Fprintf(&b, "**Comment %s**", code(c.Name()))
	if c.Author != "" {
		b.WriteString(" by **" + escape(c.Author) + "**")
	}
	b.WriteString(" · " + escape(c.StateNorm()))
	if n := len(c.Replies); n > 0 {
		b.WriteString(" · " + anchor.Plural(n, "reply", "replies"))
	}
	b.WriteString("\n\n")
	switch {
	case res.Skipped:
		b.WriteString("The anchor cannot be read yet: it needs `path` (a string), `side` (LEFT or RIGHT) and `start_line` (a whole number).")
		return b.String()
	case res.Resolved:
		fmt.Fprintf(&b, "%s · %s\n\n", code(c.Path), anchor.LineSpan(res.Side, c.StartLine, c.EndLine))
		if res.Hint != nil {
			b.WriteString(escape(res.Hint.Message) + "\n\n")
		}
		h := &res.File.Hunks[res.Hunk]
		diffBlock(&b, an.Index.Patch, res.File, h, res.First, res.Last, res.Side)
		if !anchor.SnippetMatches(c.Snippet, res.Side, an.Index.Patch, res.File, res.Lines()) {
			b.WriteString("\n**The snippet does not match these lines.**")
			candidateList(an, &b, c, res.Candidates)
		}
	default:
		fmt.Fprintf(&b, "%s · %s · **does not resolve** (`%s`): %s", code(c.Path), anchor.LineSpan(res.Side, c.StartLine, c.EndLine), res.Reason, reasonWords(an, res))
		if len(res.Candidates) > 1 {
			candidateList(an, &b, c, res.Candidates)
		}
		if len(res.Candidates) > 0 {
			k := res.Candidates[0]
			if f, h, first, last, ok := candidateLines(an, k); ok {
				near := ""
				if k.Preferred {
					near = " (nearest)"
				}
				fmt.Fprintf(&b, "\n\n%s%s:\n\n", anchor.UpperFirst(candidateWords(an, c, k)), near)
				diffBlock(&b, an.Index.Patch, f, h, first, last, k.Side)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// reasonWords says why an anchor does not resolve, as the orphaned-anchor
// diagnostic does, for comments that have none (dismissed ones).
func reasonWords(an *anchor.Analysis, res *anchor.Resolution) string {
	c := res.Comment
	switch res.Reason {
	case anchor.ReasonUnknownPath:
		s := "no file " + code(c.Path) + " in the patch"
		for i, p := range res.NearPaths {
			if i == 0 {
				s += "; did you mean " + code(p)
			} else {
				s += " or " + code(p)
			}
		}
		if len(res.NearPaths) > 0 {
			return s + "?"
		}
		return s + "."
	case anchor.ReasonNoSuchImage:
		switch res.File.Status {
		case anchor.NewFile:
			return code(c.Path) + " is a new file: it has no LEFT (old) image."
		case anchor.DeletedFile:
			return code(c.Path) + " is a deleted file: it has no RIGHT (new) image."
		}
		return code(c.Path) + " is not in the " + res.Side.String() + " image of the patch."
	case anchor.ReasonInvertedRange:
		return fmt.Sprintf("`end_line` %d is before `start_line` %d.", c.EndLine, c.StartLine)
	case anchor.ReasonRangeCrossesHunks:
		return "the range crosses hunks; it must stay within one."
	case anchor.ReasonLineNotInImage:
		line := c.StartLine
		if res.Member == "end_line" {
			line = c.EndLine
		}
		s := anchor.LineSpan(res.Side, line, line) + " is not in the patch"
		if _, first, last, ok := anchor.NearestHunk(res.File, res.Side, line); ok {
			return s + "; the nearest hunk shows " + anchor.LineSpan(res.Side, first, last) + "."
		}
		return s + "; the diff shows no line of the " + anchor.ImageWord(res.Side) + " image."
	}
	return res.Reason
}

func candidateList(an *anchor.Analysis, b *strings.Builder, c *exchange.Comment, ks []anchor.Candidate) {
	if len(ks) == 0 {
		return
	}
	b.WriteString("\n\nDrift candidates:\n")
	for _, k := range ks {
		b.WriteString("\n- " + candidateWords(an, c, k))
		if k.Preferred {
			b.WriteString(" (nearest)")
		}
		if f, h, first, _, ok := candidateLines(an, k); ok {
			b.WriteString(": " + code(anchor.Clip(strings.TrimSpace(f.Content(an.Index.Patch, h.PatchLine(first))))))
		}
	}
}

// candidateWords reads "snippet found at RIGHT 74", naming the file when
// it is not the comment's.
func candidateWords(an *anchor.Analysis, c *exchange.Comment, k anchor.Candidate) string {
	if k.Path != c.Path {
		return "snippet found in " + code(k.Path) + " at " + anchor.LineSpan(k.Side, k.Start, k.End)
	}
	return "snippet found at " + anchor.LineSpan(k.Side, k.Start, k.End)
}

// candidateLines finds a candidate's lines: its file, hunk and the line
// indexes of its first and last lines.
func candidateLines(an *anchor.Analysis, k anchor.Candidate) (f *anchor.FileDiff, h *anchor.Hunk, first, last int, ok bool) {
	if f = an.Index.FileEither(k.Path, k.Side); f == nil {
		return nil, nil, 0, 0, false
	}
	hi, i, ok := f.Find(k.Side, k.Start)
	if !ok {
		return nil, nil, 0, 0, false
	}
	last = i
	if hj, j, ok := f.Find(k.Side, k.End); ok && hj == hi && j >= i {
		last = j
	}
	return f, &f.Hunks[hi], i, last, true
}

// diffBlock writes the lines first..last of hunk h with hoverContext lines
// of side's image around them (and the other image's lines among those),
// as a fenced diff block. Each line starts with
// its diff marker, so that the block keeps the diff colours of VS Code's
// and Neovim's Markdown renderers, which colour a line by its first
// character; the old and new numbers follow in a gutter, as a diff viewer
// shows them, and ">" marks the anchored lines of side:
//
//	  70 70  │     ctx := context.Background()
//	- 72     │     result := calculate(input)
//	+    72 >│     result, err := calculate(input)
func diffBlock(b *strings.Builder, p *exchange.Patch, f *anchor.FileDiff, h *anchor.Hunk, first, last int, side anchor.Side) {
	lo, hi := first, last
	for n := 0; lo > 0 && n < hoverContext; {
		if lo--; h.Lines[lo].In(side) {
			n++
		}
	}
	for n := 0; hi < len(h.Lines)-1 && n < hoverContext; {
		if hi++; h.Lines[hi].In(side) {
			n++
		}
	}
	show := make([]int, 0, hi-lo+1)
	for i := lo; i <= hi; i++ {
		show = append(show, i)
	}
	elided := 0
	if len(show) > hoverMaxLines {
		head := hoverMaxLines / 2
		tail := hoverMaxLines - head - 1
		elided = len(show) - head - tail
		show = append(show[:head:head], show[len(show)-tail:]...)
	}
	b.WriteString("```diff\n")
	for k, i := range show {
		if elided > 0 && k == hoverMaxLines/2 {
			fmt.Fprintf(b, "  %s  ┆ … %s\n", strings.Repeat(" ", len(GutterLabel(f, anchor.DiffLine{}))), anchor.Plural(elided, "more line", "more lines"))
		}
		l := h.Lines[i]
		flag := " "
		if i >= first && i <= last && l.In(side) {
			flag = ">"
		}
		fmt.Fprintf(b, "%c %s %s│ %s\n", marker(l.Kind()), GutterLabel(f, l), flag, anchor.Visible(strings.TrimSuffix(f.Content(p, h.PatchLine(i)), "\r")))
	}
	b.WriteString("```\n")
}

func marker(k anchor.LineKind) byte {
	switch k {
	case anchor.Added:
		return '+'
	case anchor.Removed:
		return '-'
	case anchor.NoNewline:
		return '\\'
	}
	return ' '
}

var kindWords = [...]string{anchor.Context: "context line", anchor.Added: "added line", anchor.Removed: "removed line", anchor.NoNewline: "no-newline marker"}

// numbersWords reads "LEFT 73 · RIGHT 74", or one side for a line of one
// image.
func numbersWords(l anchor.DiffLine) string {
	switch {
	case l.Old > 0 && l.New > 0:
		return "LEFT " + strconv.Itoa(int(l.Old)) + " · RIGHT " + strconv.Itoa(int(l.New))
	case l.Old > 0:
		return "LEFT " + strconv.Itoa(int(l.Old))
	case l.New > 0:
		return "RIGHT " + strconv.Itoa(int(l.New))
	}
	return "in neither image"
}

// fileWords names a file diff: its path, or both names of a rename.
func fileWords(f *anchor.FileDiff) string {
	switch {
	case f.OldName != "" && f.NewName != "" && f.OldName != f.NewName:
		return code(f.OldName) + " → " + code(f.NewName)
	case f.NewName != "":
		return code(f.NewName)
	}
	return code(f.OldName)
}

func patchLineHover(an *anchor.Analysis, pl int) string {
	fi, hi, li, ok := an.Index.LineAt(pl)
	if fi < 0 {
		return ""
	}
	f := an.Index.Files[fi]
	var b strings.Builder
	switch {
	case ok:
		l := f.Hunks[hi].Lines[li]
		fmt.Fprintf(&b, "**%s** · %s · %s", numbersWords(l), kindWords[l.Kind()], fileWords(f))
		commentList(an, &b, an.Anchors.CommentsOn(pl))
	case hi >= 0:
		h := &f.Hunks[hi]
		b.WriteString("**Hunk** of " + fileWords(f))
		var spans []string
		for _, s := range []anchor.Side{anchor.Left, anchor.Right} {
			if first, last := h.Span(s); first <= last {
				spans = append(spans, anchor.LineSpan(s, first, last))
			}
		}
		if len(spans) > 0 {
			b.WriteString(" · shows " + strings.Join(spans, " · "))
		}
		commentList(an, &b, commentsWhere(an, func(res *anchor.Resolution) bool { return res.Resolved && res.File == f && res.Hunk == hi }))
	default:
		b.WriteString("**File** " + fileWords(f) + " · " + statusWords(f) + " · " + anchor.Plural(len(f.Hunks), "hunk", "hunks"))
		commentList(an, &b, commentsWhere(an, func(res *anchor.Resolution) bool { return res.File == f }))
	}
	return b.String()
}

func statusWords(f *anchor.FileDiff) string {
	switch f.Status {
	case anchor.NewFile:
		return "new file"
	case anchor.DeletedFile:
		return "deleted file"
	case anchor.Renamed:
		return "renamed"
	case anchor.Copied:
		return "copied"
	}
	if f.ModeOnly {
		return "mode change"
	}
	return "modified"
}

// commentsWhere returns the indexes of the comments whose resolution
// satisfies keep.
func commentsWhere(an *anchor.Analysis, keep func(*anchor.Resolution) bool) []int {
	var out []int
	for i, res := range an.Anchors.Resolutions {
		if keep(res) {
			out = append(out, i)
		}
	}
	return out
}

// commentList lists comments by author, state and the first line of their
// body (Markdown, shown as such): enough to tell them apart without
// opening them.
func commentList(an *anchor.Analysis, b *strings.Builder, idx []int) {
	if len(idx) == 0 {
		return
	}
	fmt.Fprintf(b, "\n\n%s:\n", anchor.Plural(len(idx), "comment", "comments"))
	for _, i := range idx {
		c := an.Doc.Review.Comments[i]
		author := c.Author
		if author == "" {
			author = "(no author)"
		}
		fmt.Fprintf(b, "\n- **%s** · %s · %s — %s", escape(author), code(c.Name()), escape(c.StateNorm()), FirstLine(c.Body))
	}
}

// code writes s as Markdown inline code, with a fence longer than any run
// of backticks in s (CommonMark's rule).
func code(s string) string {
	if s == "" {
		return "`\"\"`" // the empty JSON string, rather than an empty span CommonMark does not allow
	}
	run, longest := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// escape backslash-escapes the Markdown punctuation in free text (an
// author, a hint) that would otherwise turn into emphasis or links.
func escape(s string) string {
	const special = "\\`*_[]<>#|~&"
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
