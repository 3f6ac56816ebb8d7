package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

var valueCases = []string{
	`0`, `-0`, `12`, `-12.5e+3`, `1E9`, `0.5`, `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `0x10`,
	`true`, `false`, `null`, `tru`, `nul`, `True`,
	`""`, `"a\"b"`, `"\u00e9"`, `"\u00g9"`, `"\q"`, "\"a\tb\"", `"abc`,
	`{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `{"a" : [1, 2, {"b": null}] }`, `[1,2,3]`,
	`{"a":1,}`, `[1,]`, `[,1]`, `{"a"}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, `[1 2]`,
	`[}`, `{]`, `[[[]]]`, `[[[]]`, `{"a":{"b":{"c":[]}}}`, ` [ 1 , "x" , true ] `,
	``, ` `, `]`, `,`,
}

// TestSkipValueAgreesWithEncodingJSON skips each value and checks that it
// succeeds exactly where encoding/json finds the text valid, ending at the
// value's end.
func TestSkipValueAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range valueCases {
		want := json.Valid([]byte(in))
		end, err := SkipValue([]byte(in), 0, 64)
		got := err == nil && SkipSpace([]byte(in), end) == len(in)
		if got != want {
			t.Errorf("SkipValue(%q): got valid %v (end %d, err %v), want %v", in, got, end, err, want)
		}
	}
}

// TestSkipValueStopsAfterTheValue checks the offset returned when text
// follows the value.
func TestSkipValueStopsAfterTheValue(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{`1,2`, 1}, {` "a" ]`, 4}, {`{"a":[1]} x`, 9}, {`null}`, 4}, {`-1.5e3,`, 6},
	} {
		got, err := SkipValue([]byte(tt.in), 0, 64)
		if err != nil || got != tt.want {
			t.Errorf("SkipValue(%q): got %d, %v, want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestSkipValueDepth(t *testing.T) {
	deep := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	if _, err := SkipValue(deep(64), 0, 64); err != nil {
		t.Errorf("64 levels within 64: got %v, want nil", err)
	}
	_, err := SkipValue(deep(1_000_000), 0, 64)
	if err == nil || !strings.Contains(err.Error(), "at byte 64: nested deeper than 64") {
		t.Errorf("a million levels: got %v, want an error at byte 64", err)
	}
}

func TestNesting(t *testing.T) {
	for _, tt := range []struct {
		in          string
		ok, tooDeep bool
		depth       int
		kept        string
	}{
		{"{[]}", true, false, 0, ""},
		{"{[", true, false, 2, "{["},
		{"{]", false, false, 0, ""},
		{"]", false, false, 0, ""},
		{"[[[[", true, true, 4, "[[["},
		{"[[[[}]]]", true, true, 0, ""}, // beyond the maximum only the count is kept
	} {
		n := NewNesting(3)
		ok := true
		for _, c := range []byte(tt.in) {
			if c == '{' || c == '[' {
				n.Open(c)
			} else if !n.Close(c) {
				ok = false
			}
		}
		if ok != tt.ok || n.TooDeep() != tt.tooDeep || n.Depth() != tt.depth || string(n.Kept()) != tt.kept {
			t.Errorf("%q: got ok %v, too deep %v, depth %d, kept %q; want %v, %v, %d, %q",
				tt.in, ok, n.TooDeep(), n.Depth(), n.Kept(), tt.ok, tt.tooDeep, tt.depth, tt.kept)
		}
	}
}

func FuzzSkipValue(f *testing.F) {
	for _, in := range valueCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !utf8.ValidString(in) {
			return // SkipValue leaves the encoding to the reader of the strings
		}
		end, err := SkipValue([]byte(in), 0, 1000)
		got := err == nil && SkipSpace([]byte(in), end) == len(in)
		if want := json.Valid([]byte(in)); got != want && strings.Count(in, "[")+strings.Count(in, "{") < 1000 {
			t.Errorf("SkipValue(%q): got valid %v, want %v", in, got, want)
		}
	})
}
