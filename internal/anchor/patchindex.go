package anchor

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// BuildIndex indexes the patch p: its file diffs, their hunks and every
// body line numbered in the images it belongs to, plus the patch-level
// problems (patch-parse, hunk-count-mismatch, patch-empty).
//
// Without the document's source the header-count fix assumes that the
// "@@ -a,b +c,d" part of a hunk header is written without JSON escapes,
// which holds for every JSON encoder (none escapes '@', digits, '-', '+',
// ',' or a space). BuildIndexSource checks it against the source instead.
func BuildIndex(p *exchange.Patch) *Index { return BuildIndexSource(p, exchange.Text{}) }

// BuildIndexSource is BuildIndex with the document's source text, so that
// the header-count fix finds the count digits in the escaped source even
// when a hunk header is spelt with escapes before them. src may be empty.
func BuildIndexSource(p *exchange.Patch, src exchange.Text) *Index {
	b := builder{src: src}
	return b.build(p)
}

// builder walks the patch once, top to bottom. The walk itself decides
// where files and hunks begin and end (hunk ends come from the header
// counts, as git apply reads them); then each file's headers are read
// (patchindex_headers.go).
type builder struct {
	src exchange.Text

	p  *exchange.Patch
	lr *exchange.LineReader
	// at and atText are the line text last read: the checks read a line
	// several times, and the next one or two ahead.
	at     [2]int
	atText [2]string
	ix     *Index
	n      int
	all    []DiffLine // backing store of every hunk's Lines: one allocation
	f      *fileBuild // the file diff being read, nil outside one

	// Scratch reused from file to file.
	hdrs []int // indexes of the current file's header lines
	ext  []string
}

// fileBuild is the state of the file diff being read.
type fileBuild struct {
	fd       *FileDiff
	body     int  // index in builder.all of the file's first body line
	git      int  // index of the "diff --git" line, -1 for a plain unified diff
	minus    int  // index of the "--- " line (the "+++ " line follows), -1 if none
	binLine  int  // index of a stand-alone "Binary files ... differ" line, -1 if none
	hdrOpen  bool // still inside a git header section (extended headers)
	binData  bool // after "GIT binary patch": base85 data lines follow
	sawHunk  bool // an "@@" line (valid or not) was seen
	skipping bool // absorbing the body of a malformed hunk header
	reported bool // "missing @@" was reported once for this file
}

func (b *builder) build(p *exchange.Patch) *Index {
	ix := &Index{Patch: p}
	if p == nil {
		return ix
	}
	b.p, b.ix, b.n = p, ix, p.LineCount()
	b.lr, b.at = p.NewLineReader(), [2]int{-1, -1}
	ix.texts = new(patchTexts)
	// Body lines can never outnumber patch lines, so appends to all never
	// move it and every hunk can keep a slice of it.
	b.all = make([]DiffLine, 0, b.n)
	for i := 0; i < b.n; {
		i = b.step(i)
	}
	b.finish()
	if len(ix.Files) == 0 && p.Node != nil && (p.Form == exchange.PatchArray || p.Form == exchange.PatchString) {
		ix.Problems = append(ix.Problems, exchange.Diagnostic{
			Range:    exchange.NodeRange(p.Node),
			Severity: exchange.SeverityWarning,
			Code:     exchange.CodePatchEmpty,
			Message:  "the patch holds no file diff: expected \"diff --git\" or \"---\"/\"+++\" file headers followed by \"@@\" hunks",
		})
	}
	exchange.SortDiagnostics(ix.Problems)
	ix.look = newLookup(ix.Files)
	return ix
}

func isGitHeader(t string) bool {
	return strings.HasPrefix(t, "diff --git") && (len(t) == 10 || t[10] == ' ')
}

// isFilePair reports whether lines i and i+1 are a "--- "/"+++ " pair.
func (b *builder) isFilePair(i int) bool {
	return i+1 < b.n && strings.HasPrefix(b.text(i), "--- ") && strings.HasPrefix(b.text(i+1), "+++ ")
}

// bodyLike reports whether t looks like a hunk body line. The empty line
// is not included: callers decide what a blank line means where they are.
func bodyLike(t string) bool {
	return t != "" && (t[0] == ' ' || t[0] == '+' || t[0] == '-' || t[0] == '\\')
}

