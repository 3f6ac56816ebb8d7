package exchange

import (
	"fmt"
	"reflect"
	"testing"
)

// stringNode parses a document holding one string value.
func stringNode(t *testing.T, in string) *Node {
	t.Helper()
	n, _ := ParseJSON([]byte(in))
	if n.Kind != KindString {
		t.Fatalf("ParseJSON(%q) root kind = %v, want string", in, n.Kind)
	}
	return n
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		name string
		in   string // a JSON string: the whole document
		want []Segment
	}{
		{"plain", `"abc"`, []Segment{{"abc", 1, 4}}},
		{"empty", `""`, []Segment{{"", 1, 1}}},
		{"non-ASCII without escapes", `"é中"`, []Segment{{"é中", 1, 6}}},
		{"escape without line feed", `"\ta"`, []Segment{{"\ta", 1, 4}}},
		{"\\n", `"a\nb"`, []Segment{{"a", 1, 2}, {"b", 4, 5}}},
		{"\\u000a", `"a\u000ab"`, []Segment{{"a", 1, 2}, {"b", 8, 9}}},
		{"\\u000A", `"a\u000Ab"`, []Segment{{"a", 1, 2}, {"b", 8, 9}}},
		{"\\r\\n", `"a\r\nb"`, []Segment{{"a", 1, 2}, {"b", 6, 7}}},
		{"\\u000d\\u000a", `"a\u000d\u000ab"`, []Segment{{"a", 1, 2}, {"b", 14, 15}}},
		{"\\r\\u000a", `"a\r\u000ab"`, []Segment{{"a", 1, 2}, {"b", 10, 11}}},
		{"CR only", `"a\rb"`, []Segment{{"a\rb", 1, 5}}},
		{"CR not before LF", `"a\rx\nb"`, []Segment{{"a\rx", 1, 5}, {"b", 7, 8}}},
		{"two CRs before LF drop one", `"a\r\r\nb"`, []Segment{{"a\r", 1, 4}, {"b", 8, 9}}},
		{"trailing \\n", `"a\n"`, []Segment{{"a", 1, 2}}},
		{"trailing \\r\\n", `"a\r\n"`, []Segment{{"a", 1, 2}}},
		{"trailing \\n\\n keeps the empty line", `"a\n\n"`, []Segment{{"a", 1, 2}, {"", 4, 4}}},
		{"only \\n", `"\n"`, []Segment{{"", 1, 1}}},
		{"only \\r\\n", `"\r\n"`, []Segment{{"", 1, 1}}},
		{"leading \\n", `"\na"`, []Segment{{"", 1, 1}, {"a", 3, 4}}},
		{"empty middle line", `"a\n\nb"`, []Segment{{"a", 1, 2}, {"", 4, 4}, {"b", 6, 7}}},
		{"emoji", `"😀\nx"`, []Segment{{"😀", 1, 5}, {"x", 7, 8}}},
		{"escaped emoji", `"\ud83d\ude00\n"`, []Segment{{"😀", 1, 13}}},
		{"\\u00e9 and \\\" escapes", `"\u00e9\n\"q\""`, []Segment{{"é", 1, 7}, {`"q"`, 9, 14}}},
		{"backslash escape", `"a\\n\nb"`, []Segment{{`a\n`, 1, 5}, {"b", 7, 8}}},
		{"diff lines", `"+\tx\n-y\n"`, []Segment{{"+\tx", 1, 5}, {"-y", 7, 9}}},
		{"invalid escape of é", `"\é\nx"`, []Segment{{"é", 1, 4}, {"x", 6, 7}}},
		{"broken \\u escape", `"\u12\nx"`, []Segment{{`\u12`, 1, 5}, {"x", 7, 8}}},
		{"unterminated", `"a\nb`, []Segment{{"a", 1, 2}, {"b", 4, 5}}},
		{"unterminated in an escape", `"a\nb\`, []Segment{{"a", 1, 2}, {"b", 4, 6}}},
		{"unterminated in an escape after a line feed", `"00\n\`, []Segment{{"00", 1, 3}}},
		{"unterminated in the only escape", `"\`, []Segment{{"", 1, 2}}},
		{"unterminated before backslash and line break", "\"a\\nb\\\n", []Segment{{"a", 1, 2}, {"b", 4, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := stringNode(t, tt.in)
			got := lineSegments(NewText([]byte(tt.in)), n)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("lineSegments(%s) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestSourceOffset(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []int // source offset of each decoded offset 0..len(Str), then one past
	}{
		{"plain", `"abc"`, []int{1, 2, 3, 4, 4}},
		{"empty", `""`, []int{1, 1}},
		{"raw é without escapes: inside é is its start", `"é"`, []int{1, 1, 3, 3}},
		{"raw 😀 without escapes", `"😀x"`, []int{1, 1, 1, 1, 5, 6, 6}},
		{"\\n", `"a\nb"`, []int{1, 2, 4, 5, 5}},
		{"\\\"", `"a\"b"`, []int{1, 2, 4, 5, 5}},
		{"\\u00e9: inside é is the escape's start", `"\u00e9x"`, []int{1, 1, 7, 8, 8}},
		{"surrogate pair", `"\ud83d\ude00"`, []int{1, 1, 1, 1, 13, 13}},
		{"raw é after an escape", `"\té"`, []int{1, 3, 3, 5, 5}},
		{"\\r\\n", `"\r\n"`, []int{1, 3, 5, 5}},
		{"invalid escape of é", `"\é"`, []int{1, 1, 4, 4}},
		{"broken \\u escape is one unit", `"\u1"`, []int{1, 1, 3, 4, 4}},
		{"invalid UTF-8 with an escape", "\"\\t\xe4\xb8\"", []int{1, 3, 4, 5, 5}},
		{"invalid UTF-8 without escapes", "\"\xe4\xb8\"", []int{1, 2, 3, 3}},
		{"unterminated", `"ab`, []int{1, 2, 3, 3}},
		{"unterminated in an escape", `"a\`, []int{1, 3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := stringNode(t, tt.in)
			if len(tt.want) != len(n.Str)+2 {
				t.Fatalf("bad test: %d wanted offsets for %d decoded bytes", len(tt.want), len(n.Str))
			}
			var got []int
			for d := range tt.want {
				got = append(got, sourceOffset(NewText([]byte(tt.in)), n, d))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sourceOffset(NewText(%s), 0..%d) = %v, want %v", tt.in, len(tt.want)-1, got, tt.want)
			}
		})
	}
}

// TestSplitLinesInDocument checks ranges of a string that is not at offset 0.
func TestSplitLinesInDocument(t *testing.T) {
	src := []byte(`{"patch": "@@ -1 +1 @@\n-a\n+\u00e9\n"}`)
	root, errs := ParseJSON(src)
	if len(errs) != 0 {
		t.Fatalf("errors = %v, want none", errs)
	}
	var got []string
	for _, s := range lineSegments(NewText(src), root.Member("patch")) {
		got = append(got, fmt.Sprintf("%q %s", s.Text, src[s.Start:s.End]))
	}
	want := []string{`"@@ -1 +1 @@" @@ -1 +1 @@`, `"-a" -a`, `"+é" +\u00e9`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lineSegments = %q, want %q", got, want)
	}
}
