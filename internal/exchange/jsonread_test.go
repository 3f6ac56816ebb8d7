package exchange

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// errStrings spells syntax errors as "start-end message" for comparison.
func errStrings(errs []SyntaxError) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = fmt.Sprintf("%d-%d %s", e.Start, e.End, e.Msg)
	}
	return out
}

// walk visits n and its descendants in source order.
func walk(n *Node, f func(*Node)) {
	walkPath(n, func(n *Node, _ []*Node) { f(n) })
}

// walkPath is walk that tells f the nodes from the root down to each.
func walkPath(root *Node, f func(n *Node, path []*Node)) {
	var path []*Node
	var visit func(n *Node)
	visit = func(n *Node) {
		path = append(path, n)
		f(n, path)
		for _, c := range n.Members() {
			visit(c)
		}
		for _, c := range n.Elems() {
			visit(c)
		}
		path = path[:len(path)-1]
	}
	visit(root)
}

// treeStrings spells every node as `"pointer" kind start-end`, followed by
// the key range for members, the decoded value for strings and "closed"
// for closed strings and containers.
func treeStrings(root *Node) []string {
	var out []string
	walk(root, func(n *Node) {
		s := fmt.Sprintf("%q %v %d-%d", n.Pointer(root), n.Kind, n.Start, n.End)
		if n.isMember(root) {
			s += fmt.Sprintf(" key %d-%d", n.KeyStart(), n.KeyEnd())
		}
		if n.Kind == KindString {
			s += fmt.Sprintf(" %q", n.Str)
		}
		if n.Closed {
			s += " closed"
		}
		out = append(out, s)
	})
	return out
}

func diffLists(t *testing.T, what string, got, want []string) {
	t.Helper()
	if reflect.DeepEqual(got, want) || len(got) == 0 && len(want) == 0 {
		return
	}
	t.Errorf("%s:\ngot  %d:\n\t%s\nwant %d:\n\t%s", what, len(got), strings.Join(got, "\n\t"), len(want), strings.Join(want, "\n\t"))
}