// isSignature reports whether line i is the "-- " that git format-patch
// writes after the last hunk, before the git version.
func (b *builder) isSignature(i int) bool {
	return b.text(i) == "-- " && (i+1 >= b.n || !bodyLike(b.text(i+1)))
}

// takesPair reports whether a "---"/"+++" pair is the current file's own
// file header rather than the start of the next file.
func (f *fileBuild) takesPair() bool {
	return f.git >= 0 && f.minus < 0 && !f.sawHunk
}

// step reads the line at i, which is not inside a hunk body, and returns
// the index of the next line to read.
func (b *builder) step(i int) int {
	t := b.text(i)
	f := b.f
	switch {
	case isGitHeader(t):
		b.startFile(i, true)
		return i + 1
	case b.isFilePair(i) && (f == nil || !f.takesPair()):
		b.startFile(i, false)
		b.f.minus = i
		b.hdrs = append(b.hdrs, i, i+1)
		b.f.fd.Last = i + 1
		return i + 2
	case strings.HasPrefix(t, "@@"):
		if f == nil {
			b.problem(i, exchange.SeverityError, exchange.CodePatchParse, "hunk header before any file header: a \"diff --git\" line or a \"---\"/\"+++\" pair must name the file first", nil)
			return i + 1
		}
		return b.hunk(i)
	case isBinaryFiles(t) && (f == nil || !f.hdrOpen):
		b.startFile(i, false)
		b.f.binLine = i
		b.hdrs = append(b.hdrs, i)
		return i + 1
	}
	if f == nil {
		return i + 1 // text before the first file diff: a commit message, a diffstat
	}
	if b.isFilePair(i) { // takesPair holds, or the pair case above would have matched
		f.minus = i
		b.hdrs = append(b.hdrs, i, i+1)
		f.fd.Last = i + 1
		f.hdrOpen, f.skipping = false, false
		return i + 2
	}
	if f.hdrOpen {
		switch {
		case strings.HasPrefix(t, "--- "):
			f.fd.Last = i
			b.problem(i, exchange.SeverityError, exchange.CodePatchParse, "malformed file header: \"--- \" is not followed by a \"+++ \" line", nil)
			return i + 1
		case strings.HasPrefix(t, "+++ "):
			f.fd.Last = i
			b.problem(i, exchange.SeverityError, exchange.CodePatchParse, "malformed file header: \"+++ \" without a \"--- \" line before it", nil)
			return i + 1
		case f.binData && isBinaryData(t), isExtendedHeader(t):
			if t == "GIT binary patch" {
				f.binData = true
			}
			b.hdrs = append(b.hdrs, i)
			f.fd.Last = i
			return i + 1
		}
		f.hdrOpen = false
	}
	switch {
	case t == "":
		return i + 1 // a blank line ends nothing and belongs to nothing
	case f.skipping && bodyLike(t):
		f.fd.Last = i
		return i + 1
	case !f.sawHunk && !f.reported && bodyLike(t) && !b.isSignature(i):
		f.reported, f.skipping = true, true
		f.fd.Last = i
		b.problem(i, exchange.SeverityError, exchange.CodePatchParse, "diff line outside any hunk: the \"@@ -start,count +start,count @@\" hunk header is missing", nil)
		return i + 1
	}
	f.skipping = false
	return i + 1 // text between or after file diffs
}

func (b *builder) startFile(i int, git bool) {
	b.finish()
	f := &fileBuild{fd: &FileDiff{First: i, Last: i, texts: b.ix.texts}, body: len(b.all), git: -1, minus: -1, binLine: -1}
	if git {
		f.git, f.hdrOpen = i, true
		b.hdrs = append(b.hdrs[:0], i)
	} else {
		b.hdrs = b.hdrs[:0]
	}
	b.f = f
}

