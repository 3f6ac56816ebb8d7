package features

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// What a position of a review document designates, and what a person
// learns about it: the hover text, the definition of a comment's anchor
// (the patch lines it lands on) and the references of a patch line (the
// comments anchored on it). Everything here reads a Report and returns
// byte ranges and Markdown; the language server only converts positions.

// PlaceKind says what a byte offset of a document is on.
type PlaceKind uint8

const (
	PlaceNone      PlaceKind = iota // outside the document's root object
	PlaceKey                        // a member's key
	PlaceValue                      // a value, or a container's punctuation and blanks
	PlacePatchLine                  // a line of the patch
)

// Place is what a byte offset designates.
type Place struct {
	Kind PlaceKind
	// Range is the source text the place covers: the key (quotes
	// included), the value, or the patch line (its array element; its
	// own text when it shares a string with other lines).
	Range exchange.Range
	// Node is the member's value (for a key too), the innermost value
	// holding the offset, or the patch line's element or string.
	Node *exchange.Node
	// Owner names the object Node is a member of when the format defines
	// it (exchange.OwnerReview, OwnerComment, OwnerReply); "" otherwise.
	Owner string
	// Comment and Reply index doc.Review.Comments and that comment's
	// Replies when the offset is inside one; -1 otherwise.
	Comment, Reply int
	// PatchLine indexes doc.Review.Patch.Lines for PlacePatchLine.
	PatchLine int
}

// Member is the name of the member the place is the key or value of, or
// "" for an array element or the root.
func (p Place) Member() string {
	if p.Node != nil && p.Node.IsMember() {
		return p.Node.Name
	}
	return ""
}

// PlaceAt returns what offset designates in doc. A token covers
// [start, end): the offset just after a closing quote is not on the
// string, as a mouse pointer or block cursor right after it is not.
func PlaceAt(doc *exchange.Document, offset int) Place {
	p := Place{Comment: -1, Reply: -1, PatchLine: -1}
	n := doc.Root
	if n == nil || !within(n, offset) {
		return p
	}
	for {
		var next *exchange.Node
		switch n.Kind {
		case exchange.KindObject:
			m := memberAt(n, offset)
			if m == nil {
				break
			}
			if offset >= m.KeyStart && offset < m.KeyEnd {
				p.Kind, p.Range, p.Node, p.Owner = PlaceKey, exchange.KeyRange(m), m, ownerOf(doc, n)
				return p
			}
			if within(m, offset) {
				next = m
			}
		case exchange.KindArray:
			next = elemAt(n, offset)
		}
		if next == nil {
			break
		}
		n = next
		if n.Kind == exchange.KindObject {
			switch ownerOf(doc, n) {
			case exchange.OwnerComment:
				p.Comment = commentIndex(doc, n)
			case exchange.OwnerReply:
				if p.Comment >= 0 {
					p.Reply = replyIndex(doc.Review.Comments[p.Comment], n)
				}
			}
		}
	}
	patch := &doc.Review.Patch
	if patch.Node != nil && n.Kind == exchange.KindString && (n == patch.Node || n.Parent == patch.Node) {
		if i := patchLineAt(patch, n, offset); i >= 0 {
			p.Kind, p.Range, p.Node, p.PatchLine = PlacePatchLine, LineRange(patch, i), n, i
			return p
		}
	}
	p.Kind, p.Range, p.Node = PlaceValue, exchange.NodeRange(n), n
	if n.IsMember() {
		p.Owner = ownerOf(doc, n.Parent)
	}
	return p
}

func within(n *exchange.Node, offset int) bool { return n.Start <= offset && offset < n.End }

// memberAt returns the member of obj whose key or value may hold offset:
// the last one starting at or before it. Members are in source order.
func memberAt(obj *exchange.Node, offset int) *exchange.Node {
	ms := obj.Members
	i := sort.Search(len(ms), func(i int) bool { return ms[i].KeyStart > offset }) - 1
	if i < 0 || offset >= max(ms[i].KeyEnd, ms[i].End) {
		return nil
	}
	return ms[i]
}

// elemAt returns the element of arr holding offset, searching by halves:
// a patch array has one element per diff line.
func elemAt(arr *exchange.Node, offset int) *exchange.Node {
	es := arr.Elems
	i := sort.Search(len(es), func(i int) bool { return es[i].Start > offset }) - 1
	if i < 0 || !within(es[i], offset) {
		return nil
	}
	return es[i]
}

