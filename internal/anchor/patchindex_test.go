package anchor

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// ixQuote spells s as a JSON string the way a canonical writer does:
// only quotes, backslashes and control characters are escaped.
func ixQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ixArrayDoc parses a review whose patch holds lines, one element each, so
// that every range in the index is a real range of a real document.
func ixArrayDoc(t testing.TB, lines []string) *exchange.Document {
	t.Helper()
	elems := make([]string, len(lines))
	for i, l := range lines {
		elems[i] = ixQuote(l)
	}
	sep := ",\n    "
	body := ""
	if len(elems) > 0 {
		body = "\n    " + strings.Join(elems, sep) + "\n  "
	}
	return ixParse(t, "{\n  \"leanreview_review\": 1,\n  \"patch\": ["+body+"],\n  \"comments\": []\n}\n")
}

// ixStringDoc parses a review whose patch is the single string text.
func ixStringDoc(t testing.TB, text string) *exchange.Document {
	t.Helper()
	return ixParse(t, "{\n  \"leanreview_review\": 1,\n  \"patch\": "+ixQuote(text)+",\n  \"comments\": []\n}\n")
}

// ixRawDoc parses a review whose patch member is written as raw (already
// JSON) text.
func ixRawDoc(t testing.TB, patchJSON string) *exchange.Document {
	t.Helper()
	return ixParse(t, "{\n  \"leanreview_review\": 1,\n  \"patch\": "+patchJSON+",\n  \"comments\": []\n}\n")
}

func ixParse(t testing.TB, src string) *exchange.Document {
	t.Helper()
	doc := exchange.Parse([]byte(src))
	if len(doc.Syntax) > 0 {
		t.Fatalf("test document does not parse: %v\n%s", doc.Syntax, src)
	}
	return doc
}

var ixStatus = map[FileStatus]string{Modified: "M", NewFile: "A", DeletedFile: "D", Renamed: "R", Copied: "C"}

// ixFileSig renders a file diff as "M old>new first-last [bin] [mode]".
func ixFileSig(f *FileDiff) string {
	s := fmt.Sprintf("%s %s>%s %d-%d", ixStatus[f.Status], f.OldName, f.NewName, f.First, f.Last)
	if f.Binary {
		s += " bin"
	}
	if f.ModeOnly {
		s += " mode"
	}
	return s
}

// ixHunkSig renders a hunk as `file@header -a,b +c,d "section": lines`,
// each line as C<old>/<new>, R<old>, A<new> or N.
func ixHunkSig(fi int, h *Hunk) string {
	parts := make([]string, len(h.Lines))
	for i, l := range h.Lines {
		switch l.Kind() {
		case Context:
			parts[i] = fmt.Sprintf("C%d/%d", l.Old, l.New)
		case Added:
			parts[i] = fmt.Sprintf("A%d", l.New)
		case Removed:
			parts[i] = fmt.Sprintf("R%d", l.Old)
		case NoNewline:
			parts[i] = "N"
		}
	}
	sec := ""
	if h.Section != "" {
		sec = fmt.Sprintf(" %q", h.Section)
	}
	return fmt.Sprintf("%d@%d -%d,%d +%d,%d%s: %s", fi, h.Header, h.OldStart, h.OldCount, h.NewStart, h.NewCount, sec, strings.Join(parts, " "))
}

// ixProblemSig renders a diagnostic as code@L, L being the patch line
// whose exact source range the diagnostic covers, or code@patch for the
// patch value, or code@[start,end] for anything else (a wrong range).
func ixProblemSig(p *exchange.Patch, d exchange.Diagnostic) string {
	for i := range p.LineCount() {
		if d.Range == (exchange.Range{Start: p.LineStart(i), End: p.LineEnd(i)}) {
			return fmt.Sprintf("%s@%d", d.Code, i)
		}
	}
	if p.Node != nil && d.Range == exchange.NodeRange(p.Node) {
		return d.Code + "@patch"
	}
	return fmt.Sprintf("%s@[%d,%d]", d.Code, d.Range.Start, d.Range.End)
}

type ixSigs struct{ files, hunks, problems []string }

func ixSignatures(ix *Index) ixSigs {
	var s ixSigs
	for fi, f := range ix.Files {
		s.files = append(s.files, ixFileSig(f))
		for hi := range f.Hunks {
			s.hunks = append(s.hunks, ixHunkSig(fi, &f.Hunks[hi]))
		}
	}
	for _, d := range ix.Problems {
		s.problems = append(s.problems, ixProblemSig(ix.Patch, d))
	}
	return s
}

func ixCompare(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot  %q\nwant %q", what, got, want)
	}
}

// ixCheck verifies what must hold for any index: a hunk's lines are the
// body lines that follow its header without gaps (Hunk.PatchLine),
// numbers are consecutive per image, kinds (what the numbers say) agree
// with the lines' markers, and the lookups find every line back.
func ixCheck(t testing.TB, ix *Index) {
	t.Helper()
	n := ix.Patch.LineCount()
	prevLast := -1
	for fi, f := range ix.Files {
		if f.First <= prevLast || f.First > f.Last || f.Last >= n {
			t.Fatalf("file %d spans %d-%d after %d in %d lines", fi, f.First, f.Last, prevLast, n)
		}
		prevLast = f.Last
		prevEnd := f.First - 1
		for hi := range f.Hunks {
			h := &f.Hunks[hi]
			if h.Header <= prevEnd || h.Header+len(h.Lines) > f.Last {
				t.Fatalf("file %d hunk %d: header %d, %d lines, outside %d-%d or before %d", fi, hi, h.Header, len(h.Lines), f.First, f.Last, prevEnd)
			}
			prevEnd = h.Header + len(h.Lines)
			nextOld, nextNew := int32(0), int32(0)
			for li, l := range h.Lines {
				pl := h.PatchLine(li)
				head, ok := ix.Patch.LineHead(pl)
				if ok && !strings.ContainsRune(" +-\\", rune(head)) && !(head == '\r' && ix.Patch.LineLen(pl) == 1) {
					t.Fatalf("file %d hunk %d line %d: patch line %d starts with %q, not a body line", fi, hi, li, pl, head)
				}
				want := Context
				switch head {
				case '+':
					want = Added
				case '-':
					want = Removed
				case '\\':
					want = NoNewline
				}
				if l.Kind() != want {
					t.Fatalf("file %d hunk %d line %d: marker %q, numbered %d/%d", fi, hi, li, head, l.Old, l.New)
				}
				if l.Old > 0 {
					if nextOld != 0 && l.Old != nextOld {
						t.Fatalf("file %d hunk %d line %d: old number %d, want %d", fi, hi, li, l.Old, nextOld)
					}
					nextOld = l.Old + 1
				}
				if l.New > 0 {
					if nextNew != 0 && l.New != nextNew {
						t.Fatalf("file %d hunk %d line %d: new number %d, want %d", fi, hi, li, l.New, nextNew)
					}
					nextNew = l.New + 1
				}
				if gf, gh, gl, ok := ix.LineAt(pl); !ok || gf != fi || gh != hi || gl != li {
					t.Fatalf("LineAt(%d) = %d,%d,%d,%v, want %d,%d,%d,true", pl, gf, gh, gl, ok, fi, hi, li)
				}
				for s := Left; s <= Right; s++ {
					if num := l.Number(s); num > 0 {
						gh, gl, ok := f.Find(s, num)
						if !ok || f.Hunks[gh].Lines[gl].Number(s) != num {
							t.Fatalf("file %d: Find(%v, %d) = %d,%d,%v; the line is hunk %d line %d", fi, s, num, gh, gl, ok, hi, li)
						}
					}
				}
			}
			if gf, gh, gl, ok := ix.LineAt(h.Header); ok || gf != fi || gh != hi || gl != -1 {
				t.Fatalf("LineAt(header %d) = %d,%d,%d,%v, want %d,%d,-1,false", h.Header, gf, gh, gl, ok, fi, hi)
			}
		}
	}
	for i := 0; i < n; i++ {
		fi, hi, li, ok := ix.LineAt(i)
		if ok && ix.Files[fi].Hunks[hi].PatchLine(li) != i {
			t.Fatalf("LineAt(%d) points at patch line %d", i, ix.Files[fi].Hunks[hi].PatchLine(li))
		}
		if fi >= 0 && (i < ix.Files[fi].First || i > ix.Files[fi].Last) {
			t.Fatalf("LineAt(%d) = file %d spanning %d-%d", i, fi, ix.Files[fi].First, ix.Files[fi].Last)
		}
	}
}