// finish completes the current file diff: its names, status and flags.
func (b *builder) finish() {
	f := b.f
	if f == nil {
		return
	}
	b.f = nil
	b.headers(f)
	fd := f.fd
	if len(b.all) > f.body {
		fd.lines = b.all[f.body:len(b.all):len(b.all)]
	}
	if fd.OldName == "" && fd.NewName == "" {
		b.problem(fd.First, exchange.SeverityError, exchange.CodePatchParse, "malformed file header: cannot read the file name", nil)
	} else if f.git >= 0 {
		if _, _, ok := splitGitArgs(gitArgs(b.text(f.git))); !ok {
			b.problem(f.git, exchange.SeverityError, exchange.CodePatchParse, "malformed file header: expected \"diff --git a/<path> b/<path>\"", nil)
		}
	}
	if n := len(fd.Hunks); n > 0 {
		all := make([]imageSpan, 2*n)
		for s := Left; s <= Right; s++ {
			spans := all[int(s)*n : int(s+1)*n : int(s+1)*n]
			prevLast, ordered := math.MinInt, true
			for i := range fd.Hunks {
				first, last := fd.Hunks[i].Span(s)
				spans[i] = imageSpan{first, last}
				ordered = ordered && first > prevLast
				prevLast = last
			}
			fd.spans[s], fd.ordered[s] = spans, ordered
		}
	}
	b.ix.Files = append(b.ix.Files, fd)
}

// hunkHead is a parsed "@@ -a,b +c,d @@ section" line.
type hunkHead struct {
	old, new hunkRange
	section  string
}

// hunkRange is one side's "start[,count]". The offsets are byte offsets
// in the line's decoded text, kept for the count fix.
type hunkRange struct {
	start, count   int
	at, comma, end int // digits of the start at at; ',' at comma or -1; end of "start[,count]"
}

// parseHunkHeader reads a hunk header as git apply does: exactly
// "@@ -a[,b] +c[,d] @@" with single spaces, an omitted count meaning 1,
// then anything (the section). why says what is wrong when ok is false.
func parseHunkHeader(t string) (h hunkHead, why string, ok bool) {
	const bad = "malformed hunk header: expected \"@@ -start[,count] +start[,count] @@\""
	if !strings.HasPrefix(t, "@@") {
		return h, bad, false
	}
	i, sep := 2, " -"
	for _, r := range []*hunkRange{&h.old, &h.new} {
		if !strings.HasPrefix(t[i:], sep) {
			return h, bad, false
		}
		var big bool
		if *r, big, ok = parseRange(t, i+2); !ok {
			if big {
				return h, "malformed hunk header: a line number or count is too large", false
			}
			return h, bad, false
		}
		i, sep = r.end, " +"
	}
	if !strings.HasPrefix(t[i:], " @@") {
		return h, bad, false
	}
	h.section = strings.TrimSpace(t[i+3:])
	return h, "", true
}

// parseRange reads "start[,count]" at t[i:].
func parseRange(t string, i int) (r hunkRange, big, ok bool) {
	r = hunkRange{count: 1, at: i, comma: -1}
	if r.start, i, big, ok = parseNumber(t, i); !ok {
		return r, big, false
	}
	if i < len(t) && t[i] == ',' {
		r.comma = i
		if r.count, i, big, ok = parseNumber(t, i+1); !ok {
			return r, big, false
		}
	}
	r.end = i
	return r, false, true
}

// parseNumber reads decimal digits at t[i:]. Values above MaxInt32 are
// refused (big): no real file has that many lines, and other readers of
// the same diff (go-diff, forges) hold them in int32.
func parseNumber(t string, i int) (v, end int, big, ok bool) {
	j := i
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		if v > math.MaxInt32 {
			big = true
		} else {
			v = v*10 + int(t[j]-'0')
		}
		j++
	}
	if j == i {
		return 0, j, false, false
	}
	if big || v > math.MaxInt32 {
		return 0, j, true, false
	}
	return v, j, false, true
}

// firstNumber is the number of a hunk's first line in an image: a range
// with count 0 names the line before the (empty) range, as in
// "@@ -0,0 +1,3 @@" for a new file or "-5,0" for an insertion after line 5.
// A (malformed) start of 0 with lines numbers them from 1: 0 means "not
// in this image".
func firstNumber(start, count int) int {
	if count == 0 || start == 0 {
		return start + 1
	}
	return start
}

// hunkCounter numbers the body lines of one hunk.
type hunkCounter struct {
	oldNo, newNo     int
	bodyOld, bodyNew int
}