func TestParseJSONTree(t *testing.T) {
	tests := []struct {
		name string
		in   string
		tree []string
		errs []string
	}{
		{
			name: "valid",
			in:   `{"a": [1, "x", true, false, null, {}], "b": {}}`,
			tree: []string{
				`"" object 0-47 closed`,
				`"/a" array 6-37 key 1-4 closed`,
				`"/a/0" number 7-8`,
				`"/a/1" string 10-13 "x" closed`,
				`"/a/2" boolean 15-19`,
				`"/a/3" boolean 21-26`,
				`"/a/4" null 28-32`,
				`"/a/5" object 34-36 closed`,
				`"/b" object 44-46 key 39-42 closed`,
			},
		},
		{
			name: "pointer escapes / and ~",
			in:   `{"a/b": {"c~d": [0, {"": 1, "~1/": 2}]}}`,
			tree: []string{
				`"" object 0-40 closed`,
				`"/a~1b" object 8-39 key 1-6 closed`,
				`"/a~1b/c~0d" array 16-38 key 9-14 closed`,
				`"/a~1b/c~0d/0" number 17-18`,
				`"/a~1b/c~0d/1" object 20-37 closed`,
				`"/a~1b/c~0d/1/" number 25-26 key 21-23`,
				`"/a~1b/c~0d/1/~01~1" number 35-36 key 28-33`,
			},
		},
		{
			name: "missing comma between members",
			in:   `{"a": 1 "b": 2}`,
			tree: []string{
				`"" object 0-15 closed`,
				`"/a" number 6-7 key 1-4`,
				`"/b" number 13-14 key 8-11`,
			},
			errs: []string{`8-9 missing ',' between members`},
		},
		{
			name: "missing comma between elements",
			in:   `[1 "x"]`,
			tree: []string{
				`"" array 0-7 closed`,
				`"/0" number 1-2`,
				`"/1" string 3-6 "x" closed`,
			},
			errs: []string{`3-4 missing ',' between array elements`},
		},
		{
			name: "missing colon",
			in:   `{"a" 1}`,
			tree: []string{`"" object 0-7 closed`, `"/a" number 5-6 key 1-4`},
			errs: []string{`1-4 missing ':' after member name "a"`},
		},
		{
			name: "missing colon before a string",
			in:   `{"a" "b"}`,
			tree: []string{`"" object 0-9 closed`, `"/a" invalid value 4-4 key 1-4`, `"/b" invalid value 8-8 key 5-8`},
			errs: []string{
				`1-4 missing ':' after member name "a"`,
				`5-6 missing ',' between members`,
				`5-8 missing ':' after member name "b"`,
			},
		},
		{
			name: "missing value before }",
			in:   `{"a": }`,
			tree: []string{`"" object 0-7 closed`, `"/a" invalid value 6-6 key 1-4`},
			errs: []string{`1-4 member "a" has no value`},
		},
		{
			name: "missing value before ,",
			in:   `{"a":,"b":1}`,
			tree: []string{`"" object 0-12 closed`, `"/a" invalid value 5-5 key 1-4`, `"/b" number 10-11 key 6-9`},
			errs: []string{`1-4 member "a" has no value`},
		},
		{
			name: "unquoted key",
			in:   `{a: 1}`,
			tree: []string{`"" object 0-6 closed`, `"/a" number 4-5 key 1-2`},
			errs: []string{`1-2 member names need double quotes`},
		},
		{
			name: "single-quoted string",
			in:   `{"a": 'x', "b": 1}`,
			tree: []string{`"" object 0-18 closed`, `"/a" invalid value 6-9 key 1-4`, `"/b" number 16-17 key 11-14`},
			errs: []string{`6-7 strings need double quotes, not single quotes`},
		},
		{
			name: "unterminated single-quoted string ends at the line end",
			in:   "{\"a\": 'x\n}",
			tree: []string{`"" object 0-10 closed`, `"/a" invalid value 6-8 key 1-4`},
			errs: []string{`6-7 strings need double quotes, not single quotes`},
		},
		{
			name: "unterminated string ends at the end of its line",
			in:   "{\"a\": \"b\n, \"c\": 1}",
			tree: []string{`"" object 0-18 closed`, `"/a" string 6-8 key 1-4 "b"`, `"/c" number 16-17 key 11-14`},
			errs: []string{`6-8 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`},
		},
		{
			name: "unterminated string before a backslash and a line break",
			in:   "{\"a\": \"b\\\n\"c\": 1}",
			tree: []string{`"" object 0-17 closed`, `"/a" string 6-9 key 1-4 "b"`, `"/c" number 15-16 key 10-13`},
			errs: []string{
				`6-9 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`,
				`10-11 missing ',' between members`,
			},
		},
		{
			name: "mismatched brackets close both containers",
			in:   `{"a": [1, 2}`,
			tree: []string{
				`"" object 0-12 closed`,
				`"/a" array 6-11 key 1-4`,
				`"/a/0" number 7-8`,
				`"/a/1" number 10-11`,
			},
			errs: []string{`11-12 unexpected '}': expected ']' to close the array opened at line 1`},
		},
		{
			name: "object closed by the array's ]",
			in:   `[{"a": 1]`,
			tree: []string{`"" array 0-9 closed`, `"/0" object 1-8`, `"/0/a" number 7-8 key 2-5`},
			errs: []string{`8-9 unexpected ']': expected '}' to close the object opened at line 1`},
		},
		{
			name: "stray ] inside an object is skipped",
			in:   `{"a": {"b": 1]}}`,
			tree: []string{`"" object 0-16 closed`, `"/a" object 6-15 key 1-4 closed`, `"/a/b" number 12-13 key 7-10`},
			errs: []string{`13-14 unexpected ']': expected '}' to close the object opened at line 1`},
		},
		{
			name: "stray } inside an array is skipped",
			in:   `[}]`,
			tree: []string{`"" array 0-3 closed`},
			errs: []string{`1-2 unexpected '}': expected ']' to close the array opened at line 1`},
		},
		{
			name: "opener's line in messages",
			in:   "{\n  \"a\": [1,\r\n  2\r}",
			tree: []string{`"" object 0-19 closed`, `"/a" array 9-18 key 4-7`, `"/a/0" number 10-11`, `"/a/1" number 16-17`},
			errs: []string{`18-19 unexpected '}': expected ']' to close the array opened at line 2`},
		},
		{
			name: "unclosed containers at end of input",
			in:   `{"a": [1, 2`,
			tree: []string{`"" object 0-11`, `"/a" array 6-11 key 1-4`, `"/a/0" number 7-8`, `"/a/1" number 10-11`},
			errs: []string{
				`10-11 unexpected end of input: missing ']' for the array opened at line 1`,
				`10-11 unexpected end of input: missing '}' for the object opened at line 1`,
			},
		},
		{
			name: "end of input error covers a whole multi-byte last character",
			in:   `{"a": "é`,
			tree: []string{`"" object 0-9`, `"/a" string 6-9 key 1-4 "é"`},
			errs: []string{
				`6-9 unterminated string`,
				`7-9 unexpected end of input: missing '}' for the object opened at line 1`,
			},
		},
		{
			name: "end of input after a colon",
			in:   `{"a":`,
			tree: []string{`"" object 0-5`, `"/a" invalid value 5-5 key 1-4`},
			errs: []string{
				`4-5 unexpected end of input: expected a value`,
				`4-5 unexpected end of input: missing '}' for the object opened at line 1`,
			},
		},
		{
			name: "end of input after a key",
			in:   `{"a"`,
			tree: []string{`"" object 0-4`, `"/a" invalid value 4-4 key 1-4`},
			errs: []string{
				`1-4 missing ':' after member name "a"`,
				`3-4 unexpected end of input: missing '}' for the object opened at line 1`,
			},
		},
		{
			name: "lone opener",
			in:   `[`,
			tree: []string{`"" array 0-1`},
			errs: []string{`0-1 unexpected end of input: missing ']' for the array opened at line 1`},
		},
		{
			name: "trailing whitespace before end of input",
			in:   "[1,\n",
			tree: []string{`"" array 0-4`, `"/0" number 1-2`},
			errs: []string{`3-4 unexpected end of input: missing ']' for the array opened at line 1`},
		},
		{
			name: "byte-order mark",
			in:   "\xef\xbb\xbf{\"a\":1}",
			tree: []string{`"" object 3-10 closed`, `"/a" number 8-9 key 4-7`},
		},
		{
			name: "byte-order mark only",
			in:   "\xef\xbb\xbf",
			tree: []string{`"" invalid value 3-3`},
			errs: []string{`0-3 empty document: expected a JSON object`},
		},
		{
			name: "empty document",
			in:   ``,
			tree: []string{`"" invalid value 0-0`},
			errs: []string{`0-0 empty document: expected a JSON object`},
		},
		{
			name: "blank document",
			in:   " \n\t",
			tree: []string{`"" invalid value 3-3`},
			errs: []string{`2-3 empty document: expected a JSON object`},
		},
		{
			name: "content after the document",
			in:   `{"a":1} x`,
			tree: []string{`"" object 0-7 closed`, `"/a" number 5-6 key 1-4`},
			errs: []string{`8-9 unexpected "x" after the end of the document`},
		},
		{
			name: "second document after the first",
			in:   `{} {"b":[2]}`,
			tree: []string{`"" object 0-2 closed`},
			errs: []string{
				`3-4 unexpected '{' after the end of the document`,
				`4-7 unexpected string after the end of the document`,
				`7-8 unexpected ':' after the end of the document`,
				`8-9 unexpected '[' after the end of the document`,
				`9-10 unexpected "2" after the end of the document`,
				`10-11 unexpected ']' after the end of the document`,
				`11-12 unexpected '}' after the end of the document`,
			},
		},
		{
			name: "duplicate keys are all kept",
			in:   `{"a": 1, "a": 2}`,
			tree: []string{`"" object 0-16 closed`, `"/a" number 6-7 key 1-4`, `"/a" number 14-15 key 9-12`},
		},
		{
			name: "scalar root",
			in:   ` "x" `,
			tree: []string{`"" string 1-4 "x" closed`},
		},
		{
			name: "bare words",
			in:   `[tru, nul, true, false, null, foo, $x]`,
			tree: []string{
				`"" array 0-38 closed`,
				`"/0" invalid value 1-4`,
				`"/1" invalid value 6-9`,
				`"/2" boolean 11-15`,
				`"/3" boolean 17-22`,
				`"/4" null 24-28`,
				`"/5" invalid value 30-33`,
				`"/6" invalid value 35-37`,
			},
			errs: []string{
				`1-4 unexpected "tru": expected a value (strings need double quotes)`,
				`6-9 unexpected "nul": expected a value (strings need double quotes)`,
				`30-33 unexpected "foo": expected a value (strings need double quotes)`,
				`35-37 unexpected "$x": expected a value (strings need double quotes)`,
			},
		},
		{
			name: "stray punctuation as a value",
			in:   `{"k": #, "l": [@]}`,
			tree: []string{`"" object 0-18 closed`, `"/k" invalid value 6-7 key 1-4`, `"/l" array 14-17 key 9-12 closed`, `"/l/0" invalid value 15-16`},
			errs: []string{`6-7 unexpected '#': expected a value`, `15-16 unexpected '@': expected a value`},
		},
		{
			name: "stray colon in an array",
			in:   `[:]`,
			tree: []string{`"" array 0-3 closed`, `"/0" invalid value 1-1`},
			errs: []string{`1-2 unexpected ':': expected a value`},
		},
		{
			name: "colon between elements",
			in:   `[1:2]`,
			tree: []string{`"" array 0-5 closed`, `"/0" number 1-2`, `"/1" number 3-4`},
			errs: []string{`2-3 unexpected ':': expected ',' or ']'`},
		},
		{
			name: "junk after a member",
			in:   `{"a":1 @, "b":2}`,
			tree: []string{`"" object 0-16 closed`, `"/a" number 5-6 key 1-4`, `"/b" number 14-15 key 10-13`},
			errs: []string{`7-8 unexpected '@': expected ',' or '}'`},
		},
		{
			name: "junk after an element",
			in:   `[1 @, 2]`,
			tree: []string{`"" array 0-8 closed`, `"/0" number 1-2`, `"/1" number 6-7`},
			errs: []string{`3-4 unexpected '@': expected ',' or ']'`},
		},
		{
			name: "junk before a closer",
			in:   `[1 @]`,
			tree: []string{`"" array 0-5 closed`, `"/0" number 1-2`},
			errs: []string{`3-4 unexpected '@': expected ',' or ']'`},
		},
		{
			name: "junk and a trailing comma",
			in:   `{"a":1 @,}`,
			tree: []string{`"" object 0-10 closed`, `"/a" number 5-6 key 1-4`},
			errs: []string{`7-8 unexpected '@': expected ',' or '}'`, `8-9 trailing comma before '}'`},
		},
		{
			name: "number key",
			in:   `{1:2}`,
			tree: []string{`"" object 0-5 closed`, `"/1" number 3-4 key 1-2`},
			errs: []string{`1-2 member names need double quotes`},
		},
		{
			name: "empty containers",
			in:   `[[], {}, [{}]]`,
			tree: []string{`"" array 0-14 closed`, `"/0" array 1-3 closed`, `"/1" object 5-7 closed`, `"/2" array 9-13 closed`, `"/2/0" object 10-12 closed`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, errs := ParseJSON([]byte(tt.in))
			diffLists(t, fmt.Sprintf("tree of %q", tt.in), treeStrings(root), tt.tree)
			diffLists(t, fmt.Sprintf("errors of %q", tt.in), errStrings(errs), tt.errs)
		})
	}
}

