package exchange

import (
	"github.com/leanreview/lreview-lsp/internal/jsontext"

	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Result is what the document-level check found.
type Result struct {
	Diagnostics []Diagnostic
	// AnchorInvalid holds the comments whose anchor members (path, side,
	// start_line, end_line) fail the schema: anchoring skips them, so that
	// they get the schema diagnostics only.
	AnchorInvalid map[*Comment]bool
	// doc is the identity of the document checked, for CheckIncremental.
	doc *docID
	// src and comments are the checked text and what was found in each
	// comment, for CheckIncremental; src is the document's own, which
	// the comments in AnchorInvalid keep alive anyway.
	src      Text
	comments []commentCheck
	// idsClean: checkIDs found nothing.
	idsClean bool
}

var anchorMembers = []string{"path", "side", "start_line", "end_line"}

// Check runs the document-level checks of diagnostics.md: syntax, version,
// schema, unknown members, HTML escapes, the patch's spelling and ids. The
// patch's content and the anchors are the anchor package's business.
func Check(doc *Document) Result {
	return CheckIncremental(doc, nil)
}

// CheckIncremental is Check for a document read from the one prev
// checked (by parseIncremental or not). What a check finds inside one
// comment depends on nothing but that comment's bytes and index, so a
// comment spelt as in prev at the same index gets prev's findings, moved:
// a keystroke checks the comment it changed, not all the others. What
// spans comments (ids) is checked again unless the ids are unchanged.
// When the patch was carried over, so are its html-escape findings, which
// would otherwise mean scanning every escaped diff line again. The result
// is Check's, in the same order.
func CheckIncremental(doc *Document, prev *Result) Result {
	res := Result{AnchorInvalid: map[*Comment]bool{}, src: doc.Text}
	add := func(d Diagnostic) { res.Diagnostics = append(res.Diagnostics, d) }
	for _, e := range doc.Syntax {
		add(Diagnostic{Range: Range{e.Start, e.End}, Severity: SeverityError, Code: CodeSyntax, Message: e.Msg})
	}
	root := doc.Root
	if root.Kind != KindObject {
		if root.Kind != KindInvalid {
			add(Diagnostic{Range: Range{root.Start, root.Start + 1}, Severity: SeverityError, Code: CodeSchema,
				Message: fmt.Sprintf("a review exchange is a JSON object, got %s %s", article(root.Kind), root.Kind)})
		}
		return res
	}
	cs := newCommentSet(doc, prev)
	checkVersion(doc, add)
	checkSchema(doc, &res, cs)
	for k, c := range doc.Review.Comments {
		if rec := &cs.recs[k]; !rec.reused {
			checkComment(doc, c, rec)
		}
	}
	unknownMembers(doc, root, ReviewKeys, "the review", add)
	// With the patch carried over unmoved (an edit after it), so is the
	// spelling check of its array form: it reads nothing but the patch
	// and, only when the patch holds line breaks, the document's newline,
	// which comes from text before the patch's end. A moved patch is
	// checked again: the newline may have changed.
	carried := doc.patchCarried && prev != nil && prev.doc != nil && prev.doc == doc.base
	keepForm := carried && doc.patchDelta == 0 && doc.Review.Patch.Form == PatchArray
	skip := cs.inComment
	if old := doc.patchFrom; carried {
		for _, d := range prev.Diagnostics {
			if keepForm && (d.Code == CodePatchMultilineElement || d.Code == CodePatchTrailingEmpty) && d.Range.Start >= old.Start && d.Range.End <= old.End {
				add(d)
				continue
			}
			if (d.Code == CodeHTMLEscape || d.Code == CodeLoneSurrogate) && d.Range.Start >= old.Start && d.Range.End <= old.End {
				d.Range = Range{d.Range.Start + doc.patchDelta, d.Range.End + doc.patchDelta}
				if d.Code == CodeLoneSurrogate {
					add(d) // no fix to move
					continue
				}
				d.Fixes = []Fix{{Title: d.Fixes[0].Title, Done: d.Fixes[0].Done, Safe: true, Edits: []Edit{{Start: d.Range.Start, End: d.Range.End, NewText: d.Fixes[0].Edits[0].NewText}}}}
				add(d)
			}
		}
		patch := doc.Review.Patch.Node
		skip = func(n *Node) bool { return n == patch || cs.inComment(n) }
	}
	checkEscapes(doc, root, add, skip)
	checkDuplicateMembers(doc, root, "the review", add, cs.inComment)
	res.doc = doc.id
	if !keepForm {
		checkPatchForm(doc, add)
	}
	if prev != nil && prev.idsClean && cs.idsUnchanged(prev) {
		res.idsClean = true
	} else {
		res.idsClean = checkIDs(doc, add)
	}
	for k, c := range doc.Review.Comments {
		rec := &cs.recs[k]
		res.Diagnostics = append(res.Diagnostics, rec.diags...)
		if rec.anchorInvalid {
			res.AnchorInvalid[c] = true
		}
	}
	res.comments = cs.recs
	SortDiagnostics(res.Diagnostics)
	return res
}

func article(k Kind) string {
	if k == KindArray || k == KindObject {
		return "an"
	}
	return "a"
}

func checkVersion(doc *Document, add func(Diagnostic)) {
	root := doc.Root
	v := root.Member("leanreview_review")
	if v == nil {
		add(Diagnostic{Range: Range{root.Start, root.Start + 1}, Severity: SeverityError, Code: CodeVersionMissing,
			Message: "not a review exchange: no `leanreview_review` version member (it should be the first key)"})
		return
	}
	if n, ok := v.Int(doc.Text); !ok || n != 1 {
		got := doc.Text.String(v.Start, v.End)
		if v.Kind == KindInvalid && v.Start == v.End {
			got = "nothing"
		}
		add(Diagnostic{Range: nonEmpty(doc, NodeRange(v)), Severity: SeverityError, Code: CodeVersionUnknown,
			Message: fmt.Sprintf("unknown format version %s: this tool reads `leanreview_review` version 1", got)})
	}
	// By name, not by node: with the key repeated, v is the last one
	// (the one that counts), but detection sees the first.
	if first := root.Members()[0]; first.Name != "leanreview_review" {
		fix := Fix{Title: "Move `leanreview_review` first", Edits: []Edit{
			RemoveMember(doc.Text, root, v),
			InsertMember(doc.Text, root, "leanreview_review", doc.Text.String(v.Start, v.End), "^"),
		}}
		if v.Start == v.End {
			fix = Fix{}
		}
		d := Diagnostic{Range: KeyRange(v), Severity: SeverityWarning, Code: CodeVersionNotFirst,
			Message: fmt.Sprintf("`leanreview_review` should be the first key (detection looks for it there); %q comes first", first.Name)}
		if fix.Title != "" {
			d.Fixes = []Fix{fix}
		}
		add(d)
	}
}

// nonEmpty widens an empty range to the character at its start (the last
// one at the end of input), all of its bytes, so that a diagnostic on a
// missing value is still visible.
func nonEmpty(doc *Document, r Range) Range {
	n := doc.Text.Len()
	if r.End > r.Start || n == 0 {
		return r
	}
	if r.Start >= n {
		_, size := utf8.DecodeLastRune(doc.Text.Slice(n-utf8.UTFMax, n))
		return Range{n - size, n}
	}
	_, size := utf8.DecodeRune(doc.Text.Slice(r.Start, r.Start+utf8.UTFMax))
	return Range{r.Start, r.Start + size}
}

// checkSchema files the schema's findings in a comment under its record,
// and the others in res. The comments carried over are not validated
// again: their findings came with them.
func checkSchema(doc *Document, res *Result, cs *commentSet) {
	for _, v := range DefaultSchema().validate(doc, cs.stub) {
		n := v.Node
		if v.Missing == "leanreview_review" || n.Pointer(doc.Root) == "/leanreview_review" {
			continue // the version codes say it better
		}
		r := NodeRange(n)
		if v.Missing != "" {
			r = Range{n.Start, n.Start + 1}
		}
		d := Diagnostic{Range: nonEmpty(doc, r), Severity: SeverityError, Code: CodeSchema, Message: v.Message}
		rec := cs.owner(n)
		if rec == nil {
			res.Diagnostics = append(res.Diagnostics, d)
			continue
		}
		rec.diags = append(rec.diags, d)
		owner, member := n, v.Missing
		if member == "" {
			if p := Parent(doc.Root, n); p != nil && p.Kind == KindObject {
				owner, member = p, n.Name
			}
		}
		if cs.inComment(owner) && slices.Contains(anchorMembers, member) {
			rec.anchorInvalid = true
		}
	}
}

// unknownMembers reports the members of obj that are not among known.
func unknownMembers(doc *Document, obj *Node, known []string, where string, add func(Diagnostic)) {
	for _, m := range obj.Members() {
		if slices.Contains(known, m.Name) {
			continue
		}
		add(Diagnostic{Range: KeyRange(m), Severity: SeverityHint, Code: CodeUnknownField,
			Message: fmt.Sprintf("unknown member %s in %s: tolerated, but leanreview's rewrite drops it", jsontext.Quote(m.Name), where),
			Fixes:   []Fix{{Title: fmt.Sprintf("Remove member %s", jsontext.Quote(m.Name)), Edits: []Edit{RemoveMember(doc.Text, obj, m)}}}})
	}
}

// checkEscapes finds \u003c, \u003e and \u0026, and lone surrogate
// escapes, in every string and key of n but those of the subtrees skip
// (nil: none) picks.
func checkEscapes(doc *Document, n *Node, add func(Diagnostic), skip func(*Node) bool) {
	scan := func(from, end int) {
		// The string's bytes, in local offsets; diagnostics add from.
		src := doc.Text.Slice(from, end)
		jsontext.UnicodeEscapes(src, func(i int, unit rune, lone bool) bool {
			esc := src[i : i+6]
			if lone {
				add(Diagnostic{Range: Range{from + i, from + i + 6}, Severity: SeverityWarning, Code: CodeLoneSurrogate,
					Message: fmt.Sprintf("`%s` is a lone surrogate: it encodes no character, and most JSON readers turn it into U+FFFD (�); lreview keeps it as written", esc)})
			}
			if unit == '<' || unit == '>' || unit == '&' {
				lit := string(unit)
				add(Diagnostic{Range: Range{from + i, from + i + 6}, Severity: SeverityHint, Code: CodeHTMLEscape,
					Message: fmt.Sprintf("`%s` is an HTML-style escape of %q: write it literally", esc, lit),
					Fixes:   []Fix{{Title: fmt.Sprintf("Write %q literally", lit), Done: fmt.Sprintf("wrote %s as %q", esc, lit), Safe: true, Edits: []Edit{{Start: from + i, End: from + i + 6, NewText: lit}}}}})
			}
			return true
		})
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		if skip != nil && skip(n) {
			return
		}
		switch n.Kind {
		case KindString:
			if n.Escape {
				scan(n.Start, n.End)
			}
		case KindObject:
			for _, m := range n.Members() {
				if m.keyEscape {
					scan(m.KeyStart(), m.KeyEnd())
				}
				walk(m)
			}
		case KindArray:
			if t := n.table(); t != nil { // the patch's table: no element made
				for i := range t.table {
					if e := &t.table[i]; e.escape() {
						scan(int(e.start)+t.delta, int(e.end())+t.delta)
					}
				}
				return
			}
			for _, e := range n.Elems() {
				walk(e)
			}
		}
	}
	walk(n)
}

func checkPatchForm(doc *Document, add func(Diagnostic)) {
	p := &doc.Review.Patch
	switch p.Form {
	case PatchString:
		add(Diagnostic{Range: NodeRange(p.Node), Severity: SeverityHint, Code: CodePatchStringForm,
			Message: "the patch is a single string: writers should emit an array with one diff line per element, which reads and diffs line by line",
			Fixes:   []Fix{{Title: "Convert the patch to array form", Edits: []Edit{ReplaceValue(p.Node, patchArrayText(doc, p))}}}})
	case PatchArray:
		if e := p.TrailingEmpty; e != nil {
			add(Diagnostic{Range: NodeRange(e), Severity: SeverityWarning, Code: CodePatchTrailingEmpty,
				Message: "the patch must not end with an empty element: the final newline is implied",
				Fixes:   []Fix{{Title: "Remove the trailing empty element", Done: "removed the trailing empty patch element", Safe: true, Edits: []Edit{RemoveElement(p.Node, e)}}}})
		}
		checkMultilineElements(doc, p, add)
	}
}

// checkMultilineElements reports the elements that hold a line feed, with
// the fix that splits each into one element per line. The work is linear
// in the patch: a patch written with a line feed in every element must
// not cost a scan of the document per element.
func checkMultilineElements(doc *Document, p *Patch, add func(Diagnostic)) {
	nl := Newline(doc.Text)
	// Whether a line break precedes the element in the array: then the
	// new elements go one per line, else on the element's line.
	broken, scanned := false, p.Node.Start
	n := p.LineCount()
	for i := 0; i < n; {
		first := i
		i++ // the element's lines are consecutive
		for i < n && p.LineElem(i) == p.LineElem(first) {
			i++
		}
		if !p.LineShared(first) {
			continue
		}
		e := p.element(p.LineElem(first))
		if !broken {
			broken = doc.Text.IndexByteIn(scanned, e.Start, '\n') >= 0
			scanned = e.Start
		}
		sep := ", "
		if broken {
			sep = "," + nl + LineIndent(doc.Text, e.Start)
		}
		parts := quotedLines(doc.Text, e) // keeps lone surrogate escapes
		msg := fmt.Sprintf("patch element %d holds %d diff lines: write one line per element", p.LineElem(first), len(parts))
		if len(parts) == 1 {
			msg = fmt.Sprintf("patch element %d ends with a line feed: write one line per element, without it", p.LineElem(first))
		}
		add(Diagnostic{Range: NodeRange(e), Severity: SeverityWarning, Code: CodePatchMultilineElement, Message: msg,
			Fixes: []Fix{{Title: "Split into one element per line", Edits: []Edit{ReplaceValue(e, strings.Join(parts, sep))}}}})
	}
}

// patchArrayText spells the patch string's lines as a JSON array laid out
// like the canonical writer, indented from the patch member's line, split
// as Format splits it.
func patchArrayText(doc *Document, p *Patch) string {
	if p.Node.Str == "" {
		return "[]"
	}
	nl := Newline(doc.Text)
	base := LineIndent(doc.Text, p.Node.KeyStart())
	var b strings.Builder
	b.WriteString("[")
	first := true
	for line := range diffLines(p.Node.Str) {
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString(nl + base + "  " + jsontext.Quote(line))
	}
	b.WriteString(nl + base + "]")
	return b.String()
}

// checkIDs reports duplicate and missing comment ids, and whether it
// found none.
func checkIDs(doc *Document, add func(Diagnostic)) bool {
	// first holds every id in use (a comment's, or a fix's fresh one).
	first := make(map[string]*Comment, len(doc.Review.Comments))
	var dups, missing []*Comment
	for _, c := range doc.Review.Comments {
		idNode := c.Member("id")
		switch {
		case idNode == nil:
			missing = append(missing, c)
		case idNode.Kind != KindString || c.ID == "":
		case first[c.ID] != nil:
			dups = append(dups, c)
		default:
			first[c.ID] = c
		}
	}
	if len(dups) == 0 && len(missing) == 0 {
		return true
	}
	next := 1
	fresh := func() string {
		for {
			id := "c" + strconv.Itoa(next)
			if _, used := first[id]; !used {
				first[id] = nil
				return id
			}
			next++
		}
	}
	for _, c := range dups {
		idNode, f := c.Member("id"), first[c.ID]
		add(Diagnostic{Range: NodeRange(idNode), Severity: SeverityError, Code: CodeIDDuplicate,
			Message: fmt.Sprintf("comment id %s is already used by comment %s", jsontext.Quote(c.ID), f.Number()),
			Related: []Related{{Range: NodeRange(f.Member("id")), Message: "first use of " + jsontext.Quote(c.ID)}},
			Fixes:   []Fix{{Title: "Give this comment a fresh id", Edits: []Edit{ReplaceValue(idNode, jsontext.Quote(fresh()))}}}})
	}
	var all []Edit
	for _, c := range missing {
		all = append(all, InsertMember(doc.Text, c.Node, "id", jsontext.Quote(fresh()), "^"))
	}
	for _, c := range missing {
		add(Diagnostic{Range: Range{c.Node.Start, c.Node.Start + 1}, Severity: SeverityHint, Code: CodeIDMissing,
			Message: fmt.Sprintf("comment %s has no `id`: leanreview will invent a random one, so replies cannot refer to it reliably", c.Number()),
			Fixes:   []Fix{{Title: "Assign ids to all comments", Edits: all}}})
	}
	return false
}
