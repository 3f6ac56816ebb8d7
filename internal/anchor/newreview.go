package anchor

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// Starting a review: the document an agent or `lreview-lsp new` writes
// around a diff before any comment exists.

// DiffLines splits the bytes of a diff (SplitDiffFile) and checks that
// every line belongs to a unified diff: a file header, a hunk header or a
// hunk body line, as the patch index reads them. The error names the first
// line that does not (1-based) and what was expected there, so that a
// commit message, a diffstat or a file that is no diff at all is refused
// rather than embedded.
// A commit git printed with its diff (ReadCommit) is taken too: its diff.
func DiffLines(data []byte) ([]string, error) {
	lines, _, err := diffDocument(data, "", "")
	return lines, err
}

// diffDocument is DiffLines, and the review document around the lines
// it parsed to check them, with title and summary when not empty: the
// diff is embedded, parsed and indexed once (NewReview formats that
// document), after a scan that refuses at once a line no diff line
// starts like.
func diffDocument(data []byte, title, summary string) ([]string, *exchange.Document, error) {
	lines, err := diffLines(data)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1`)
	if title != "" {
		b.WriteString(`, "title": ` + jsontext.Quote(title))
	}
	if summary != "" {
		b.WriteString(`, "summary": ` + jsontext.Quote(summary))
	}
	b.WriteString(`, "patch": ` + renderPatch(exchange.Text{}, &exchange.Node{}, nil, lines) + `, "comments": []}`)
	doc := exchange.Parse([]byte(b.String()))
	ix := BuildIndex(&doc.Review.Patch)
	for _, d := range ix.Problems {
		if d.Severity == exchange.SeverityError {
			i := patchLineOf(&doc.Review.Patch, d.Range.Start)
			return nil, nil, notDiffLine(i, lines[i], fmt.Sprintf("%s: %q", d.Message, Clip(lines[i])))
		}
	}
	covered := make([]bool, len(lines))
	for _, f := range ix.Files {
		for i := f.First; i <= f.Last && i < len(lines); i++ {
			covered[i] = true
		}
	}
	for i, ok := range covered {
		if !ok && !diffCommandLine(lines[i]) {
			return nil, nil, notDiffLine(i, lines[i], fmt.Sprintf(`expected a "diff --git" or "---"/"+++" file header, an "@@" hunk header or a hunk line (" ", "+", "-"), got %q`, Clip(lines[i])))
		}
	}
	return lines, doc, nil
}

// diffLines splits a diff, or a commit's, in lines, refusing an empty
// one and one with a line no diff line starts like.
func diffLines(data []byte) ([]string, error) {
	data, err := PlainDiff(data)
	if err != nil {
		return nil, err
	}
	lines := cleanLines(SplitDiffFile(data))
	if len(lines) == 0 {
		return nil, errors.New("the diff is empty: expected a unified diff (\"diff --git\" or \"---\"/\"+++\" file headers, then \"@@\" hunks)")
	}
	// Refused before it is embedded: a line no diff line starts like (a
	// binary file's, NUL bytes) would be escaped, up to six bytes for
	// one, parsed and indexed only to be found wrong.
	for i, l := range lines {
		if !diffLineStart(l) {
			return nil, notDiffLine(i, l, fmt.Sprintf(`expected a "diff --git" or "---"/"+++" file header, an "@@" hunk header or a hunk line (" ", "+", "-"), got %q`, Clip(l)))
		}
	}
	return lines, nil
}

// notDiffLine is the error for line i, which is not a unified diff line
// (detail says why), or for a diff printed with terminal colours, whose
// lines start with an escape no diff line starts with.
func notDiffLine(i int, line, detail string) error {
	if strings.HasPrefix(line, "\x1b[") {
		return fmt.Errorf("line %d starts with a terminal colour code: the diff was printed in colour (git's color.ui = always?); print it with --no-color", i+1)
	}
	return fmt.Errorf("line %d is not a unified diff line: %s", i+1, detail)
}

// diffLineStart reports whether l starts as some line of a unified diff
// can: empty (a blank context line some tools write), a hunk line (" ",
// "+", "-", "\\"), a hunk header ("@@"), or a header word ("diff",
// "index", "new file mode", "Binary files", a git binary patch's lines).
// A terminal colour code is let through, for notDiffLine to name.
func diffLineStart(l string) bool {
	if l == "" {
		return true
	}
	switch c := l[0]; {
	case c == ' ', c == '+', c == '-', c == '@', c == '\\', c == '\x1b':
		return true
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		return true
	}
	return false
}

// diffCommandLine reports whether t is a line diff -r writes between file
// diffs: the command that compared the next pair ("diff -ruN a/x b/x"),
// or a file only one side has.
func diffCommandLine(t string) bool {
	return strings.HasPrefix(t, "diff ") || strings.HasPrefix(t, "Only in ")
}

// patchLineOf returns the index of the patch line holding offset.
func patchLineOf(p *exchange.Patch, offset int) int {
	for i := range p.LineCount() {
		if offset < p.LineEnd(i) {
			return i
		}
	}
	return p.LineCount() - 1
}

// NewReview returns the canonical review exchange document (exchange.Format)
// around diff, with the title and summary when they are not empty and no
// comments. The diff must be a unified diff (DiffLines), or one commit
// as git prints it with its diff (ReadCommit: git format-patch, git show),
// whose title and message are then the review's unless given.
func NewReview(diff []byte, title, summary string) ([]byte, error) {
	c, isCommit, err := ReadCommit(diff)
	if err != nil {
		return nil, err
	}
	if isCommit {
		diff, title, summary = c.Diff, cmp.Or(title, c.Title), cmp.Or(summary, c.Message)
	}
	_, doc, err := diffDocument(diff, title, summary)
	if err != nil {
		return nil, err
	}
	return exchange.Format(doc)
}