type ixCase struct {
	name     string
	lines    []string // the patch in array form
	text     *string  // or in string form
	raw      string   // or the patch member's JSON as written
	files    []string
	hunks    []string
	problems []string
	content  map[int]string // patch line → the Content of its diff line
}

func (c ixCase) doc(t testing.TB) *exchange.Document {
	switch {
	case c.text != nil:
		return ixStringDoc(t, *c.text)
	case c.raw != "":
		return ixRawDoc(t, c.raw)
	}
	return ixArrayDoc(t, c.lines)
}

func ptr(s string) *string { return &s }

var ixCases = []ixCase{
	{
		name: "spec example: truncated hunk still indexes",
		lines: []string{
			"diff --git a/internal/api/handler.go b/internal/api/handler.go",
			"--- a/internal/api/handler.go",
			"+++ b/internal/api/handler.go",
			"@@ -70,5 +70,6 @@ func Handle(input Input) (Output, error) {",
			"     ctx := context.Background()",
			"     defer cancel(ctx)",
			"-    result := calculate(input)",
			"+    result, err := calculate(input)",
			"+    _ = err",
			"     return result, nil",
		},
		files:    []string{"M internal/api/handler.go>internal/api/handler.go 0-9"},
		hunks:    []string{`0@3 -70,5 +70,6 "func Handle(input Input) (Output, error) {": C70/70 C71/71 R72 A72 A73 C73/74`},
		problems: []string{"hunk-count-mismatch@3"},
		content:  map[int]string{4: "    ctx := context.Background()", 7: "    result, err := calculate(input)"},
	},
	{
		name:     "adversarial counts are never trusted for work or memory",
		lines:    []string{"diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,999999999 +1,999999999 @@", " a", "-b", "+c"},
		files:    []string{"M x>x 0-6"},
		hunks:    []string{"0@3 -1,999999999 +1,999999999: C1/1 R2 A2"},
		problems: []string{"hunk-count-mismatch@3"},
	},
	{
		name:     "a count past int32 is a malformed header",
		lines:    []string{"diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,99999999999 +1 @@", " a", "-b", "+c"},
		files:    []string{"M x>x 0-6"},
		problems: []string{"patch-parse@3"},
	},
	{
		name: "malformed hunk header in the middle of a two-file patch",
		lines: []string{
			"diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go",
			"@@ -1,2 +1,2 @@", " x", "-y", "+z",
			"@@ -10,two +10,2 @@", " p", "-q", "+r",
			"diff --git a/b.go b/b.go", "--- a/b.go", "+++ b/b.go",
			"@@ -5 +5 @@ func B()", "-old", "+new",
		},
		files:    []string{"M a.go>a.go 0-10", "M b.go>b.go 11-16"},
		hunks:    []string{"0@3 -1,2 +1,2: C1/1 R2 A2", `1@14 -5,1 +5,1 "func B()": R5 A5`},
		problems: []string{"patch-parse@7"},
	},
	{
		name: "malformed first file keeps the second",
		lines: []string{
			"diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go",
			"@@ -1,2 +1,2 @@@", " x",
			"@@ x", " y",
			"diff --git a/b.go b/b.go", "--- a/b.go", "+++ b/b.go",
			"@@ -1 +1 @@", "-o", "+n",
		},
		files:    []string{"M a.go>a.go 0-6", "M b.go>b.go 7-12"},
		hunks:    []string{`0@3 -1,2 +1,2 "@": C1/1`, "1@10 -1,1 +1,1: R1 A1"},
		problems: []string{"hunk-count-mismatch@3", "patch-parse@5"},
	},
	{
		name:     "string form with CRLF line ends",
		text:     ptr("diff --git a/w.txt b/w.txt\r\n--- a/w.txt\r\n+++ b/w.txt\r\n@@ -1,3 +1,3 @@\r\n one\r\n-two\r\n+TWO\r\n"),
		files:    []string{"M w.txt>w.txt 0-6"},
		hunks:    []string{"0@3 -1,3 +1,3: C1/1 R2 A2"},
		problems: []string{"hunk-count-mismatch@3"},
		content:  map[int]string{4: "one", 6: "TWO"},
	},
	{
		name:    "array elements ending in \\r",
		lines:   []string{"diff --git a/c b/c\r", "--- a/c\r", "+++ b/c\r", "@@ -1 +1 @@ sec\r", "-a\r", "+b\r"},
		files:   []string{"M c>c 0-5"},
		hunks:   []string{`0@3 -1,1 +1,1 "sec": R1 A1`},
		content: map[int]string{4: "a", 5: "b"},
	},
	{
		name:  "binary change",
		lines: []string{"diff --git a/i.png b/i.png", "index 1111111..2222222 100644", "Binary files a/i.png and b/i.png differ"},
		files: []string{"M i.png>i.png 0-2 bin"},
	},
	{
		name:  "new binary file",
		lines: []string{"diff --git a/n.png b/n.png", "new file mode 100644", "index 0000000..1234567", "Binary files /dev/null and b/n.png differ"},
		files: []string{"A >n.png 0-3 bin"},
	},
	{
		name:  "plain diff binary line",
		lines: []string{"Binary files a/x.bin and b/x.bin differ"},
		files: []string{"M x.bin>x.bin 0-0 bin"},
	},
	{
		name: "rename with similarity and an edit",
		lines: []string{
			"diff --git a/old/name.go b/new/name.go", "similarity index 90%", "rename from old/name.go", "rename to new/name.go",
			"index 1111111..2222222 100644", "--- a/old/name.go", "+++ b/new/name.go",
			"@@ -3,3 +3,3 @@", " a", "-b", "+c", " d",
		},
		files: []string{"R old/name.go>new/name.go 0-11"},
		hunks: []string{"0@7 -3,3 +3,3: C3/3 R4 A4 C5/5"},
	},
	{
		name:  "pure rename",
		lines: []string{"diff --git a/a b/b", "similarity index 100%", "rename from a", "rename to b"},
		files: []string{"R a>b 0-3"},
	},
	{
		name:  "git diff --no-prefix",
		lines: []string{"diff --git src/a.go src/a.go", "index 1111111..2222222 100644", "--- src/a.go", "+++ src/a.go", "@@ -1 +1 @@", "-x", "+y"},
		files: []string{"M src/a.go>src/a.go 0-6"},
		hunks: []string{"0@4 -1,1 +1,1: R1 A1"},
	},
	{
		name:  "--no-prefix keeps a directory called a",
		lines: []string{"diff --git a/x.go a/x.go", "--- a/x.go", "+++ a/x.go", "@@ -1 +1 @@", "-x", "+y"},
		files: []string{"M a/x.go>a/x.go 0-5"},
		hunks: []string{"0@3 -1,1 +1,1: R1 A1"},
	},
	{
		name:    "content line --foo removed inside a hunk",
		lines:   []string{"diff --git a/s.sql b/s.sql", "--- a/s.sql", "+++ b/s.sql", "@@ -1,3 +1,3 @@", " select 1;", "---foo", "+++bar", " end"},
		files:   []string{"M s.sql>s.sql 0-7"},
		hunks:   []string{"0@3 -1,3 +1,3: C1/1 R2 A2 C3/3"},
		content: map[int]string{5: "--foo", 6: "++bar"},
	},
	{
		name:    "removed and added lines that look like file headers",
		lines:   []string{"diff --git a/s.sql b/s.sql", "--- a/s.sql", "+++ b/s.sql", "@@ -1,3 +1,3 @@", " select 1;", "--- a/s.sql", "+++ b/s.sql", " end"},
		files:   []string{"M s.sql>s.sql 0-7"},
		hunks:   []string{"0@3 -1,3 +1,3: C1/1 R2 A2 C3/3"},
		content: map[int]string{5: "-- a/s.sql", 6: "++ b/s.sql"},
	},
	{
		name: "plain diff: a truncated hunk does not swallow the next file",
		lines: []string{
			"--- a/x", "+++ b/x", "@@ -1,4 +1,4 @@", " a", "-b", "+c",
			"--- a/y", "+++ b/y", "@@ -1 +1 @@", "-p", "+q",
		},
		files:    []string{"M x>x 0-5", "M y>y 6-10"},
		hunks:    []string{"0@2 -1,4 +1,4: C1/1 R2 A2", "1@8 -1,1 +1,1: R1 A1"},
		problems: []string{"hunk-count-mismatch@2"},
	},
	{
		name: "plain diff: header-like lines that complete the hunk are body",
		lines: []string{
			"--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", " a", "--- x", "+++ y",
			"@@ -9 +9 @@", "-m", "+n",
		},
		files: []string{"M x>x 0-8"},
		hunks: []string{"0@2 -1,2 +1,2: C1/1 R2 A2", "0@6 -9,1 +9,1: R9 A9"},
	},
	{
		name:    "empty context line whose space was stripped",
		lines:   []string{"diff --git a/e b/e", "--- a/e", "+++ b/e", "@@ -1,3 +1,3 @@", " a", "", "-b", "+c"},
		files:   []string{"M e>e 0-7"},
		hunks:   []string{"0@3 -1,3 +1,3: C1/1 C2/2 R3 A3"},
		content: map[int]string{5: ""},
	},
	{
		name:    "no newline at end of file, on both sides",
		lines:   []string{"diff --git a/n b/n", "--- a/n", "+++ b/n", "@@ -1 +1 @@", "-a", "\\ No newline at end of file", "+b", "\\ No newline at end of file"},
		files:   []string{"M n>n 0-7"},
		hunks:   []string{"0@3 -1,1 +1,1: R1 N A1 N"},
		content: map[int]string{5: " No newline at end of file"},
	},
	{
		name:  "mode-only change",
		lines: []string{"diff --git a/run.sh b/run.sh", "old mode 100644", "new mode 100755"},
		files: []string{"M run.sh>run.sh 0-2 mode"},
	},
	{
		name: "new, empty new, and deleted files",
		lines: []string{
			"diff --git a/n.txt b/n.txt", "new file mode 100644", "index 0000000..3e75765", "--- /dev/null", "+++ b/n.txt", "@@ -0,0 +1 @@", "+new",
			"diff --git a/e.txt b/e.txt", "new file mode 100644", "index 0000000..e69de29",
			"diff --git a/g.txt b/g.txt", "deleted file mode 100644", "index 286c5f5..0000000", "--- a/g.txt", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-gone", "-too",
		},
		files: []string{"A >n.txt 0-6", "A >e.txt 7-9", "D g.txt> 10-17"},
		hunks: []string{"0@5 -0,0 +1,1: A1", "2@15 -1,2 +0,0: R1 R2"},
	},
	{
		name: "truncated hunk followed by the next git file",
		lines: []string{
			"diff --git a/t b/t", "--- a/t", "+++ b/t", "@@ -1,4 +1,4 @@", " a", "-b", "+c",
			"diff --git a/u b/u", "--- a/u", "+++ b/u", "@@ -2 +2 @@", "-d", "+e",
		},
		files:    []string{"M t>t 0-6", "M u>u 7-12"},
		hunks:    []string{"0@3 -1,4 +1,4: C1/1 R2 A2", "1@10 -2,1 +2,1: R2 A2"},
		problems: []string{"hunk-count-mismatch@3"},
	},
	{
		name: "overlong hunk: lines after the counts are kept",
		lines: []string{
			"diff --git a/o b/o", "--- a/o", "+++ b/o", "@@ -1,2 +1,2 @@", " a", "-b", "+c", " d", "", " e", "",
			"diff --git a/p b/p", "new file mode 100644", "index 0000000..e69de29",
		},
		files:    []string{"M o>o 0-9", "A >p 11-13"},
		hunks:    []string{"0@3 -1,2 +1,2: C1/1 R2 A2 C3/3 C4/4 C5/5"},
		problems: []string{"hunk-count-mismatch@3"},
	},
	{
		name:     "hunk header before any file header",
		lines:    []string{"@@ -1 +1 @@", "-a", "+b"},
		problems: []string{"patch-empty@patch", "patch-parse@0"},
	},
	{
		name:     "missing hunk header",
		lines:    []string{"diff --git a/m b/m", "--- a/m", "+++ b/m", "-a", "+b"},
		files:    []string{"M m>m 0-4"},
		problems: []string{"patch-parse@3"},
	},
	{
		name:     "--- without +++",
		lines:    []string{"diff --git a/q b/q", "--- a/q", "@@ -1 +1 @@", "-a", "+b"},
		files:    []string{"M q>q 0-4"},
		hunks:    []string{"0@2 -1,1 +1,1: R1 A1"},
		problems: []string{"patch-parse@1"},
	},
	{
		name:  "unknown header line before ---/+++",
		lines: []string{"diff --git a/j b/j", "index 1..2 100644", "x-custom-header: 1", "--- a/j", "+++ b/j", "@@ -1 +1 @@", "-a", "+b"},
		files: []string{"M j>j 0-7"},
		hunks: []string{"0@5 -1,1 +1,1: R1 A1"},
	},
	{
		name:     "diff --git with one name, names from ---/+++",
		lines:    []string{"diff --git a/q", "--- a/q", "+++ b/q", "@@ -1 +1 @@", "-a", "+b"},
		files:    []string{"M q>q 0-5"},
		hunks:    []string{"0@3 -1,1 +1,1: R1 A1"},
		problems: []string{"patch-parse@0"},
	},
	{
		name:     "diff --git alone",
		lines:    []string{"diff --git", "old mode 100644", "new mode 100755"},
		files:    []string{"M > 0-2 mode"},
		problems: []string{"patch-parse@0"},
	},
	{
		name:     "empty array",
		raw:      "[]",
		problems: []string{"patch-empty@patch"},
	},
	{
		name:     "empty string",
		text:     ptr(""),
		problems: []string{"patch-empty@patch"},
	},
	{
		name:     "prose, no diff",
		lines:    []string{"This change is fine.", "No diff attached."},
		problems: []string{"patch-empty@patch"},
	},
	{
		name: "missing patch is a schema problem, not ours",
		raw:  "", // replaced below: no patch member at all
	},
	{
		name:  "quoted names and names with spaces",
		lines: []string{`diff --git "a/t\303\251st.txt" "b/t\303\251st.txt"`, `--- "a/t\303\251st.txt"`, `+++ "b/t\303\251st.txt"`, "@@ -1 +1 @@", "-é", "+è", "diff --git a/dir x/f y.txt b/dir x/f y.txt", "deleted file mode 100644", "index 587be6b..0000000"},
		files: []string{"M tést.txt>tést.txt 0-5", "D dir x/f y.txt> 6-8"},
		hunks: []string{"0@3 -1,1 +1,1: R1 A1"},
	},
	{
		name:     "omitted count rewrites by inserting it",
		lines:    []string{"diff --git a/k b/k", "--- a/k", "+++ b/k", "@@ -3 +3 @@", " a", "-b", "+c"},
		files:    []string{"M k>k 0-6"},
		hunks:    []string{"0@3 -3,1 +3,1: C3/3 R4 A4"},
		problems: []string{"hunk-count-mismatch@3"},
	},
	{
		name:     "insertion hunk that also has context",
		lines:    []string{"diff --git a/z b/z", "--- a/z", "+++ b/z", "@@ -5,0 +6,1 @@", "+new", " ctx"},
		files:    []string{"M z>z 0-5"},
		hunks:    []string{"0@3 -5,0 +6,1: A6 C6/7"},
		problems: []string{"hunk-count-mismatch@3"},
	},
	{
		name: "format-patch mail: preamble and signature are not part of any file",
		lines: []string{
			"From 5fa8e24 Mon Sep 17 00:00:00 2001", "Subject: [PATCH] change", "", "---", " m.sh | 0", " 1 file changed", "",
			"diff --git a/k b/k", "--- a/k", "+++ b/k", "@@ -1 +1 @@", "-a", "+b",
			"diff --git a/m.sh b/m.sh", "old mode 100644", "new mode 100755", "-- ", "2.39.5", "",
		},
		files: []string{"M k>k 7-12", "M m.sh>m.sh 13-15 mode"},
		hunks: []string{"0@10 -1,1 +1,1: R1 A1"},
	},
	{
		name: "signature right after a hunk is not an overlong line",
		lines: []string{
			"diff --git a/k b/k", "--- a/k", "+++ b/k", "@@ -1 +1 @@", "-a", "+b", "-- ", "2.39.5",
		},
		files: []string{"M k>k 0-5"},
		hunks: []string{"0@3 -1,1 +1,1: R1 A1"},
	},
	{
		name:  "hunks out of order",
		lines: []string{"diff --git a/u b/u", "--- a/u", "+++ b/u", "@@ -10 +10 @@", "-a", "+b", "@@ -1 +1 @@", "-c", "+d"},
		files: []string{"M u>u 0-8"},
		hunks: []string{"0@3 -10,1 +10,1: R10 A10", "0@6 -1,1 +1,1: R1 A1"},
	},
	{
		name:  "GIT binary patch data is header, not text",
		lines: []string{"diff --git a/i.bin b/i.bin", "index 0f49c4a..01adddf 100644", "GIT binary patch", "literal 10", "RcmZSJWJ=1+ODw810ssrM0>c0R", "", "literal 9", "QcmZQzWJ=1+ODw7c00^)Gi2wiq", "", "diff --git a/k b/k", "--- a/k", "+++ b/k", "@@ -1 +1 @@", "-a", "+b"},
		files: []string{"M i.bin>i.bin 0-8 bin", "M k>k 9-14"},
		hunks: []string{"1@12 -1,1 +1,1: R1 A1"},
	},
	{
		name:     "a zero start with lines numbers from 1",
		lines:    []string{"diff --git a/z b/z", "--- a/z", "+++ b/z", "@@ -0,2 +0,2 @@", " a", " b"},
		files:    []string{"M z>z 0-5"},
		hunks:    []string{"0@3 -0,2 +0,2: C1/1 C2/2"},
		problems: nil,
	},
}

