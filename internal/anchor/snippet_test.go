package anchor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func TestNormLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"   ", ""},
		{"\tresult, err := calculate(input)\r", "result, err := calculate(input)"},
		{"a  =   b", "a = b"},
		{"a\t=\tb", "a = b"},
		{"a \t b", "a b"},
		{"x := \"é  à\"", "x := \"é à\""},
		{"nbsp\u00a0\u00a0here", "nbsp here"},
		{"日本語 テキスト", "日本語 テキスト"},
		{"  single space kept ", "single space kept"},
	} {
		if got := normLine(tc.in); got != tc.want {
			t.Errorf("normLine(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNormLineSharesMemory(t *testing.T) {
	in := "\t\treturn fmt.Errorf(\"load: %w\", err)"
	if got := testing.AllocsPerRun(100, func() { _ = normLine(in) }); got != 0 {
		t.Errorf("normLine of an ordinary code line allocates %v times, want 0", got)
	}
}

func TestSnippetVariants(t *testing.T) {
	for _, tc := range []struct {
		snippet string
		side    Side
		want    [][]string
	}{
		{"", Right, nil},
		{"\n  \n", Right, nil},
		{"x := 1", Right, [][]string{{"x := 1"}}},
		{"+x := 1", Right, [][]string{{"x := 1"}, {"+x := 1"}}},
		{"+x := 1", Left, [][]string{{"+x := 1"}}},
		{"-x := 1", Left, [][]string{{"x := 1"}, {"-x := 1"}}},
		{" x := 1", Left, [][]string{{"x := 1"}}},
		{"a\r\n\r\n\r\nb\r\n", Right, [][]string{{"a", "", "b"}}},
		{"\n\na\n", Right, [][]string{{"a"}}},
		{"--flag", Left, [][]string{{"-flag"}, {"--flag"}}},
	} {
		t.Run(fmt.Sprint(tc.side, "/", tc.snippet), func(t *testing.T) {
			got := snippetVariants(tc.snippet, tc.side)
			if !slices.EqualFunc(got, tc.want, slices.Equal[[]string]) {
				t.Errorf("snippetVariants(%q, %s): got %q, want %q", tc.snippet, tc.side, got, tc.want)
			}
		})
	}
}

// handLines returns a file diff whose patch holds a line of kind k per
// content, and its body lines, numbered from 1. A content ending in "\r"
// gets a second one, which the index drops as a CRLF line's.
func handLines(k LineKind, contents ...string) (*exchange.Patch, *FileDiff, []ImageLine) {
	var patch []string
	var body []DiffLine
	var out []ImageLine
	for i, c := range contents {
		if strings.HasSuffix(c, "\r") {
			c += "\r"
		}
		patch = append(patch, ixQuote(string(" +-\\"[k])+c))
		var l DiffLine
		if k == Context || k == Removed {
			l.Old = int32(i + 1)
		}
		if k == Context || k == Added {
			l.New = int32(i + 1)
		}
		body, out = append(body, l), append(out, ImageLine{l, i})
	}
	p, _ := ixPatchIn([]byte(`{"patch": [` + strings.Join(patch, ", ") + `]}`))
	return p, &FileDiff{texts: new(patchTexts), lines: body}, out
}

func TestSnippetMatches(t *testing.T) {
	lines := func(contents ...string) []string { return contents }
	for _, tc := range []struct {
		name    string
		snippet string
		side    Side
		lines   []string
		want    bool
	}{
		{"empty", "", Right, lines("anything"), true},
		{"exact", "result, err := calculate(input)", Right, lines("    result, err := calculate(input)"), true},
		{"part", "calculate(input)", Right, lines("    result, err := calculate(input)"), true},
		{"marker", "+    result, err := calculate(input)", Right, lines("    result, err := calculate(input)"), true},
		{"marker of the other side", "-    result", Right, lines("    result"), false},
		{"line starting with a marker character", "--flag", Left, lines("--flag"), true},
		{"crlf block", "a\r\nb", Right, lines("a", "b"), true},
		{"block part", "x)\ny := 2\nz", Right, lines("f(x)", "y := 2", "z := 3"), true},
		{"block out of order", "b\na", Right, lines("a", "b"), false},
		{"blank runs", "a\n\nb", Right, lines("a", "", "", "", "b"), true},
		{"other text", "nope", Right, lines("yes"), false},
		{"weak but wrong", "}", Right, lines("x"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f, ls := handLines(Added, tc.lines...)
			if got := SnippetMatches(tc.snippet, tc.side, p, f, ls); got != tc.want {
				t.Errorf("%s: SnippetMatches(%q): got %v, want %v", tc.name, tc.snippet, got, tc.want)
			}
		})
	}
}

func TestWeakSnippet(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"}"}, true},
		{[]string{");", "", "}"}, true},
		{[]string{"})", "x"}, false},
		{[]string{"é"}, false},
		{[]string{"0"}, false},
	} {
		t.Run(strings.Join(tc.lines, "|"), func(t *testing.T) {
			if got := weakSnippet(tc.lines); got != tc.want {
				t.Errorf("weakSnippet(%q): got %v, want %v", tc.lines, got, tc.want)
			}
		})
	}
}

func TestSnippetOf(t *testing.T) {
	got := SnippetOf(handLines(Context, "    a := 1\r", "\tb"))
	if want := "a := 1\nb"; got != want {
		t.Errorf("SnippetOf: got %q, want %q", got, want)
	}
}