// push appends line j to the current hunk's body: a hunk's lines are
// pushed in order from the line after its header, which Hunk.PatchLine
// relies on. It refuses (false) a line whose number would not fit
// DiffLine's 32 bits, which only a header starting near 2^31 can ask for:
// the hunk ends before it.
func (b *builder) push(c *hunkCounter, j int) bool {
	head, _ := b.head(j) // 0 for an empty line: a context line
	if head != '\\' && max(c.oldNo, c.newNo) > math.MaxInt32 {
		return false
	}
	var l DiffLine // its numbers say its kind (firstNumber starts them at 1)
	switch head {
	case '+':
		l.New = int32(c.newNo)
		c.newNo++
		c.bodyNew++
	case '-':
		l.Old = int32(c.oldNo)
		c.oldNo++
		c.bodyOld++
	case '\\': // NoNewline: in neither image
	default:
		l.Old, l.New = int32(c.oldNo), int32(c.newNo)
		c.oldNo++
		c.newNo++
		c.bodyOld++
		c.bodyNew++
	}
	b.all = append(b.all, l)
	return true
}

// hunk reads the hunk whose header is line i and returns the index of the
// line after it. The header's counts decide where the body ends, so that
// "--foo" and "++bar" content lines stay body lines; a body that stops
// early (truncated) or runs on (overlong) is kept as written and reported.
func (b *builder) hunk(i int) int {
	f := b.f
	f.sawHunk, f.hdrOpen, f.skipping = true, false, false
	f.fd.Last = i
	hh, why, ok := parseHunkHeader(b.text(i))
	if !ok {
		f.skipping = true // its body lines belong to no hunk
		b.problem(i, exchange.SeverityError, exchange.CodePatchParse, why, nil)
		return i + 1
	}
	c := hunkCounter{oldNo: firstNumber(hh.old.start, hh.old.count), newNo: firstNumber(hh.new.start, hh.new.count)}
	first := len(b.all)
	j, truncated := b.hunkBody(hh, &c, i+1)
	if !truncated {
		j = b.hunkOverrun(&c, j)
	}
	h := Hunk{
		Header:   i,
		OldStart: hh.old.start, OldCount: hh.old.count,
		NewStart: hh.new.start, NewCount: hh.new.count,
		Section: strings.Clone(hh.section), // not a view of this version's text
		Lines:   b.all[first:len(b.all):len(b.all)],
	}
	if len(h.Lines) == 0 {
		h.Lines = nil
	}
	f.fd.Hunks = append(f.fd.Hunks, h)
	f.fd.Last = max(f.fd.Last, j-1)
	if c.bodyOld != hh.old.count || c.bodyNew != hh.new.count {
		b.problem(i, exchange.SeverityWarning, exchange.CodeHunkCountMismatch,
			fmt.Sprintf("hunk header promises %d old and %s, but its body holds %d and %d", hh.old.count, Plural(hh.new.count, "new line", "new lines"), c.bodyOld, c.bodyNew),
			b.countFix(i, hh, c.bodyOld, c.bodyNew))
	}
	return j
}

// hunkBody reads body lines from line j until the header's counts are
// met, and returns the line after them; truncated reports a body that
// stopped first, at a line that cannot be one of its own.
func (b *builder) hunkBody(hh hunkHead, c *hunkCounter, j int) (int, bool) {
	for j < b.n && (c.bodyOld < hh.old.count || c.bodyNew < hh.new.count) {
		if head, ok := b.head(j); ok {
			switch head {
			case ' ', '+', '\\':
			case '-':
				// In a plain diff with a truncated hunk, the next file's
				// "---"/"+++"/"@@" would otherwise read as body lines.
				// They are body lines only when they complete the hunk.
				if b.f.git < 0 && b.isFilePair(j) && j+2 < b.n && strings.HasPrefix(b.text(j+2), "@@") &&
					!(hh.old.count-c.bodyOld == 1 && hh.new.count-c.bodyNew == 1) {
					return j, true
				}
			default:
				return j, true // a header, a new file or text
			}
		}
		// An empty line is a context line whose leading space was lost.
		if !b.push(c, j) {
			return j, true
		}
		j++
	}
	return j, false
}