func TestBuildIndexCases(t *testing.T) {
	for _, c := range ixCases {
		t.Run(c.name, func(t *testing.T) {
			var doc *exchange.Document
			if c.name == "missing patch is a schema problem, not ours" {
				doc = ixParse(t, `{"leanreview_review": 1, "comments": []}`)
			} else {
				doc = c.doc(t)
			}
			ix := BuildIndexSource(&doc.Review.Patch, doc.Text)
			ixCheck(t, ix)
			got := ixSignatures(ix)
			ixCompare(t, "files", got.files, c.files)
			ixCompare(t, "hunks", got.hunks, c.hunks)
			ixCompare(t, "problems", got.problems, c.problems)
			for pl, want := range c.content {
				fi, hi, li, ok := ix.LineAt(pl)
				if !ok {
					t.Errorf("patch line %d: not a hunk line, want content %q", pl, want)
					continue
				}
				if got := ix.Files[fi].Content(ix.Patch, ix.Files[fi].Hunks[hi].PatchLine(li)); got != want {
					t.Errorf("patch line %d: got content %q, want %q", pl, got, want)
				}
			}
			for _, d := range ix.Problems {
				if d.Message == "" || d.Severity == 0 {
					t.Errorf("%s: empty message or severity: %+v", d.Code, d)
				}
				want := map[string]exchange.Severity{exchange.CodePatchParse: exchange.SeverityError, exchange.CodePatchEmpty: exchange.SeverityWarning, exchange.CodeHunkCountMismatch: exchange.SeverityWarning}[d.Code]
				if d.Severity != want {
					t.Errorf("%s: got severity %v, want %v", d.Code, d.Severity, want)
				}
			}
		})
	}
}