// ownerOf names the format's object obj is: the review, a comment or a
// reply; "" for anything else (an unknown member's object).
func ownerOf(doc *exchange.Document, obj *exchange.Node) string {
	if obj == nil || obj.Kind != exchange.KindObject {
		return ""
	}
	if obj == doc.Root || obj.Parent == nil {
		// A root: doc's, or the earlier version's that a patch subtree
		// shared with it still names as its Parent (exchange.ParseIncremental).
		return exchange.OwnerReview
	}
	arr := obj.Parent
	if arr == nil || arr.Kind != exchange.KindArray || arr.Parent == nil {
		return ""
	}
	switch {
	case arr.Parent == doc.Root && doc.Root.Member("comments") == arr:
		return exchange.OwnerComment
	case ownerOf(doc, arr.Parent) == exchange.OwnerComment && arr.Parent.Member("replies") == arr:
		return exchange.OwnerReply
	}
	return ""
}

func commentIndex(doc *exchange.Document, obj *exchange.Node) int {
	cs := doc.Review.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Index >= obj.Index })
	if i < len(cs) && cs[i].Node == obj {
		return i
	}
	return -1
}

func replyIndex(c *exchange.Comment, obj *exchange.Node) int {
	for i, r := range c.Replies {
		if r.Node == obj {
			return i
		}
	}
	return -1
}

// patchLineAt returns the index of the line of the patch string n (an
// array element, or the whole string form) that offset is on, or -1.
func patchLineAt(p *exchange.Patch, n *exchange.Node, offset int) int {
	ls := p.Lines
	i := sort.Search(len(ls), func(i int) bool { return ls[i].Start > offset }) - 1
	// A line's text starts after its element's opening quote: the quote
	// belongs to the element's first line.
	if i+1 < len(ls) && ls[i+1].Node == n && (i < 0 || ls[i].Node != n) {
		i++
	}
	if i < 0 || ls[i].Node != n {
		return -1
	}
	return i
}

