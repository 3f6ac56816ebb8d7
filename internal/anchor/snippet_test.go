package anchor

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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

func TestSnippetMatches(t *testing.T) {
	lines := func(contents ...string) []DiffLine {
		var out []DiffLine
		for i, c := range contents {
			out = append(out, DiffLine{Kind: Added, New: int32(i + 1), Content: c})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		snippet string
		side    Side
		lines   []DiffLine
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
			if got := SnippetMatches(tc.snippet, tc.side, tc.lines); got != tc.want {
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
	got := SnippetOf([]DiffLine{{Content: "    a := 1\r"}, {Content: "\tb"}})
	if want := "a := 1\nb"; got != want {
		t.Errorf("SnippetOf: got %q, want %q", got, want)
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