// BenchmarkIndexRealDiffs indexes the real diffs (refdata.RealDiffs): the
// figure that decided the header reader (patchindex_headers.go).
func BenchmarkIndexRealDiffs(b *testing.B) {
	var docs []*exchange.Document
	for _, lines := range realDiffs(b) {
		docs = append(docs, ixArrayDoc(b, lines))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, doc := range docs {
			BuildIndex(&doc.Review.Patch)
		}
	}
}

// ixTestdata reads the diffs under testdata/index (real git and diff
// output) as patch lines.
func ixTestdata(t testing.TB) map[string][]string {
	t.Helper()
	paths, err := filepath.Glob("testdata/index/*.diff")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	out := map[string][]string{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// The array form cannot end with an empty element, so drop the
		// blank lines git leaves at the end, as a writer would.
		out[filepath.Base(p)] = strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	}
	return out
}

// TestIndexGitOutput indexes real `git diff`, `git format-patch` and
// `diff -ruN` output, in array and in string form.
func TestIndexGitOutput(t *testing.T) {
	want := map[string]struct {
		files, hunks []string
	}{
		"git-mixed.diff": {files: []string{
			"A >added.txt 0-6", "C orig.go>copy.go 7-22", "M crlf.txt>crlf.txt 23-31", "M dir with space/f i.txt>dir with space/f i.txt 32-38",
			"A >empty.txt 39-41", "D gone.txt> 42-48", "M img.bin>img.bin 49-51 bin", "M keep.txt>keep.txt 52-69", "M mode.sh>mode.sh 70-72 mode",
			"M nonl.txt>nonl.txt 73-82", "R moved.txt>renamed.txt 83-98", "M tést.txt>tést.txt 99-105",
		}, hunks: []string{
			"0@5 -0,0 +1,1: A1",
			`1@14 -7,7 +7,7 "src 6": C7/7 C8/8 C9/9 R10 A10 C11/11 C12/12 C13/13`,
			"2@27 -1,3 +1,3: C1/1 R2 A2 C3/3",
			"3@36 -1,1 +1,1: R1 A1",
			"5@47 -1,1 +0,0: R1",
			"7@56 -1,3 +1,4: A1 C1/2 C2/3 C3/4",
			"7@61 -12,7 +13,7: C12/13 C13/14 C14/15 R15 A16 C16/17 C17/18 C18/19",
			"9@77 -1,3 +1,3: C1/1 R2 A2 C3/3 N",
			`10@90 -17,7 +17,7 "line 16": C17/17 C18/18 C19/19 R20 A20 C21/21 C22/22 C23/23`,
			"11@103 -1,1 +1,1: R1 A1",
		}},
		"git-binary-literal.diff": {files: []string{"M img.bin>img.bin 0-7 bin"}},
		"no-prefix.diff": {files: []string{"M keep.txt>keep.txt 0-17", "R moved.txt>renamed.txt 18-33"}, hunks: []string{
			"0@4 -1,3 +1,4: A1 C1/2 C2/3 C3/4", "0@9 -12,7 +13,7: C12/13 C13/14 C14/15 R15 A16 C16/17 C17/18 C18/19",
			`1@25 -17,7 +17,7 "line 16": C17/17 C18/18 C19/19 R20 A20 C21/21 C22/22 C23/23`,
		}},
		"mnemonic.diff": {files: []string{"M keep.txt>keep.txt 0-17"}, hunks: []string{
			"0@4 -1,3 +1,4: A1 C1/2 C2/3 C3/4", "0@9 -12,7 +13,7: C12/13 C13/14 C14/15 R15 A16 C16/17 C17/18 C18/19",
		}},
		"format-patch.diff": {files: []string{"M keep.txt>keep.txt 11-28", "M mode.sh>mode.sh 29-31 mode"}, hunks: []string{
			"0@15 -1,3 +1,4: A1 C1/2 C2/3 C3/4", "0@20 -12,7 +13,7: C12/13 C13/14 C14/15 R15 A16 C16/17 C17/18 C18/19",
		}},
		"pure-rename.diff": {files: []string{"R renamed.txt>renamed2.txt 0-3"}},
		"plain-multi.diff": {files: []string{"A >new.txt 1-4", // diff -N dates the file it lacks the epoch
			"M src/x.txt>src/x.txt 6-12", "M y.txt>y.txt 14-20"}, hunks: []string{
			"0@3 -0,0 +1,1: A1", "1@8 -3,3 +3,4: C3/3 C4/4 C5/5 A6", "2@16 -1,2 +1,3: C1/1 R2 A2 A3",
		}},
	}
	data := ixTestdata(t)
	for name, lines := range data {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: testdata without expectations", name)
			continue
		}
		for _, form := range []string{"array", "string"} {
			t.Run(name+"/"+form, func(t *testing.T) {
				var doc *exchange.Document
				if form == "array" {
					doc = ixArrayDoc(t, lines)
				} else {
					doc = ixStringDoc(t, strings.Join(lines, "\n")+"\n")
				}
				ix := BuildIndex(&doc.Review.Patch)
				ixCheck(t, ix)
				got := ixSignatures(ix)
				ixCompare(t, "files", got.files, w.files)
				ixCompare(t, "hunks", got.hunks, w.hunks)
				ixCompare(t, "problems", got.problems, nil)
			})
		}
	}
	// The CRLF file's lines end in "\r" in the array form; contents do not.
	doc := ixArrayDoc(t, data["git-mixed.diff"])
	ix := BuildIndex(&doc.Review.Patch)
	if got := ix.Files[2].Content(ix.Patch, ix.Files[2].Hunks[0].PatchLine(1)); got != "two" {
		t.Errorf("CRLF content: got %q, want %q", got, "two")
	}
}