// LineRange is the source range that stands for patch line i: its array
// element, quotes included, or its own text when it shares a string with
// other lines (the single-string form, a multi-line element).
func LineRange(p *exchange.Patch, i int) exchange.Range {
	l := p.Lines[i]
	if l.Shared {
		return exchange.Range{Start: l.Start, End: l.End}
	}
	return exchange.NodeRange(l.Node)
}

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
func (r Analysed) Hover(offset int) (h Hover, ok bool) {
	p := PlaceAt(r.Doc, offset)
	h.Range = p.Range
	switch p.Kind {
	case PlaceKey:
		h.Markdown = memberHover(p.Owner, p.Node.Name)
	case PlacePatchLine:
		h.Markdown = r.patchLineHover(p.PatchLine)
	case PlaceValue:
		if p.Owner == exchange.OwnerComment && p.Node.Kind == exchange.KindString && len(exchange.EnumValues(p.Owner, p.Member())) > 0 {
			h.Markdown = enumHover(p.Owner, p.Member(), p.Node.Str)
		} else if p.Comment >= 0 {
			h.Markdown = r.commentHover(p.Comment)
		}
	}
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

func (r Analysed) commentHover(ci int) string {
	c := r.Doc.Review.Comments[ci]
	res := r.Anchors.Resolutions[ci]
	var b strings.Builder
	fmt.Fprintf(&b, "**Comment %s**", code(anchor.CommentName(c)))
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
		diffBlock(&b, res.File, h, res.First, res.Last, res.Side)
		if !anchor.SnippetMatches(c.Snippet, res.Side, res.Lines()) {
			b.WriteString("\n**The snippet does not match these lines.**")
			r.candidateList(&b, c, res.Candidates)
		}
	default:
		fmt.Fprintf(&b, "%s · %s · **does not resolve** (`%s`): %s", code(c.Path), anchor.LineSpan(res.Side, c.StartLine, c.EndLine), res.Reason, r.reasonWords(res))
		if len(res.Candidates) > 1 {
			r.candidateList(&b, c, res.Candidates)
		}
		if len(res.Candidates) > 0 {
			k := res.Candidates[0]
			if f, h, first, last, ok := r.candidateLines(k); ok {
				near := ""
				if k.Preferred {
					near = " (nearest)"
				}
				fmt.Fprintf(&b, "\n\n%s%s:\n\n", anchor.UpperFirst(r.candidateWords(c, k)), near)
				diffBlock(&b, f, h, first, last, k.Side)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// reasonWords says why an anchor does not resolve, as the orphaned-anchor
// diagnostic does, for comments that have none (dismissed ones).
func (r Analysed) reasonWords(res *anchor.Resolution) string {
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

func (r Analysed) candidateList(b *strings.Builder, c *exchange.Comment, ks []anchor.Candidate) {
	if len(ks) == 0 {
		return
	}
	b.WriteString("\n\nDrift candidates:\n")
	for _, k := range ks {
		b.WriteString("\n- " + r.candidateWords(c, k))
		if k.Preferred {
			b.WriteString(" (nearest)")
		}
		if _, h, first, _, ok := r.candidateLines(k); ok {
			b.WriteString(": " + code(anchor.Clip(strings.TrimSpace(h.Lines[first].Content))))
		}
	}
}

// candidateWords reads "snippet found at RIGHT 74", naming the file when
// it is not the comment's.
func (r Analysed) candidateWords(c *exchange.Comment, k anchor.Candidate) string {
	if k.Path != c.Path {
		return "snippet found in " + code(k.Path) + " at " + anchor.LineSpan(k.Side, k.Start, k.End)
	}
	return "snippet found at " + anchor.LineSpan(k.Side, k.Start, k.End)
}

// candidateLines finds a candidate's lines: its file, hunk and the line
// indexes of its first and last lines.
func (r Analysed) candidateLines(k anchor.Candidate) (f *anchor.FileDiff, h *anchor.Hunk, first, last int, ok bool) {
	if f = r.Index.FileEither(k.Path, k.Side); f == nil {
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
func diffBlock(b *strings.Builder, f *anchor.FileDiff, h *anchor.Hunk, first, last int, side anchor.Side) {
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
		fmt.Fprintf(b, "%c %s %s│ %s\n", marker(l.Kind), GutterLabel(f, l), flag, anchor.Visible(strings.TrimSuffix(l.Content, "\r")))
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
		return "LEFT " + strconv.Itoa(l.Old) + " · RIGHT " + strconv.Itoa(l.New)
	case l.Old > 0:
		return "LEFT " + strconv.Itoa(l.Old)
	case l.New > 0:
		return "RIGHT " + strconv.Itoa(l.New)
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

func (r Analysed) patchLineHover(pl int) string {
	fi, hi, li, ok := r.Index.LineAt(pl)
	if fi < 0 {
		return ""
	}
	f := r.Index.Files[fi]
	var b strings.Builder
	switch {
	case ok:
		l := f.Hunks[hi].Lines[li]
		fmt.Fprintf(&b, "**%s** · %s · %s", numbersWords(l), kindWords[l.Kind], fileWords(f))
		r.commentList(&b, r.Anchors.CommentsOn(pl))
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
		r.commentList(&b, r.commentsWhere(func(res *anchor.Resolution) bool { return res.Resolved && res.File == f && res.Hunk == hi }))
	default:
		b.WriteString("**File** " + fileWords(f) + " · " + statusWords(f) + " · " + anchor.Plural(len(f.Hunks), "hunk", "hunks"))
		r.commentList(&b, r.commentsWhere(func(res *anchor.Resolution) bool { return res.File == f }))
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
func (r Analysed) commentsWhere(keep func(*anchor.Resolution) bool) []int {
	var out []int
	for i, res := range r.Anchors.Resolutions {
		if keep(res) {
			out = append(out, i)
		}
	}
	return out
}

// commentList lists comments by author, state and the first line of their
// body (Markdown, shown as such): enough to tell them apart without
// opening them.
func (r Analysed) commentList(b *strings.Builder, idx []int) {
	if len(idx) == 0 {
		return
	}
	fmt.Fprintf(b, "\n\n%s:\n", anchor.Plural(len(idx), "comment", "comments"))
	for _, i := range idx {
		c := r.Doc.Review.Comments[i]
		author := c.Author
		if author == "" {
			author = "(no author)"
		}
		fmt.Fprintf(b, "\n- **%s** · %s · %s — %s", escape(author), code(anchor.CommentName(c)), escape(c.StateNorm()), FirstLine(c.Body))
	}
}

// placeNear is PlaceAt, or the place just before offset when offset is
// on punctuation or blanks: a text cursor right after a token (`72|,`)
// asks about that token.
func placeNear(doc *exchange.Document, offset int) Place {
	p := PlaceAt(doc, offset)
	if offset > 0 && (p.Kind == PlaceNone || p.Kind == PlaceValue && (p.Node.Kind == exchange.KindObject || p.Node.Kind == exchange.KindArray)) {
		if q := PlaceAt(doc, offset-1); q.Kind != PlaceNone && q.Node != p.Node {
			return q
		}
	}
	return p
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