// hunkOverrun reads what may follow a body whose counts are met, from
// line j, and returns the line after it: "\\ No newline at end of file",
// and body lines before any header, which mean the header undercounts,
// as generated patches often do: they are kept.
func (b *builder) hunkOverrun(c *hunkCounter, j int) int {
	for j < b.n && strings.HasPrefix(b.text(j), "\\") {
		b.push(c, j)
		j++
	}
	for k := j; k < b.n; k++ {
		t := b.text(k)
		if t == "" {
			continue // kept only if a body line follows
		}
		if !bodyLike(t) || t[0] == '-' && (b.isFilePair(k) || b.isSignature(k)) {
			break
		}
		for ; j <= k; j++ {
			if !b.push(c, j) {
				return j
			}
		}
	}
	return j
}

func (b *builder) problem(i int, sev exchange.Severity, code, msg string, fixes []exchange.Fix) {
	b.ix.Problems = append(b.ix.Problems, exchange.Diagnostic{
		Range:    exchange.Range{Start: b.p.LineStart(i), End: b.p.LineEnd(i)},
		Severity: sev,
		Code:     code,
		Message:  msg,
		Fixes:    fixes,
	})
}

// countFix rewrites the counts of hunk header i to what its body holds.
// The edits touch only the numbers, so the section text and any escapes
// in it are left alone. A side whose count goes to or from 0 gets its
// start moved too, so that every body line keeps its number.
func (b *builder) countFix(i int, hh hunkHead, bodyOld, bodyNew int) []exchange.Fix {
	start, end := b.p.LineStart(i), b.p.LineEnd(i)
	t := b.text(i)
	span := t[hh.old.at-1 : hh.new.end] // "-a,b +c,d"
	base := start                       // source offset of decoded offset 0
	if b.src.Len() > 0 {
		if start < 0 || end > b.src.Len() || start > end {
			return nil
		}
		s := b.src.Slice(start, end)
		if len(s) < hh.new.end || string(s[hh.old.at-1:hh.new.end]) != span {
			k := bytes.Index(s, []byte(span))
			if k < 0 {
				return nil // the numbers are spelt with escapes: no safe edit
			}
			base = start + k - (hh.old.at - 1)
		}
	} else {
		// Without the source, only a line spelt without escapes has
		// source offsets equal to its decoded offsets (an escape always
		// takes more bytes than what it decodes to). A final "\r" in an
		// array element is spelt \r, after the numbers.
		text, extra := b.p.LineText(i), 0
		if strings.HasSuffix(text, "\r") {
			extra = 1
		}
		if end-start != len(text)+extra {
			return nil
		}
	}
	var edits []exchange.Edit
	oldText := hh.old.edit(&edits, base, t, bodyOld)
	newText := hh.new.edit(&edits, base, t, bodyNew)
	return []exchange.Fix{{
		Title:     fmt.Sprintf("Rewrite the hunk header as @@ -%s +%s @@", oldText, newText),
		Done:      fmt.Sprintf("rewrote the hunk header as @@ -%s +%s @@", oldText, newText),
		Edits:     edits,
		Preferred: true,
		Safe:      true,
	}}
}

// edit adds the edit that makes one side's "start[,count]" say body
// lines, and returns that side's resulting text.
func (r hunkRange) edit(edits *[]exchange.Edit, base int, t string, body int) string {
	if r.count == body {
		return t[r.at:r.end]
	}
	newStart := r.start
	switch {
	case r.count == 0 && body > 0:
		newStart = r.start + 1
	case r.count > 0 && body == 0 && r.start > 0:
		newStart = r.start - 1
	}
	text := strconv.Itoa(newStart) + "," + strconv.Itoa(body)
	switch {
	case newStart != r.start:
		*edits = append(*edits, exchange.Edit{Start: base + r.at, End: base + r.end, NewText: text})
	case r.comma >= 0:
		*edits = append(*edits, exchange.Edit{Start: base + r.comma + 1, End: base + r.end, NewText: strconv.Itoa(body)})
	default:
		*edits = append(*edits, exchange.Edit{Start: base + r.end, End: base + r.end, NewText: "," + strconv.Itoa(body)})
	}
	return text
}