// ixApplyFix applies the only fix of d to doc and returns the new document.
func ixApplyFix(t *testing.T, doc *exchange.Document, d exchange.Diagnostic) *exchange.Document {
	t.Helper()
	if len(d.Fixes) != 1 {
		t.Fatalf("%s: got %d fixes, want 1", d.Code, len(d.Fixes))
	}
	f := d.Fixes[0]
	if !f.Safe || !f.Preferred {
		t.Errorf("fix %q: got safe=%v preferred=%v, want both", f.Title, f.Safe, f.Preferred)
	}
	for _, e := range f.Edits {
		if e.Start < d.Range.Start || e.End > d.Range.End {
			t.Errorf("edit [%d,%d) leaves the header's range [%d,%d)", e.Start, e.End, d.Range.Start, d.Range.End)
		}
	}
	out, err := exchange.ApplyEdits(doc.Text.Bytes(), f.Edits)
	if err != nil {
		t.Fatal(err)
	}
	return ixParse(t, string(out))
}

func TestIndexSpecExampleFix(t *testing.T) {
	src, err := os.ReadFile("../../examples/auth.review.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := ixParse(t, string(src))
	ix := BuildIndexSource(&doc.Review.Patch, doc.Text)
	got := ixSignatures(ix)
	ixCompare(t, "problems", got.problems, []string{"hunk-count-mismatch@3"})
	// RIGHT 72 is the line the example's comment anchors to.
	f, renamed := ix.FileFor("internal/api/handler.go", Right)
	if f == nil || renamed {
		t.Fatalf("FileFor: got %v, %v", f, renamed)
	}
	h, l, ok := f.Find(Right, 72)
	if !ok || f.Content(ix.Patch, f.Hunks[h].PatchLine(l)) != "    result, err := calculate(input)" {
		t.Fatalf("Find(RIGHT, 72) = %d,%d,%v", h, l, ok)
	}
	d := ix.Problems[0]
	if want := "Rewrite the hunk header as @@ -70,4 +70,5 @@"; d.Fixes[0].Title != want {
		t.Errorf("fix title: got %q, want %q", d.Fixes[0].Title, want)
	}
	fixed := ixApplyFix(t, doc, d)
	if got, want := fixed.Review.Patch.LineText(3), "@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {"; got != want {
		t.Errorf("fixed header: got %q, want %q", got, want)
	}
	if n := len(BuildIndex(&fixed.Review.Patch).Problems); n != 0 {
		t.Errorf("after the fix: got %d problems, want 0", n)
	}
	// BuildIndex without the source makes the same fix: the header has no escapes.
	if got := BuildIndex(&doc.Review.Patch).Problems[0].Fixes; len(got) != 1 || got[0].Edits[0] != d.Fixes[0].Edits[0] {
		t.Errorf("BuildIndex fix: got %+v, want %+v", got, d.Fixes)
	}
}

// TestIndexCountFix applies each header-count fix and checks the header
// it leaves, and that the fixed patch indexes without a mismatch and with
// the same numbers.
func TestIndexCountFix(t *testing.T) {
	for _, c := range []struct {
		name    string
		doc     func(t testing.TB) *exchange.Document
		noSrc   bool   // index with BuildIndex, without the source
		line    int    // the header's patch line
		want    string // the header after the fix; "" for no fix
		wantSig string // the header's numbers in the fix title
	}{
		{name: "truncated", doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/t b/t", "--- a/t", "+++ b/t", "@@ -1,4 +1,4 @@ keep this", " a", "-b", "+c", "diff --git a/u b/u", "old mode 100644", "new mode 100755"})
		}, line: 3, want: "@@ -1,2 +1,2 @@ keep this", wantSig: "-1,2 +1,2"},
		{name: "omitted counts get inserted", doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/k b/k", "--- a/k", "+++ b/k", "@@ -3 +3 @@", " a", "-b", "+c"})
		}, line: 3, want: "@@ -3,2 +3,2 @@", wantSig: "-3,2 +3,2"},
		{name: "only the wrong side changes", doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/k b/k", "--- a/k", "+++ b/k", "@@ -3,2 +3 @@", " a", "-b", "+c", "+d"})
		}, line: 3, want: "@@ -3,2 +3,3 @@", wantSig: "-3,2 +3,3"},
		{name: "insertion gaining an old line moves its start", doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/z b/z", "--- a/z", "+++ b/z", "@@ -5,0 +6,1 @@", "+new", " ctx"})
		}, line: 3, want: "@@ -6,1 +6,2 @@", wantSig: "-6,1 +6,2"},
		{name: "side losing all lines moves its start back", doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/z b/z", "--- a/z", "+++ b/z", "@@ -5,2 +5,2 @@", "+a", "+b", "diff --git a/y b/y", "old mode 100644", "new mode 100755"})
		}, line: 3, want: "@@ -4,0 +5,2 @@", wantSig: "-4,0 +5,2"},
		{name: "string form with CRLF", doc: func(t testing.TB) *exchange.Document {
			return ixStringDoc(t, "diff --git a/w b/w\r\n--- a/w\r\n+++ b/w\r\n@@ -1,3 +1,3 @@ \"q\"\r\n one\r\n-two\r\n+TWO\r\n")
		}, line: 3, want: `@@ -1,2 +1,2 @@ "q"`, wantSig: "-1,2 +1,2"},
		{name: "escaped section, with the source", doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/q b/q", "--- a/q", "+++ b/q", "@@ -1,3 +1,3 @@ func \"q\"(\t) {", " a", "-b", "+c"})
		}, line: 3, want: "@@ -1,2 +1,2 @@ func \"q\"(\t) {", wantSig: "-1,2 +1,2"},
		{name: "hand-escaped @ found in the source", doc: func(t testing.TB) *exchange.Document {
			return ixRawDoc(t, `["diff --git a/q b/q", "--- a/q", "+++ b/q", "\u0040@ -1,3 +1,3 @@", " a", "-b", "+c"]`)
		}, line: 3, want: "@@ -1,2 +1,2 @@", wantSig: "-1,2 +1,2"},
		{name: "hand-escaped digits: no safe edit", doc: func(t testing.TB) *exchange.Document {
			return ixRawDoc(t, `["diff --git a/q b/q", "--- a/q", "+++ b/q", "@@ -1,\u0033 +1,3 @@", " a", "-b", "+c"]`)
		}, line: 3},
		{name: "escapes without the source: no fix rather than a guess", noSrc: true, doc: func(t testing.TB) *exchange.Document {
			return ixRawDoc(t, `["diff --git a/q b/q", "--- a/q", "+++ b/q", "\u0040@ -1,3 +1,3 @@", " a", "-b", "+c"]`)
		}, line: 3},
		{name: "trailing \\r element without the source", noSrc: true, doc: func(t testing.TB) *exchange.Document {
			return ixArrayDoc(t, []string{"diff --git a/q b/q", "--- a/q", "+++ b/q", "@@ -1,3 +1,3 @@\r", " a", "-b", "+c"})
		}, line: 3, want: "@@ -1,2 +1,2 @@\r", wantSig: "-1,2 +1,2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := c.doc(t)
			var ix *Index
			if c.noSrc {
				ix = BuildIndex(&doc.Review.Patch)
			} else {
				ix = BuildIndexSource(&doc.Review.Patch, doc.Text)
			}
			var d *exchange.Diagnostic
			for i := range ix.Problems {
				if ix.Problems[i].Code == exchange.CodeHunkCountMismatch {
					d = &ix.Problems[i]
				}
			}
			if d == nil || ixProblemSig(&doc.Review.Patch, *d) != fmt.Sprintf("hunk-count-mismatch@%d", c.line) {
				t.Fatalf("got problems %v, want hunk-count-mismatch@%d", ixSignatures(ix).problems, c.line)
			}
			if c.want == "" {
				if len(d.Fixes) != 0 {
					t.Fatalf("got fixes %+v, want none", d.Fixes)
				}
				return
			}
			if want := "Rewrite the hunk header as @@ " + c.wantSig + " @@"; len(d.Fixes) == 1 && d.Fixes[0].Title != want {
				t.Errorf("title: got %q, want %q", d.Fixes[0].Title, want)
			}
			fixed := ixApplyFix(t, doc, *d)
			if got := fixed.Review.Patch.LineText(c.line); got != c.want {
				t.Errorf("fixed header: got %q, want %q", got, c.want)
			}
			ix2 := BuildIndexSource(&fixed.Review.Patch, fixed.Text)
			for _, p := range ix2.Problems {
				if p.Code == exchange.CodeHunkCountMismatch {
					t.Errorf("after the fix: %s", p.Message)
				}
			}
			before, after := ixSignatures(ix).hunks, ixSignatures(ix2).hunks
			for i := range before {
				// Only the header numbers may differ.
				b, a := before[i][strings.Index(before[i], ":"):], after[i][strings.Index(after[i], ":"):]
				if a != b {
					t.Errorf("hunk %d lines: got %s after the fix, want %s", i, a, b)
				}
			}
		})
	}
}