// TestParseJSONErrors covers recovery paths whose tree is uninteresting.
func TestParseJSONErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"trailing comma in object", `{"a": 1,}`, []string{`7-8 trailing comma before '}'`}},
		{"trailing comma in array", `[1, 2,]`, []string{`5-6 trailing comma before ']'`}},
		{"trailing comma after space", `[1 ,]`, []string{`3-4 trailing comma before ']'`}},
		{"leading comma in object", `{,"a":1}`, []string{`1-2 unexpected ',': expected a member name`}},
		{"double comma in array", `[1,,2]`, []string{`3-4 unexpected ',': expected a value`}},
		{"leading comma in array", `[,1]`, []string{`1-2 unexpected ',': expected a value`}},
		{"stray closer as the document", `}`, []string{
			`0-1 unexpected '}': expected a value`,
			`0-1 unexpected '}' after the end of the document`,
		}},
		{"extra closer", `[1]]`, []string{`3-4 unexpected ']' after the end of the document`}},
		{"double colon", `{"a"::1}`, []string{
			`5-6 unexpected ':': expected a value`,
			`5-6 unexpected ':': expected ',' or '}'`,
			`6-7 member names need double quotes`,
			`6-7 missing ':' after member name "1"`,
		}},
		{"missing comma before an unquoted key", `{"a":1 b:2}`, []string{
			`7-8 unexpected "b": expected ',' or '}'`,
			`8-9 member names need double quotes`,
			`8-9 missing ':' after member name ":"`,
		}},
		{"invalid byte as a value", "[\xff]", []string{`1-2 unexpected byte 0xff: expected a value`}},
		{"non-ASCII character as a value", "[é]", []string{`1-3 unexpected 'é': expected a value`}},
		{"long bare word is cut in the message", `[abcdefghijklmnopqrstuvwxyz]`, []string{
			`1-27 unexpected "abcdefghijklmnopqrst": expected a value (strings need double quotes)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := ParseJSON([]byte(tt.in))
			diffLists(t, fmt.Sprintf("errors of %q", tt.in), errStrings(errs), tt.want)
		})
	}
}

func TestParseJSONStrings(t *testing.T) {
	tests := []struct {
		name   string
		in     string // the whole document: one string value
		end    int
		str    string
		escape bool
		closed bool
		errs   []string
	}{
		{"plain", `"abc"`, 5, "abc", false, true, nil},
		{"empty", `""`, 2, "", false, true, nil},
		{"non-ASCII", `"é中😀"`, 11, "é中😀", false, true, nil},
		{"DEL is allowed", "\"\x7f\"", 3, "\x7f", false, true, nil},
		{"simple escapes", `"\"\\\/\b\f\n\r\t"`, 18, "\"\\/\b\f\n\r\t", true, true, nil},
		{"\\u escape", `"\u00e9"`, 8, "é", true, true, nil},
		{"\\u escape upper case", `"\u00E9\u4E2D"`, 14, "é中", true, true, nil},
		{"\\u escape of a quote", `"\u0022"`, 8, `"`, true, true, nil},
		{"\\u0000", `"\u0000"`, 8, "\x00", true, true, nil},
		{"surrogate pair", `"\ud83d\ude00"`, 14, "😀", true, true, nil},
		{"surrogate pair upper case", `"\uD83D\uDE00x"`, 15, "😀x", true, true, nil},
		{"lone high surrogate", `"\ud800"`, 8, "\uFFFD", true, true, nil},
		{"lone low surrogate", `"\udc00x"`, 9, "\uFFFDx", true, true, nil},
		{"high surrogate then letter", `"\ud800x"`, 9, "\uFFFDx", true, true, nil},
		{"high surrogate then BMP escape", `"\ud800\u0041"`, 14, "\uFFFDA", true, true, nil},
		{"two high surrogates", `"\ud800\ud800"`, 14, "\uFFFD\uFFFD", true, true, nil},
		{"low then high surrogate", `"\udc00\ud800"`, 14, "\uFFFD\uFFFD", true, true, nil},
		{"high surrogate then broken escape", `"\ud800\u12"`, 12, "\uFFFD\\u12", true, true, []string{
			`7-11 invalid \u escape: expected four hexadecimal digits`,
		}},
		{"short \\u escape", `"\u12"`, 6, `\u12`, true, true, []string{`1-5 invalid \u escape: expected four hexadecimal digits`}},
		{"\\u escape without digits", `"\uZZZZ"`, 8, `\uZZZZ`, true, true, []string{`1-3 invalid \u escape: expected four hexadecimal digits`}},
		{"\\u escape with a bad digit", `"\u12G4"`, 8, `\u12G4`, true, true, []string{`1-5 invalid \u escape: expected four hexadecimal digits`}},
		{"invalid escape", `"a\qb"`, 6, "aqb", true, true, []string{`2-4 invalid escape "\\q"`}},
		{"escaped single quote", `"\'"`, 4, "'", true, true, []string{`1-3 invalid escape "\\'"`}},
		{"escaped non-ASCII", `"\é"`, 5, "é", true, true, []string{`1-4 invalid escape "\\é"`}},
		{"escaped control character", "\"\\\x01\"", 4, "\x01", true, true, []string{`1-3 invalid escape "\\\x01"`}},
		{"raw control character", "\"a\x01b\"", 5, "a\x01b", false, true, []string{`2-3 raw control character U+0001 inside a string; write it as an escape`}},
		{"raw tab", "\"a\tb\"", 5, "a\tb", false, true, []string{`2-3 raw control character U+0009 inside a string; write it as an escape`}},
		{"raw control after an escape", "\"\\n\x1f\"", 5, "\n\x1f", true, true, []string{`3-4 raw control character U+001F inside a string; write it as an escape`}},
		{"invalid UTF-8", "\"a\xffb\"", 5, "a\xffb", false, true, []string{`2-3 invalid UTF-8 byte 0xff inside a string`}},
		{"truncated UTF-8 sequence", "\"\xe4\xb8\"", 4, "\xe4\xb8", false, true, []string{
			`1-2 invalid UTF-8 byte 0xe4 inside a string`,
			`2-3 invalid UTF-8 byte 0xb8 inside a string`,
		}},
		{"UTF-8 encoded surrogate", "\"\xed\xa0\x80\"", 5, "\xed\xa0\x80", false, true, []string{
			`1-2 invalid UTF-8 byte 0xed inside a string`,
			`2-3 invalid UTF-8 byte 0xa0 inside a string`,
			`3-4 invalid UTF-8 byte 0x80 inside a string`,
		}},
		{"unterminated at end of input", `"abc`, 4, "abc", false, false, []string{`0-4 unterminated string`}},
		{"unterminated non-ASCII at end of input", `"é`, 3, "é", false, false, []string{`0-3 unterminated string`}},
		{"unterminated after an escape", `"a\n`, 4, "a\n", true, false, []string{`0-4 unterminated string`}},
		{"unterminated in an escape", `"a\`, 3, "a", true, false, []string{`0-3 unterminated string`}},
		{"unterminated in a \\u escape", `"a\u00`, 6, `a\u00`, true, false, []string{
			`2-6 invalid \u escape: expected four hexadecimal digits`,
			`0-6 unterminated string`,
		}},
		{"unterminated at LF", "\"abc\n", 4, "abc", false, false, []string{`0-4 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`}},
		{"unterminated at CRLF", "\"abc\r\n", 4, "abc", false, false, []string{`0-4 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`}},
		{"unterminated at CR", "\"abc\r", 4, "abc", false, false, []string{`0-4 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`}},
		{"unterminated at backslash LF", "\"a\\\n", 3, "a", true, false, []string{`0-3 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`}},
		{"unterminated at backslash CR", "\"a\\\r", 3, "a", true, false, []string{`0-3 unterminated string (a raw line break cannot appear inside a JSON string; write \n)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, errs := ParseJSON([]byte(tt.in))
			if n.Kind != KindString {
				t.Fatalf("ParseJSON(%q) root kind = %v, want string", tt.in, n.Kind)
			}
			if n.Start != 0 || n.End != tt.end {
				t.Errorf("ParseJSON(%q) range = %d-%d, want 0-%d", tt.in, n.Start, n.End, tt.end)
			}
			if n.Str != tt.str {
				t.Errorf("ParseJSON(%q).Str = %q, want %q", tt.in, n.Str, tt.str)
			}
			if n.Escape != tt.escape {
				t.Errorf("ParseJSON(%q).Escape = %v, want %v", tt.in, n.Escape, tt.escape)
			}
			if n.Closed != tt.closed {
				t.Errorf("ParseJSON(%q).Closed = %v, want %v", tt.in, n.Closed, tt.closed)
			}
			diffLists(t, fmt.Sprintf("errors of %q", tt.in), errStrings(errs), tt.errs)
		})
	}
}

func TestParseJSONNumbers(t *testing.T) {
	tests := []struct {
		in      string
		kind    Kind
		end     int
		err     string
		wantInt int
		isInt   bool
	}{
		{"0", KindNumber, 1, "", 0, true},
		{"-0", KindNumber, 2, "", 0, true},
		{"72", KindNumber, 2, "", 72, true},
		{"-3", KindNumber, 2, "", -3, true},
		{"72.0", KindNumber, 4, "", 72, true},
		{"7.2e1", KindNumber, 5, "", 72, true},
		{"720E-1", KindNumber, 6, "", 72, true},
		{"1e+2", KindNumber, 4, "", 100, true},
		{"1e05", KindNumber, 4, "", 100000, true},
		{"72.5", KindNumber, 4, "", 0, false},
		{"1.5e-3", KindNumber, 6, "", 0, false},
		{"9007199254740993", KindNumber, 16, "", 9007199254740993, true},
		{"1e20", KindNumber, 4, "", 0, false},
		{"1e400", KindNumber, 5, "", 0, false},
		{"01", KindInvalid, 2, `0-2 invalid number "01"`, 0, false},
		{"-01", KindInvalid, 3, `0-3 invalid number "-01"`, 0, false},
		{"1.", KindInvalid, 2, `0-2 invalid number "1."`, 0, false},
		{"-", KindInvalid, 1, `0-1 invalid number "-"`, 0, false},
		{"1e", KindInvalid, 2, `0-2 invalid number "1e"`, 0, false},
		{"1e+", KindInvalid, 3, `0-3 invalid number "1e+"`, 0, false},
		{"1.e5", KindInvalid, 4, `0-4 invalid number "1.e5"`, 0, false},
		{"-a", KindInvalid, 2, `0-2 invalid number "-a"`, 0, false},
		{"12abc", KindInvalid, 5, `0-5 invalid number "12abc"`, 0, false},
		{"1-2", KindInvalid, 3, `0-3 invalid number "1-2"`, 0, false},
		{"1.2.3", KindInvalid, 5, `0-5 invalid number "1.2.3"`, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			src := []byte(tt.in)
			n, errs := ParseJSON(src)
			if n.Kind != tt.kind || n.Start != 0 || n.End != tt.end {
				t.Errorf("ParseJSON(%q) = %v %d-%d, want %v 0-%d", tt.in, n.Kind, n.Start, n.End, tt.kind, tt.end)
			}
			var want []string
			if tt.err != "" {
				want = []string{tt.err}
			}
			diffLists(t, fmt.Sprintf("errors of %q", tt.in), errStrings(errs), want)
			if v, ok := n.Int(NewText(src)); v != tt.wantInt || ok != tt.isInt {
				t.Errorf("Int(%q) = %d, %v, want %d, %v", tt.in, v, ok, tt.wantInt, tt.isInt)
			}
		})
	}
}

func TestNodeIntOfNonNumbers(t *testing.T) {
	src := []byte(`["72", true, null]`)
	root, _ := ParseJSON(src)
	for _, n := range append(root.Elems(), root, nil) {
		if v, ok := n.Int(NewText(src)); v != 0 || ok {
			t.Errorf("Int(%v) = %d, %v, want 0, false", n, v, ok)
		}
	}
}

func TestNodeMember(t *testing.T) {
	src := []byte(`{"a": 1, "b": {"c": true}, "a": 2, "": 3, "d": [4]}`)
	root, errs := ParseJSON(src)
	if len(errs) != 0 {
		t.Fatalf("ParseJSON errors = %v, want none", errs)
	}
	tests := []struct {
		name string
		of   *Node
		key  string
		want string // source text of the value, "<nil>" for none
	}{
		{"last duplicate wins", root, "a", "2"},
		{"object value", root, "b", `{"c": true}`},
		{"empty key", root, "", "3"},
		{"missing", root, "z", "<nil>"},
		{"nested", root.Member("b"), "c", "true"},
		{"not an object", root.Member("d"), "0", "<nil>"},
		{"nil node", nil, "a", "<nil>"},
		{"case-sensitive", root, "A", "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := "<nil>"
			if m := tt.of.Member(tt.key); m != nil {
				got = string(src[m.Start:m.End])
			}
			if got != tt.want {
				t.Errorf("%s: Member(%q) = %s, want %s", tt.name, tt.key, got, tt.want)
			}
		})
	}
	if !root.Member("a").isMember(root) || root.isMember(root) || root.Member("d").Elems()[0].isMember(root) {
		t.Errorf("isMember: got member=%v root=%v element=%v, want true false false",
			root.Member("a").isMember(root), root.isMember(root), root.Member("d").Elems()[0].isMember(root))
	}
}

func TestNodeValue(t *testing.T) {
	src := []byte(`{"a": [1, -2.5e3, "x\u00e9", true, false, null, {}], "b": {"c": []}, "d": 'x', "a2": 1, "a2": 2}`)
	root, _ := ParseJSON(src)
	got := root.Value(NewText(src))
	want := map[string]any{
		"a":  []any{json.Number("1"), json.Number("-2.5e3"), "xé", true, false, nil, map[string]any{}},
		"b":  map[string]any{"c": []any{}},
		"d":  nil,
		"a2": json.Number("2"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Value() = %#v, want %#v", got, want)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{
		KindInvalid: "invalid value", KindObject: "object", KindArray: "array", KindString: "string",
		KindNumber: "number", KindBool: "boolean", KindNull: "null", Kind(99): "invalid value",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// within fails the test if f does not return within d: the reader must
// stay linear on hostile input.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

func TestParseJSONDepth(t *testing.T) {
	deepest := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if _, errs := ParseJSON([]byte(deepest)); len(errs) != 0 {
		t.Errorf("%d nested arrays: errors = %v, want none", maxDepth, errStrings(errs))
	}

	tooDeep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	root, errs := ParseJSON([]byte(tooDeep))
	diffLists(t, "errors of one level too deep", errStrings(errs), []string{
		fmt.Sprintf("%d-%d nesting deeper than %d levels", maxDepth, maxDepth+1, maxDepth),
	})
	n := root
	for len(n.Elems()) > 0 {
		n = n.Elems()[0]
	}
	if n.Kind != KindInvalid || n.Start != maxDepth || n.End != maxDepth+2 {
		t.Errorf("too deep node = %v %d-%d, want invalid value %d-%d", n.Kind, n.Start, n.End, maxDepth, maxDepth+2)
	}
	if !root.Closed || root.End != len(tooDeep) {
		t.Errorf("root = %d-%d closed %v, want 0-%d closed", root.Start, root.End, root.Closed, len(tooDeep))
	}

	bombs := []struct {
		name, unit string
		depthErr   int // offset of the container that is too deep
	}{
		{"arrays", "[", maxDepth},
		{"objects", `{"a":`, maxDepth * 5},
		{"mixed", `[{"a":`, maxDepth / 2 * 6},
	}
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			src := []byte(strings.Repeat(b.unit, 100000))
			var errs []SyntaxError
			within(t, 5*time.Second, func() { _, errs = ParseJSON(src) })
			if len(errs) != maxSyntaxErrors {
				t.Fatalf("got %d errors, want %d", len(errs), maxSyntaxErrors)
			}
			want := fmt.Sprintf("%d-%d nesting deeper than %d levels", b.depthErr, b.depthErr+1, maxDepth)
			if got := errStrings(errs)[0]; got != want {
				t.Errorf("first error = %s, want %s", got, want)
			}
			last := len(src) - 1
			if e := errs[1]; e.Start != last || e.End != last+1 || !strings.HasPrefix(e.Msg, "unexpected end of input: missing") {
				t.Errorf("second error = %d-%d %s, want %d-%d unexpected end of input: missing ...", e.Start, e.End, e.Msg, last, last+1)
			}
		})
	}
}

func TestParseJSONErrorCap(t *testing.T) {
	src := []byte("[" + strings.Repeat("@,", 5000) + "]")
	var errs []SyntaxError
	within(t, 5*time.Second, func() { _, errs = ParseJSON(src) })
	if len(errs) != maxSyntaxErrors {
		t.Fatalf("got %d errors, want %d", len(errs), maxSyntaxErrors)
	}
	if got, want := errStrings(errs[maxSyntaxErrors-2:]), []string{
		fmt.Sprintf("%d-%d unexpected '@': expected a value", 2*maxSyntaxErrors-3, 2*maxSyntaxErrors-2),
		fmt.Sprintf("%d-%d too many syntax errors; stopped reporting here", 2*maxSyntaxErrors-1, 2*maxSyntaxErrors),
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("last errors = %q, want %q", got, want)
	}
}

// TestParseJSONLinearTime feeds inputs whose errors each name a distant
// opener's line: the line must not be recounted from the start each time.
func TestParseJSONLinearTime(t *testing.T) {
	const n = 300000
	inputs := map[string]string{
		"stray braces in an array":    strings.Repeat("\n", n) + "[" + strings.Repeat("}", n),
		"stray brackets in an object": strings.Repeat("\n", n) + "{" + strings.Repeat("]", n),
		"deep unclosed containers":    strings.Repeat("\n", n) + strings.Repeat("[", maxDepth) + strings.Repeat(" ", n),
		"many stray tokens after":     "{}" + strings.Repeat("]", n),
		"many strings after":          "{}" + strings.Repeat(`"a"`, n),
		"many bare words":             "[" + strings.Repeat("x ", n) + "]",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			within(t, 5*time.Second, func() { ParseJSON([]byte(in)) })
		})
	}
}

// TestParseJSONAgreesWithEncodingJSON checks valid documents against the
// standard library, the same property FuzzParseJSON checks at random.
func TestParseJSONAgreesWithEncodingJSON(t *testing.T) {
	docs := []string{
		`{}`,
		`[]`,
		`0`,
		`-0.0e-0`,
		`"x"`,
		`null`,
		` {"a" : [ 1 , 2.5 , -3e+2 , 4E-1 ] ,"b":{"c":{}}} `,
		"\t{\r\n\"a\":\ttrue}\n",
		`{"a": 1, "a": {"b": 2}}`,
		`{"": "", "\u0000": "\u0000", "a\"b": "c\\d"}`,
		`["\ud83d\ude00", "\ud800", "\udc00", "\ud800\u0041", "\ud800\ud800", "\uDBFF\uDFFF"]`,
		`["\/\b\f\n\r\t", "\u00e9\u4E2D", "é中😀", "\u2028\u2029", "` + "\x7f" + `"]`,
		`[12345678901234567890123, 1e400, -1e-400, 0.000001]`,
		`{"leanreview_review": 1, "patch": ["a\nb", ""], "comments": []}`,
		strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
		strings.Repeat(`{"a":`, maxDepth) + "1" + strings.Repeat("}", maxDepth),
	}
	for _, doc := range docs {
		if !json.Valid([]byte(doc)) {
			t.Fatalf("bad test: %q is not valid JSON", doc)
		}
		root, errs := ParseJSON([]byte(doc))
		if len(errs) != 0 {
			t.Errorf("ParseJSON(%q) errors = %v, want none", doc, errStrings(errs))
			continue
		}
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := root.Value(NewText([]byte(doc))); !reflect.DeepEqual(got, want) {
			t.Errorf("Value(%q) = %#v, want %#v", doc, got, want)
		}
		walk(root, func(n *Node) {
			if (n.Kind == KindString || n.Kind == KindObject || n.Kind == KindArray) && !n.Closed {
				t.Errorf("%q: %v at %d-%d not closed", doc, n.Kind, n.Start, n.End)
			}
		})
	}
}
