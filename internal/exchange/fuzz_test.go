package exchange

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are inputs that reach the reader's recovery paths; every
// fuzzer starts from them and from the example review.
var fuzzSeeds = []string{
	``,
	`{}`,
	`[]`,
	`{"a": [1, "x", true, false, null, {}], "b": {}}`,
	`{"a/b": {"c~d": [0, {"": 1}]}}`,
	`{"a": 1 "b": 2}`,
	`[1 2]`,
	`[1, 2,]`,
	`{"a": 1,}`,
	`{"a" 1}`,
	`{"a": }`,
	`{a: 1}`,
	`{"a": 'x'}`,
	"[\"abc\n]",
	"{\"a\": \"b\\\n\"c\": 1}",
	"[\"a\x01b\"]",
	`["a\qb", "\é", "\u12", "\uZZZZ"]`,
	`["\ud800", "\udc00x", "\ud800\u0041", "\ud83d\ude00"]`,
	"[\"a\xffb\"]",
	`[01, 1., -, 1e, 1e+, -0, 1.5e-3, 12abc]`,
	`[tru, nul, true, false, null, foo]`,
	`{"a": [1, 2}`,
	`[{"a": 1]`,
	`{"a": [1, 2`,
	`{"a": "é`,
	"\xef\xbb\xbf{\"a\":1}",
	`{"a":1} x`,
	`{"a"::1}`,
	`{"a":1 @, "b":2}`,
	`[:]`,
	`"a\`,
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	strings.Repeat(`{"a":`, 300),
	`{"leanreview_review": 1, "patch": "diff --git a/x b/x\n@@ -1 +1 @@\n-a\r\n+b\n\n", "comments": [{"start_line": 72.0, "side": "right", "replies": [{"body": 1}]}]}`,
	`{"leanreview_review": 1, "patch": ["a\nb", "\u000a", "", 1, ""], "comments": [1, {"start_line": 72.5}]}`,
	"é中😀\r\n\rb\n\xff\xe4\xb8",
}

func addSeeds(f *testing.F) {
	if src, err := os.ReadFile("../../examples/auth.review.json"); err == nil {
		f.Add(src)
	} else {
		f.Fatal(err)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
}

// nesting returns the deepest container nesting of valid JSON.
func nesting(data []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// checkTree checks the invariants every tree holds, whatever the input.
func checkTree(t *testing.T, data []byte, root *Node, errs []SyntaxError) {
	t.Helper()
	if len(errs) > maxSyntaxErrors {
		t.Errorf("%d syntax errors, want at most %d", len(errs), maxSyntaxErrors)
	}
	for _, e := range errs {
		if e.Start < 0 || e.Start > e.End || e.End > len(data) {
			t.Fatalf("syntax error %d-%d %q is outside the document (%d bytes)", e.Start, e.End, e.Msg, len(data))
		}
		if len(data) > 0 && e.Start == e.End {
			t.Errorf("syntax error %d-%d %q is empty in a non-empty document", e.Start, e.End, e.Msg)
		}
	}
	if root == nil {
		t.Fatal("no root")
	}
	walkPath(root, func(n *Node, path []*Node) {
		if got := Path(root, n); !slices.Equal(got, path) {
			t.Fatalf("%s %d-%d: Path gives %d nodes, want the %d from the root to it", n.Kind, n.Start, n.End, len(got), len(path))
		}
		if n.Start < 0 || n.Start > n.End || n.End > len(data) {
			t.Fatalf("%s %q: range %d-%d outside the document (%d bytes)", n.Kind, n.Pointer(root), n.Start, n.End, len(data))
		}
		switch n.Kind {
		case KindObject, KindArray:
			open, close := byte('{'), byte('}')
			if n.Kind == KindArray {
				open, close = '[', ']'
			}
			if data[n.Start] != open {
				t.Errorf("%s %q starts with %q, want %q", n.Kind, n.Pointer(root), data[n.Start], open)
			}
			if n.Closed && (n.End-n.Start < 2 || data[n.End-1] != close) {
				t.Errorf("closed %s %q (%d-%d) does not end with %q", n.Kind, n.Pointer(root), n.Start, n.End, close)
			}
		case KindString:
			if data[n.Start] != '"' {
				t.Errorf("string %q starts with %q", n.Pointer(root), data[n.Start])
			}
			if n.Closed && (n.End-n.Start < 2 || data[n.End-1] != '"') {
				t.Errorf("closed string %q (%d-%d) does not end with a quote", n.Pointer(root), n.Start, n.End)
			}
			checkStringNode(t, data, n)
		case KindNumber:
			n.Int(NewText(data))
		}
		if n.Kind != KindObject && len(n.Members()) > 0 || n.Kind != KindArray && len(n.Elems()) > 0 {
			t.Errorf("%s %q has children", n.Kind, n.Pointer(root))
		}
		prevEnd := n.Start
		if n.Kind == KindObject || n.Kind == KindArray {
			prevEnd = n.Start + 1
		}
		for i, m := range n.Members() {
			if m.Index != -1 || !m.isMember(root) {
				t.Errorf("member %q: index (%d) wrong, or not a member", m.Pointer(root), m.Index)
			}
			if m.KeyStart() < prevEnd || m.KeyStart() > m.KeyEnd() || m.KeyEnd() > m.Start || m.End > n.End {
				t.Errorf("member %d %q: key %d-%d value %d-%d, want ordered inside %d-%d after %d",
					i, m.Name, m.KeyStart(), m.KeyEnd(), m.Start, m.End, n.Start, n.End, prevEnd)
			}
			prevEnd = m.End
		}
		for i, e := range n.Elems() {
			if int(e.Index) != i || e.isMember(root) {
				t.Errorf("element %q: index (%d) wrong, want %d, or a member", e.Pointer(root), e.Index, i)
			}
			if e.Start < prevEnd || e.End > n.End {
				t.Errorf("element %d: %d-%d, want ordered inside %d-%d after %d", i, e.Start, e.End, n.Start, n.End, prevEnd)
			}
			prevEnd = e.End
		}
	})
	root.Value(NewText(data))
}

// checkStringNode checks that lineSegments and sourceOffset agree with the
// decoded value and stay inside the string's content.
func checkStringNode(t *testing.T, data []byte, n *Node) {
	t.Helper()
	start, end := contentRange(n)
	if start > end {
		t.Fatalf("string %d-%d: content %d-%d", n.Start, n.End, start, end)
	}
	segs := lineSegments(NewText(data), n)
	var texts []string
	prev := start
	for _, s := range segs {
		if s.Start < prev || s.Start > s.End || s.End > end {
			t.Fatalf("string %d-%d: segment %+v, want ordered inside %d-%d", n.Start, n.End, s, start, end)
		}
		prev = s.End
		texts = append(texts, s.Text)
	}
	want := n.Str
	if n.Escape {
		want = strings.TrimSuffix(strings.ReplaceAll(want, "\r\n", "\n"), "\n")
	}
	if got := strings.Join(texts, "\n"); got != want {
		t.Errorf("string %d-%d %q: lineSegments texts joined = %q, want %q", n.Start, n.End, n.Str, got, want)
	}
	last := start
	step := 1 + len(n.Str)/512 // each call is linear: sample long strings
	for d := 0; d <= len(n.Str); d += step {
		o := sourceOffset(NewText(data), n, d)
		if o < last || o > end {
			t.Fatalf("string %d-%d %q: sourceOffset(%d) = %d, want in %d-%d and not before %d", n.Start, n.End, n.Str, d, o, start, end, last)
		}
		last = o
	}
	if o := sourceOffset(NewText(data), n, len(n.Str)); o != end {
		t.Errorf("string %d-%d %q: sourceOffset(len) = %d, want the content's end %d", n.Start, n.End, n.Str, o, end)
	}
}

func FuzzParseJSON(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		root, errs := ParseJSON(data)
		checkTree(t, data, root, errs)

		// Where encoding/json agrees the input is JSON (and it is UTF-8
		// and within our depth limit), the reader must agree with it.
		if !utf8.Valid(data) || !json.Valid(data) || nesting(data) > maxDepth {
			return
		}
		if len(errs) > 0 {
			t.Fatalf("valid JSON %q: syntax errors %v, want none", data, errStrings(errs))
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("json.Decode(%q): %v", data, err)
		}
		if got := root.Value(NewText(data)); !reflect.DeepEqual(got, want) {
			t.Errorf("Value(%q) = %#v, want %#v", data, got, want)
		}
	})
}

func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Parse(data)
		checkTree(t, data, d.Root, d.Syntax)
		p := d.Review.Patch
		lr := p.NewLineReader()
		for i := range p.LineCount() {
			checkLineReaders(t, &p, lr, i)
			n, text, lstart, lend := p.LineNode(i), p.LineText(i), p.LineStart(i), p.LineEnd(i)
			if n == nil || n.Kind != KindString {
				t.Fatalf("line %d: node %v, want a string", i, n)
			}
			start, end := contentRange(n)
			if lstart < start || lstart > lend || lend > end {
				t.Errorf("line %d %q: range %d-%d, want inside %d-%d", i, text, lstart, lend, start, end)
			}
			if p.Form == PatchArray && p.Node.Elems()[p.LineElem(i)] != n {
				t.Errorf("line %d: Elem %d is not its node", i, p.LineElem(i))
			}
			if strings.Contains(text, "\n") {
				t.Errorf("line %d %q holds a line feed", i, text)
			}
			if want := decodedLine(data, lstart, lend, end); text != want {
				t.Errorf("line %d: text %q, want %q, decoded from its source %q", i, text, want, data[lstart:lend])
			}
			d.Mapper().Range(lstart, lend, UTF16)
		}
		checkKeptLines(t, "", &p)
		if p.TrailingEmpty != nil && (p.TrailingEmpty.Kind != KindString || p.TrailingEmpty.Str != "") {
			t.Errorf("trailing empty element %v is not an empty string", p.TrailingEmpty)
		}
		for _, c := range d.Review.Comments {
			if cs := d.Root.Member("comments"); cs.Elems()[c.Index] != c.Node {
				t.Errorf("comment %d: node is not comments[%d]", c.Index, c.Index)
			}
			c.SideNorm()
			c.StateNorm()
		}
	})
}

// floorBoundary returns the start of the character that holds offset o,
// a CRLF pair counting as one character, o clamped to the text.
func floorBoundary(text []byte, o int) int {
	o = max(0, min(o, len(text)))
	best := 0
	for _, b := range boundaries(text) {
		if b > o {
			break
		}
		best = b
	}
	return best
}

func FuzzMapper(f *testing.F) {
	f.Add([]byte(mixed), 7, 0, 4, uint8(0))
	f.Add([]byte("a\r\nb\rc\n"), 2, 1, 9, uint8(1))
	f.Add([]byte("\xff\xe4\xb8😀\n"), 3, 0, 3, uint8(2))
	f.Add([]byte(""), 0, 1, 0, uint8(0))
	f.Add([]byte("é\nx"), 1, 0, 1, uint8(1))
	for _, s := range roundTripTexts {
		f.Add([]byte(s), len(s)/2, 0, 2, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, off, line, char int, e uint8) {
		enc := Encoding(e % 3)
		m := NewMapper(data)

		// Long lines get marks; they must agree with counting every
		// column from the line's start.
		if len(data) > 0 {
			long := bytes.Repeat(data, 1+3*markStep/len(data))
			lm := NewMapper(long)
			plain := *lm
			plain.marks = nil
			lo := int(uint(off) % uint(len(long)+1))
			if got, want := lm.Position(lo, enc), plain.Position(lo, enc); got != want {
				t.Fatalf("%q×%d %v: Position(%d) = %v, want %v as without marks", data, len(long)/len(data), enc, lo, got, want)
			}
			q := Position{Line: int(uint(line) % uint(lm.Lines())), Character: char}
			got, err := lm.Offset(q, enc)
			want, wantErr := plain.Offset(q, enc)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Fatalf("%q×%d %v: Offset(%v) = %d, %v, want %d, %v as without marks", data, len(long)/len(data), enc, q, got, err, want, wantErr)
			}
		}

		p := m.Position(off, enc)
		got, err := m.Offset(p, enc)
		if err != nil {
			t.Fatalf("%q %v: Offset(Position(%d) = %v): %v", data, enc, off, p, err)
		}
		if want := floorBoundary(data, off); got != want {
			t.Fatalf("%q %v: Offset(Position(%d) = %v) = %d, want %d", data, enc, off, p, got, want)
		}
		if back := m.Position(got, enc); back != p {
			t.Fatalf("%q %v: Position(Offset(%v) = %d) = %v, want %v", data, enc, p, got, back, p)
		}

		// Arbitrary positions: an offset on a character boundary of the
		// line asked for, at or before the column asked for.
		q := Position{Line: line, Character: char}
		o, err := m.Offset(q, enc)
		if err != nil {
			if line >= 0 && char >= 0 && (line < m.Lines() || line == m.Lines() && char == 0) {
				t.Fatalf("%q %v: Offset(%v): %v, want no error", data, enc, q, err)
			}
			return
		}
		if o != floorBoundary(data, o) {
			t.Fatalf("%q %v: Offset(%v) = %d, not a character boundary", data, enc, q, o)
		}
		if line == m.Lines() {
			if o != len(data) {
				t.Fatalf("%q %v: Offset(%v) = %d, want the end %d", data, enc, q, o, len(data))
			}
			return
		}
		if r := m.Position(o, enc); r.Line != line || r.Character > char {
			t.Fatalf("%q %v: Position(Offset(%v) = %d) = %v, want line %d, character <= %d", data, enc, q, o, r, line, char)
		}
	})
}

// decodedLine decodes the escaped text src[start:end] of a patch line
// whose string's content ends at limit, unit by unit, as the line's text
// was before it became a view of its element's decoded string.
func decodedLine(src []byte, start, end, limit int) string {
	var b []byte
	for i := start; i < end; {
		dec, size := escapeAt(src[:limit], i)
		b = append(b, dec...)
		i += size
	}
	return string(b)
}