func TestIndexLookups(t *testing.T) {
	doc := ixArrayDoc(t, []string{
		// 0
		"preamble",
		// 1-6
		"diff --git a/lib/old.go b/lib/new.go", "similarity index 80%", "rename from lib/old.go", "rename to lib/new.go",
		"--- a/lib/old.go", "+++ b/lib/new.go",
		// 7-12
		"@@ -10,3 +10,4 @@", " a", "-b", "+c", "+d", " e",
		// 13
		"junk between hunks",
		// 14-18
		"@@ -40,2 +41,2 @@", " f", "-g", "\\ No newline at end of file", "+h",
		// 19-24
		"diff --git a/main.go b/main.go", "--- a/main.go", "+++ b/main.go", "@@ -1,2 +1,1 @@", "-x", " y",
		// 25-30
		"diff --git a/gone.go b/gone.go", "deleted file mode 100644", "--- a/gone.go", "+++ /dev/null", "@@ -1 +0,0 @@", "-z",
		// 31-33: a second file with the same name
		"diff --git a/lib/new.go b/lib/new.go", "old mode 100644", "new mode 100755",
	})
	ix := BuildIndexSource(&doc.Review.Patch, doc.Text)
	ixCheck(t, ix)
	if len(ix.Files) != 4 {
		t.Fatalf("got %d files, want 4: %v", len(ix.Files), ixSignatures(ix).files)
	}
	files := map[*FileDiff]int{nil: -1}
	for i, f := range ix.Files {
		files[f] = i
	}

	for _, c := range []struct {
		path        string
		side        Side
		file        int
		wantRenamed bool
	}{
		{"lib/new.go", Right, 0, false},
		{"lib/old.go", Left, 0, false},
		{"lib/old.go", Right, 0, true},
		{"lib/new.go", Left, 3, false}, // the mode change names it on both sides
		{"main.go", Left, 1, false},
		{"main.go", Right, 1, false},
		{"gone.go", Left, 2, false},
		{"gone.go", Right, -1, false},
		{"b/main.go", Right, -1, false},
		{"", Right, -1, false},
	} {
		t.Run(fmt.Sprint(c.path, "/", c.side), func(t *testing.T) {
			f, renamed := ix.FileFor(c.path, c.side)
			if files[f] != c.file || renamed != c.wantRenamed {
				t.Errorf("FileFor(%q, %v) = file %d, renamed %v; want %d, %v", c.path, c.side, files[f], renamed, c.file, c.wantRenamed)
			}
			// A hand-built index (no precomputed lookups) answers the same.
			hand := &Index{Patch: ix.Patch, Files: ix.Files}
			if g, r := hand.FileFor(c.path, c.side); g != f || r != renamed {
				t.Errorf("hand-built FileFor(%q, %v) = %d, %v; want %d, %v", c.path, c.side, files[g], r, c.file, renamed)
			}
		})
	}
	if got, want := ix.Paths(), []string{"lib/old.go", "lib/new.go", "main.go", "gone.go"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Paths: got %q, want %q", got, want)
	}
	if got := (&Index{Files: ix.Files}).Paths(); len(got) != 4 {
		t.Errorf("hand-built Paths: got %q", got)
	}

	f := ix.Files[0]
	for _, c := range []struct {
		side       Side
		n          int
		hunk, line int
	}{
		{Left, 10, 0, 0}, {Right, 10, 0, 0}, {Left, 11, 0, 1}, {Right, 11, 0, 2}, {Right, 12, 0, 3},
		{Left, 12, 0, 4}, {Right, 13, 0, 4},
		{Left, 40, 1, 0}, {Right, 41, 1, 0}, {Left, 41, 1, 1}, {Right, 42, 1, 3},
		{Left, 9, -1, -1}, {Left, 13, -1, -1}, {Right, 14, -1, -1}, {Left, 42, -1, -1}, {Right, 43, -1, -1},
		{Left, 0, -1, -1}, {Right, -5, -1, -1},
	} {
		t.Run(fmt.Sprint(c.side, "/", c.n), func(t *testing.T) {
			h, l, ok := f.Find(c.side, c.n)
			if h != c.hunk || l != c.line || ok != (c.hunk >= 0) {
				t.Errorf("Find(%v, %d) = %d,%d,%v; want %d,%d,%v", c.side, c.n, h, l, ok, c.hunk, c.line, c.hunk >= 0)
			}
		})
	}
	if h, l, ok := ix.Files[1].Find(Left, 1); !ok || h != 0 || l != 0 {
		t.Errorf("main.go Find(LEFT, 1) = %d,%d,%v", h, l, ok)
	}
	if _, _, ok := ix.Files[1].Find(Right, 2); ok {
		t.Errorf("main.go Find(RIGHT, 2): found a line past the image")
	}

	for _, c := range []struct{ pl, file, hunk, line int }{
		{0, -1, -1, -1}, {1, 0, -1, -1}, {6, 0, -1, -1}, {7, 0, 0, -1}, {8, 0, 0, 0}, {12, 0, 0, 4},
		{13, 0, -1, -1}, {14, 0, 1, -1}, {17, 0, 1, 2}, {18, 0, 1, 3}, {19, 1, -1, -1}, {24, 1, 0, 1}, {33, 3, -1, -1},
		{34, -1, -1, -1}, {-1, -1, -1, -1},
	} {
		fi, hi, li, ok := ix.LineAt(c.pl)
		if fi != c.file || hi != c.hunk || li != c.line || ok != (c.line >= 0) {
			t.Errorf("LineAt(%d) = %d,%d,%d,%v; want %d,%d,%d,%v", c.pl, fi, hi, li, ok, c.file, c.hunk, c.line, c.line >= 0)
		}
	}
}