// TestSnippetOfOneLineIsACopy: the snippet of one line spelt without
// escapes is not a view of the text, which a fix carried over to later
// versions would keep alive.
func TestSnippetOfOneLineIsACopy(t *testing.T) {
	p, f, lines := handLines(Context, "a := 1")
	got := SnippetOf(p, f, lines)
	line := p.LineText(0)
	if got != "a := 1" {
		t.Fatalf("SnippetOf: got %q, want %q", got, "a := 1")
	}
	if at := unsafe.StringData(got); at == unsafe.StringData(line[1:]) {
		t.Errorf("SnippetOf of one line returns the line's own bytes %q: a view of the text", line)
	}
}

func BenchmarkNormLine(b *testing.B) {
	lines := []string{
		"\t\treturn nil, fmt.Errorf(\"validate payload: %w\", err) // close the user (日本語) before encodePayload",
		"\t\t\tif mergeHandler == nil || len(parsePayload) > 752 {",
		"    result, err := calculate(input)",
		"",
	}
	b.SetBytes(int64(len(lines[0]) + len(lines[1]) + len(lines[2])))
	for b.Loop() {
		for _, l := range lines {
			_ = normLine(l)
		}
	}
}

// snippetMatchesRef is SnippetMatches spelt with the slices, as the spec
// reads: the snippet's readings, each equal to or a part of the anchored
// lines normalised (blank runs collapsed), all joined with "\n". It is
// independent of joinSnippet, which production code uses for both.
func snippetMatchesRef(snippet string, side Side, p *exchange.Patch, f *FileDiff, lines []ImageLine) bool {
	var vs [][]string
	if stripped := snippetLinesRef(snippet, side, true); len(stripped) > 0 {
		vs = append(vs, stripped)
		if asIs := snippetLinesRef(snippet, side, false); len(asIs) > 0 && !slices.Equal(asIs, stripped) {
			vs = append(vs, asIs)
		}
	}
	if len(vs) == 0 {
		return true
	}
	anchored := make([]string, 0, len(lines))
	for _, l := range lines {
		anchored = append(anchored, normLine(f.Content(p, l.Patch)))
	}
	a := strings.Join(collapseBlankLines(anchored), "\n")
	for _, v := range vs {
		if s := strings.Join(v, "\n"); s == a || strings.Contains(a, s) {
			return true
		}
	}
	return false
}

// snippetLinesRef is a snippet's reading against side spelt with slices:
// its lines, fitting markers stripped when strip is set, normalised, blank
// runs collapsed, leading and trailing blank lines dropped.
func snippetLinesRef(snippet string, side Side, strip bool) []string {
	snippet = strings.ReplaceAll(snippet, "\r\n", "\n")
	var out []string
	for _, l := range strings.Split(snippet, "\n") {
		if strip && l != "" && markerFits(l[0], side) {
			l = l[1:]
		}
		out = append(out, normLine(l))
	}
	out = collapseBlankLines(out)
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// collapseBlankLines replaces each run of empty lines by one, in place.
func collapseBlankLines(ls []string) []string {
	out := ls[:0]
	for i, l := range ls {
		if l == "" && i > 0 && ls[i-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return out
}

// snippetVariants must give snippetLinesRef's readings.
func TestSnippetVariantsAgreeWithReference(t *testing.T) {
	for _, snip := range []string{"", " \n\t", "+a\n\n\n-b\r\n c", "--flag\n++i", "\n\nx\n\n", "a\r\nb\r", "+x"} {
		for _, side := range []Side{Left, Right} {
			var want [][]string
			if s := snippetLinesRef(snip, side, true); len(s) > 0 {
				want = append(want, s)
				if a := snippetLinesRef(snip, side, false); len(a) > 0 && !slices.Equal(a, s) {
					want = append(want, a)
				}
			}
			if got := snippetVariants(snip, side); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
				t.Errorf("snippetVariants(%q, %v) = %q, want %q", snip, side, got, want)
			}
		}
	}
}

// SnippetMatches must agree with the reference on random snippets and
// lines: markers, CRLF, blank runs, white space, parts of lines.
func TestSnippetMatchesAgreesWithReference(t *testing.T) {
	parts := []string{"a", "b", "ab", " ", "\t", "\n", "\r\n", "\r", "\n\n", "+", "-", " +", "x y", "\u00a0", "é"}
	rng := rand.New(rand.NewPCG(8, 9))
	gen := func(n int) string {
		var b strings.Builder
		for range rng.IntN(n) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	for range 30_000 {
		var contents []string
		for range rng.IntN(5) {
			contents = append(contents, strings.ReplaceAll(gen(6), "\n", ""))
		}
		snippet := gen(8)
		if rng.IntN(3) == 0 && len(contents) > 0 { // a snippet drawn from the lines
			snippet = contents[rng.IntN(len(contents))]
		}
		p, f, lines := handLines(Context, contents...)
		for _, side := range []Side{Left, Right} {
			if got, want := SnippetMatches(snippet, side, p, f, lines), snippetMatchesRef(snippet, side, p, f, lines); got != want {
				t.Fatalf("SnippetMatches(%q, %v, %q) = %v, want %v", snippet, side, contents, got, want)
			}
		}
	}
}

func BenchmarkSnippetMatches(b *testing.B) {
	p, f, lines := handLines(Context, "\tif err := load(ctx, cfg); err != nil {", "\t\treturn fmt.Errorf(\"load: %w\", err)")
	b.ReportAllocs()
	for b.Loop() {
		SnippetMatches("if err := load(ctx, cfg); err != nil {\n  return fmt.Errorf(\"load: %w\", err)", Right, p, f, lines)
	}
}