// TestIndexFindUnordered covers hunks that do not ascend: Find must not
// rely on a binary search there.
func TestIndexFindUnordered(t *testing.T) {
	doc := ixArrayDoc(t, []string{"diff --git a/u b/u", "--- a/u", "+++ b/u", "@@ -10 +10 @@", "-a", "+b", "@@ -1 +1 @@", "-c", "+d"})
	ix := BuildIndex(&doc.Review.Patch)
	ixCheck(t, ix)
	f := ix.Files[0]
	for _, c := range []struct{ n, hunk int }{{10, 0}, {1, 1}} {
		for s := Left; s <= Right; s++ {
			if h, l, ok := f.Find(s, c.n); !ok || h != c.hunk || l != int(s) {
				t.Errorf("Find(%v, %d) = %d,%d,%v; want %d,%d,true", s, c.n, h, l, ok, c.hunk, s)
			}
		}
	}
}

// TestIndexFindLargeOneSidedHunks: a miss on a side a hunk does not show
// is rejected by the hunk's span, and a hit near the end of a long hunk
// walks from the end.
func TestIndexFindLargeOneSidedHunks(t *testing.T) {
	lines := []string{"diff --git a/big b/big", "--- a/big", "+++ b/big", "@@ -5,0 +6,5000 @@"}
	for i := 0; i < 5000; i++ {
		lines = append(lines, "+added")
	}
	lines = append(lines, "@@ -100,4000 +5105,4000 @@")
	for i := 0; i < 2000; i++ {
		lines = append(lines, "-removed")
	}
	for i := 0; i < 2000; i++ {
		lines = append(lines, "+added")
	}
	for i := 0; i < 2000; i++ {
		lines = append(lines, " context")
	}
	doc := ixArrayDoc(t, lines)
	ix := BuildIndex(&doc.Review.Patch)
	f := ix.Files[0]
	for _, c := range []struct {
		side       Side
		n          int
		hunk, line int
	}{
		{Left, 6, -1, -1}, {Left, 99, -1, -1}, {Right, 6, 0, 0}, {Right, 5005, 0, 4999}, {Right, 5104, -1, -1},
		{Left, 100, 1, 0}, {Left, 2099, 1, 1999}, {Left, 2100, 1, 4000}, {Left, 4099, 1, 5999}, {Left, 4100, -1, -1},
		{Right, 5105, 1, 2000}, {Right, 9104, 1, 5999}, {Right, 9105, -1, -1},
	} {
		t.Run(fmt.Sprint(c.side, "/", c.n), func(t *testing.T) {
			h, l, ok := f.Find(c.side, c.n)
			if h != c.hunk || l != c.line || ok != (c.hunk >= 0) {
				t.Errorf("Find(%v, %d) = %d,%d,%v; want %d,%d,%v", c.side, c.n, h, l, ok, c.hunk, c.line, c.hunk >= 0)
			}
		})
	}
	// Counting the steps would tie the test to the walk; a thousand
	// lookups that each walked the hunks would still be fast, so check
	// the spans directly instead.
	if got := f.spans[Left]; len(got) != 2 || got[0].last >= got[0].first || got[1] != (imageSpan{100, 4099}) {
		t.Errorf("LEFT spans: got %+v", got)
	}
}

// TestIndexAdversarialCountsDoNotAllocate checks that a header promising
// a billion lines costs what its body costs.
func TestIndexAdversarialCountsDoNotAllocate(t *testing.T) {
	doc := ixArrayDoc(t, []string{"diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1,2147483647 +1,2147483647 @@", " a", "-b", "+c", "@@ -999999999,999999999 +999999999,999999999 @@", " d"})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix := BuildIndex(&doc.Review.Patch)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("indexing allocated %d bytes, want < 64 KiB", n)
	}
	ixCheck(t, ix)
	ixCompare(t, "hunks", ixSignatures(ix).hunks, []string{
		"0@3 -1,2147483647 +1,2147483647: C1/1 R2 A2",
		"0@7 -999999999,999999999 +999999999,999999999: C999999999/999999999",
	})
}

// TestIndexNumbersPast32Bits: a hunk whose lines would be numbered past
// 2^31-1 (DiffLine's 32 bits) ends before the first such line, reported as
// a count mismatch, instead of wrapping around.
func TestIndexNumbersPast32Bits(t *testing.T) {
	doc := ixArrayDoc(t, []string{"--- a/x", "+++ b/x", "@@ -2147483646,4 +1,4 @@", " a", " b", " c", " d"})
	ix := BuildIndex(&doc.Review.Patch)
	ixCheck(t, ix)
	ixCompare(t, "hunks", ixSignatures(ix).hunks, []string{"0@2 -2147483646,4 +1,4: C2147483646/1 C2147483647/2"})
	if len(ix.Problems) != 1 || ix.Problems[0].Code != exchange.CodeHunkCountMismatch {
		t.Errorf("problems: got %v, want one hunk-count-mismatch", ixSignatures(ix).problems)
	}
}

// TestTextPatchLine: a Text's body line j is at "patch line" j, its index
// in the text (its hunk's header is -1), which the search reads it by.
func TestTextPatchLine(t *testing.T) {
	lines := []string{"a := 1", "b := 2", "c := 3"}
	tx := NewText(lines)
	if m, ok := tx.Find([]string{"c := 3"}, 1); !ok || m.Start != 3 || !m.Exact {
		t.Fatalf("Find: got %+v, %v, want line 3 exactly", m, ok)
	}
	h := &tx.f.Hunks[0]
	for j := range h.Lines {
		if got := tx.f.Content(nil, h.PatchLine(j)); h.PatchLine(j) != j || got != lines[j] {
			t.Errorf("line %d: patch line %d, content %q", j, h.PatchLine(j), got)
		}
	}
}

// TestDiffLineKind: a line's kind is what its numbers say and its patch
// line its place in its hunk, so DiffLine stores neither and stays 8 bytes.
func TestDiffLineKind(t *testing.T) {
	if got := reflect.TypeFor[DiffLine]().Size(); got != 8 {
		t.Errorf("DiffLine is %d bytes, want 8", got)
	}
	doc := ixArrayDoc(t, []string{"--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", " a", "-b", "+c", `\ No newline at end of file`})
	ix := BuildIndex(&doc.Review.Patch)
	ixCheck(t, ix)
	got := ix.Files[0].Hunks[0].Lines
	for i, want := range []struct {
		kind     LineKind
		old, new int32
	}{{Context, 1, 1}, {Removed, 2, 0}, {Added, 0, 2}, {NoNewline, 0, 0}} {
		if i >= len(got) || got[i].Kind() != want.kind || got[i].Old != want.old || got[i].New != want.new {
			t.Fatalf("lines: got %+v, want line %d of kind %d numbered %d/%d", got, i, want.kind, want.old, want.new)
		}
	}
	if len(got) != 4 {
		t.Errorf("got %d lines, want 4", len(got))
	}
	if k := (DiffLine{}).Kind(); k != NoNewline {
		t.Errorf("zero DiffLine: got kind %d, want NoNewline", k)
	}
}

// ixBigPatch generates a patch of files files, each with hunks hunks of
// body lines (plus headers).
func ixBigPatch(files, hunks, body int) []string {
	lines := make([]string, 0, files*(4+hunks*(body+1)))
	for f := 0; f < files; f++ {
		name := fmt.Sprintf("pkg/dir%d/file%d.go", f%7, f)
		lines = append(lines, "diff --git a/"+name+" b/"+name, "index 1234567..89abcde 100644", "--- a/"+name, "+++ b/"+name)
		for h := 0; h < hunks; h++ {
			start := 1 + h*(body+20)
			// body-6 context lines, 2 removed, 4 added.
			lines = append(lines, fmt.Sprintf("@@ -%d,%d +%d,%d @@ func f%d() {", start, body-4, start+h*2, body-2, h))
			for i := 0; i < body; i++ {
				switch {
				case i == body/2 || i == body/2+1:
					lines = append(lines, "-\told := value("+fmt.Sprint(i)+")")
				case i >= body/2+2 && i < body/2+6:
					lines = append(lines, "+\tnew := value("+fmt.Sprint(i)+") // changed")
				default:
					lines = append(lines, " \tcontext line number "+fmt.Sprint(i))
				}
			}
		}
	}
	return lines
}

// TestIndexAllocationsDoNotGrowWithLines: the index allocates per file and
// per hunk, not per line.
func TestIndexAllocationsDoNotGrowWithLines(t *testing.T) {
	measure := func(body int) float64 {
		doc := ixArrayDoc(t, ixBigPatch(10, 10, body))
		return testing.AllocsPerRun(3, func() { BuildIndex(&doc.Review.Patch) })
	}
	small, large := measure(10), measure(400)
	if large > small*1.1+10 {
		t.Errorf("allocations grow with hunk size: %v for 10-line hunks, %v for 400-line hunks", small, large)
	}
}

func TestIndexBigPatchIsRight(t *testing.T) {
	lines := ixBigPatch(20, 10, 60)
	doc := ixArrayDoc(t, lines)
	ix := BuildIndex(&doc.Review.Patch)
	ixCheck(t, ix)
	if len(ix.Files) != 20 || len(ix.Problems) != 0 {
		t.Fatalf("got %d files and problems %v, want 20 and none", len(ix.Files), ixSignatures(ix).problems)
	}
}

func BenchmarkBuildIndex(b *testing.B) {
	lines := ixBigPatch(100, 20, 49) // 100 × (4 + 20 × 50) = 100,400 lines
	doc := ixArrayDoc(b, lines)
	p := &doc.Review.Patch
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		BuildIndexSource(p, doc.Text)
	}
	b.ReportMetric(float64(p.LineCount()), "lines")
}

// FuzzBuildIndex feeds arbitrary patch text, split into lines, to the
// index: it must not panic, every index must be in range, numbers must
// ascend per hunk and side, and applying every header-count fix must leave
// a patch whose hunks all match their headers.
func FuzzBuildIndex(f *testing.F) {
	for _, c := range ixCases {
		f.Add(strings.Join(c.lines, "\n"))
	}
	for _, lines := range ixTestdata(f) {
		f.Add(strings.Join(lines, "\n"))
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, src := ixPatchOf(text)
		ix := BuildIndexSource(p, exchange.NewText(src))
		ixCheck(t, ix)
		var edits []exchange.Edit
		for _, d := range ix.Problems {
			if d.Range.Start < 0 || d.Range.End > len(src) || d.Range.Start > d.Range.End {
				t.Fatalf("%s range %v outside %d bytes", d.Code, d.Range, len(src))
			}
			if d.Code == exchange.CodeHunkCountMismatch {
				if len(d.Fixes) != 1 {
					t.Fatalf("hunk-count-mismatch without its fix: %+v", d)
				}
				edits = append(edits, d.Fixes[0].Edits...)
			}
		}
		if len(edits) == 0 {
			return
		}
		fixed, err := exchange.ApplyEdits(src, edits)
		if err != nil {
			t.Fatal(err)
		}
		p2, src2 := ixPatchIn(fixed)
		ix2 := BuildIndexSource(p2, exchange.NewText(src2))
		for _, d := range ix2.Problems {
			if d.Code == exchange.CodeHunkCountMismatch {
				t.Fatalf("after the count fixes: %s at %v in\n%s", d.Message, d.Range, fixed)
			}
		}
		// The fixes change header numbers, never the numbering of lines.
		if a, b := ixLinesOnly(ix), ixLinesOnly(ix2); a != b {
			t.Fatalf("numbering changed by the fixes:\n%s\n%s", a, b)
		}
	})
}

// ixPatchOf makes a patch of text, one line per "\n" and one element
// per line, whatever the text holds: unlike ixArrayDoc, it accepts a
// document with syntax errors (invalid UTF-8 is kept as it is), and a
// final null keeps an empty last line a line rather than the trailing
// empty element.
func ixPatchOf(text string) (*exchange.Patch, []byte) {
	var b strings.Builder
	b.WriteString(`{"leanreview_review": 1, "patch": [`)
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(ixQuote(l) + ", ")
	}
	b.WriteString("null]}")
	return ixPatchIn([]byte(b.String()))
}

// ixPatchIn parses the document src and returns its patch.
func ixPatchIn(src []byte) (*exchange.Patch, []byte) {
	return &exchange.Parse(src).Review.Patch, src
}

func ixLinesOnly(ix *Index) string {
	var b strings.Builder
	for fi, f := range ix.Files {
		for hi := range f.Hunks {
			s := ixHunkSig(fi, &f.Hunks[hi])
			b.WriteString(s[strings.Index(s, ":"):])
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestBuilderHeadIsTextsFirstByte: the builder reads hunk bodies by their
// first byte (head) and the rest by their text, and the two agree on
// every line of the project's reviews, and of each with its patch lines
// ended by a carriage return, as a CRLF diff's are.
func TestBuilderHeadIsTextsFirstByte(t *testing.T) {
	for name, src := range testreviews.Golden(t, "testdata/*.txtar") {
		for _, crlf := range []bool{false, true} {
			if crlf {
				src = []byte(strings.ReplaceAll(string(src), `",`, `\r",`))
			}
			p := &exchange.Parse(src).Review.Patch
			b := builder{p: p, lr: p.NewLineReader(), at: [2]int{-1, -1}}
			for i := range p.LineCount() {
				head, ok := b.head(i)
				text := b.text(i)
				if ok != (text != "") || ok && head != text[0] {
					t.Fatalf("%s (crlf %v), line %d %q: head %q %v, want its first byte", name, crlf, i, text, head, ok)
				}
			}
		}
	}
}

// TestIndexCRLFBlankLine: in a patch written with CRLF line ends, a body
// line that is a carriage return alone is a blank context line whose
// leading space was lost, as a blank line is without the CR.
func TestIndexCRLFBlankLine(t *testing.T) {
	doc := ixArrayDoc(t, []string{"diff --git a/x b/x\r", "--- a/x\r", "+++ b/x\r", "@@ -1,3 +1,3 @@\r", " a\r", "\r", " c\r"})
	ix := BuildIndex(&doc.Review.Patch)
	if len(ix.Problems) != 0 || len(ix.Files) != 1 || len(ix.Files[0].Hunks) != 1 {
		t.Fatalf("got %d files, problems %v; want one file of one hunk and no problem", len(ix.Files), ix.Problems)
	}
	h := ix.Files[0].Hunks[0]
	if len(h.Lines) != 3 || h.Lines[1].Kind() != Context || h.Lines[1].Old != 2 || h.Lines[1].New != 2 {
		t.Fatalf("got body %+v, want 3 lines, the second a context line 2/2", h.Lines)
	}
}
