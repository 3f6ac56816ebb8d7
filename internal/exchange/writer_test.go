package exchange

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// update rewrites the want sections of the golden files from the current
// output: go test ./internal/exchange -run Format -update
var update = flag.Bool("update", false, "rewrite the want sections of testdata golden files")

// fmtFixture is one testdata/fmt archive.
type fmtFixture struct {
	name, path  string
	ar          *txtar.Archive
	input, want []byte
}

func readFmtFixtures(t *testing.T) []fmtFixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "fmt", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in testdata/fmt (err %v)", err)
	}
	var out []fmtFixture
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := fmtFixture{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, ar: ar}
		for _, file := range ar.Files {
			switch file.Name {
			case "input.review.json":
				f.input = file.Data
			case "want.review.json":
				f.want = file.Data
			default:
				t.Fatalf("%s: unexpected section %q", p, file.Name)
			}
		}
		if f.input == nil {
			t.Fatalf("%s: no input.review.json section", p)
		}
		out = append(out, f)
	}
	return out
}

func mustFormat(t testing.TB, src []byte) []byte {
	t.Helper()
	doc := Parse(src)
	if len(doc.Syntax) > 0 {
		t.Fatalf("input has syntax errors: %v", doc.Syntax)
	}
	out, err := Format(doc)
	if err != nil {
		t.Fatalf("Format: %v", err)
	}
	return out
}

// firstDifference describes where got and want part, for readable failures.
func firstDifference(got, want []byte) string {
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w || i >= len(gl) || i >= len(wl) {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g, w)
		}
	}
	return "identical"
}

func TestFormatFixtures(t *testing.T) {
	for _, f := range readFmtFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			got := mustFormat(t, f.input)
			if *update {
				var files []txtar.File
				for _, file := range f.ar.Files {
					if file.Name != "want.review.json" {
						files = append(files, file)
					}
				}
				f.ar.Files = append(files, txtar.File{Name: "want.review.json", Data: got})
				if err := os.WriteFile(f.path, txtar.Format(f.ar), 0o644); err != nil {
					t.Fatal(err)
				}
				f.want = got
			}
			if !bytes.Equal(got, f.want) {
				t.Fatalf("Format: %s\ngot:\n%s", firstDifference(got, f.want), got)
			}
			if again := mustFormat(t, got); !bytes.Equal(again, got) {
				t.Errorf("Format is not idempotent: %s", firstDifference(again, got))
			}
			// encoding/json writes U+FFFD for the lone surrogate escapes
			// Format keeps; the rest must be the same.
			if oracle, read := formatOracle(t, got), asDecoded(got); !bytes.Equal(oracle, read) {
				t.Errorf("encoding/json writes the same content differently: %s", firstDifference(read, oracle))
			}
			checkNothingLost(t, f.input, got)

			edits, err := FormatEdits(Parse(f.input))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(f.input, f.want) && len(edits) != 0 {
				t.Errorf("canonical input: got %d edits, want none: %+v", len(edits), edits)
			}
			applied, err := ApplyEdits(f.input, edits)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(applied, got) {
				t.Errorf("FormatEdits applied: %s", firstDifference(applied, got))
			}
		})
	}
}

// TestFormatSpecExample pins what the one difference between the spec's
// example and leanreview's output is: the reply written on one line.
func TestFormatSpecExample(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "auth.review.json"))
	if err != nil {
		t.Skipf("example not available: %v", err)
	}
	got := mustFormat(t, src)
	checkNothingLost(t, src, got)
	if oracle := formatOracle(t, got); !bytes.Equal(oracle, got) {
		t.Errorf("encoding/json writes the example differently: %s", firstDifference(got, oracle))
	}
	// The only change is the reply written on one line in the spec.
	start := bytes.Index(src, []byte(`{ "author": "hduran"`))
	if start < 0 {
		t.Skip("the example has no one-line reply any more")
	}
	start = lineStartOf(src, start)
	end := start + bytes.IndexByte(src[start:], '\n') + 1
	edits := Diff(src, got)
	if len(edits) != 1 {
		t.Fatalf("got %d edits, want 1 (the one-line reply): %+v", len(edits), edits)
	}
	if e := edits[0]; e.Start < start || e.End > end {
		t.Errorf("edit [%d,%d) %q reaches beyond the reply's line [%d,%d)", e.Start, e.End, e.NewText, start, end)
	}
}

func lineStartOf(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

func TestFormatRefuses(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"syntax error", "{\n  \"leanreview_review\": 1,\n  \"patch\": [\"a\" \"b\"]\n}\n", "syntax error at line 3, column 17"},
		{"unterminated", `{"leanreview_review": 1, "title": "x`, "syntax error at line 1, column 35"},
		{"empty", "", "syntax error"},
		{"array root", `[1, 2]`, "not a JSON object"},
		{"string root", `"x"`, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Format(Parse([]byte(tt.src)))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got error %v, want one containing %q", err, tt.want)
			}
			if out != nil {
				t.Errorf("got output %q along with the error", out)
			}
			if edits, err := FormatEdits(Parse([]byte(tt.src))); err == nil || edits != nil {
				t.Errorf("FormatEdits: got %v, %v; want an error and no edits", edits, err)
			}
		})
	}
}

func TestFormatStrings(t *testing.T) {
	// Every rune class, against encoding/json itself; invalid UTF-8 cannot
	// come out of the reader, but the writer must handle it like Go.
	var all strings.Builder
	for r := rune(0); r < 0x300; r++ {
		all.WriteRune(r)
	}
	inputs := []string{
		all.String(),
		"\u2028\u2029\u2027\u202a\ufeff\ufffd\U0001F600\U0010FFFF",
		"bad \xff utf8 \xe2\x82 truncated \xc3",
		"",
	}
	for _, s := range inputs {
		w := &canonWriter{}
		w.str(s)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := w.buf.String(); got+"\n" != want.String() {
			t.Errorf("str(%q) = %s, want %s", s, got, want.String())
		}
	}
}

// formatOracle writes src's tree, members in source order, with
// encoding/json: an Encoder with two-space indentation and HTML escaping
// off, which is how leanreview writes. A canonical document must equal it.
func formatOracle(t testing.TB, src []byte) []byte {
	t.Helper()
	doc := Parse(src)
	if len(doc.Syntax) > 0 {
		t.Fatalf("oracle input has syntax errors: %v", doc.Syntax)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(oracleValue(doc.Root, src)); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return buf.Bytes()
}

// oracleObject is an object that keeps its member order, and duplicates,
// through encoding/json.
type oracleObject []oracleMember

type oracleMember struct {
	name  string
	value any
}

func (o oracleObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		for j, v := range []any{m.name, m.value} {
			var one bytes.Buffer
			enc := json.NewEncoder(&one)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				return nil, err
			}
			b.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
			if j == 0 {
				b.WriteByte(':')
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func oracleValue(n *Node, src []byte) any {
	switch n.Kind {
	case KindObject:
		o := oracleObject{}
		for _, m := range n.Members() {
			o = append(o, oracleMember{m.Name, oracleValue(m, src)})
		}
		return o
	case KindArray:
		a := make([]any, 0, len(n.Elems()))
		for _, e := range n.Elems() {
			a = append(a, oracleValue(e, src))
		}
		return a
	case KindString:
		return n.Str
	case KindNumber:
		return json.Number(src[n.Start:n.End])
	case KindBool:
		return n.Bool
	}
	return nil
}

// normValue is a tree in a form that ignores member order but keeps every
// member, duplicates included, and turns the top-level patch into its list
// of lines: what formatting must preserve.
func normValue(n *Node, src []byte, top bool) any {
	switch n.Kind {
	case KindObject:
		var ms []string
		for _, m := range n.Members() {
			var v any
			if top && m.Name == "patch" && (m.Kind == KindString || m.Kind == KindArray) {
				v = normPatch(m, src)
			} else {
				v = normValue(m, src, false)
			}
			ms = append(ms, fmt.Sprintf("%q:%#v", m.Name, v))
		}
		slices.SortStableFunc(ms, func(a, b string) int {
			// Sort by name only, so duplicates keep their order.
			return strings.Compare(a[:strings.Index(a, `":`)+1], b[:strings.Index(b, `":`)+1])
		})
		return "{" + strings.Join(ms, ",") + "}"
	case KindArray:
		var es []string
		for _, e := range n.Elems() {
			es = append(es, fmt.Sprintf("%#v", normValue(e, src, false)))
		}
		return "[" + strings.Join(es, ",") + "]"
	case KindNumber:
		return "number:" + string(src[n.Start:n.End])
	case KindString:
		return n.Str
	case KindBool:
		return n.Bool
	case KindNull:
		return nil
	}
	return "invalid"
}

// normPatch lists a patch's lines as the spec reads them: array elements
// or a string, split at line feeds, a final line feed ending a line rather
// than starting one, and no empty lines at the end (the array form cannot
// carry them).
func normPatch(n *Node, src []byte) []string {
	lines := []string{}
	add := func(s string) {
		parts := strings.Split(s, "\n")
		if len(parts) > 1 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		lines = append(lines, parts...)
	}
	if n.Kind == KindString {
		add(n.Str)
	} else {
		for _, e := range n.Elems() {
			if e.Kind == KindString {
				add(e.Str)
			} else {
				lines = append(lines, fmt.Sprintf("non-string %#v", normValue(e, src, false)))
			}
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// checkNothingLost compares the trees and the decoded review models of the
// input and the formatted output.
func checkNothingLost(t testing.TB, input, output []byte) {
	t.Helper()
	in, out := Parse(input), Parse(output)
	if len(out.Syntax) > 0 {
		t.Fatalf("formatted output has syntax errors: %v", out.Syntax)
	}
	if a, b := normValue(in.Root, in.Text.Bytes(), true), normValue(out.Root, out.Text.Bytes(), true); a != b {
		t.Errorf("formatting changed the content:\n in: %v\nout: %v", a, b)
	}
	ri, ro := in.Review, out.Review
	if ri.Version != ro.Version || ri.Title != ro.Title || ri.Summary != ro.Summary {
		t.Errorf("review header changed: got %d %q %q, want %d %q %q", ro.Version, ro.Title, ro.Summary, ri.Version, ri.Title, ri.Summary)
	}
	if a, b := modelLines(ri.Patch), modelLines(ro.Patch); !slices.Equal(a, b) {
		t.Errorf("patch lines changed:\n got %q\nwant %q", b, a)
	}
	if len(ri.Comments) != len(ro.Comments) {
		t.Fatalf("got %d comments, want %d", len(ro.Comments), len(ri.Comments))
	}
	for i, ci := range ri.Comments {
		co := ro.Comments[i]
		a := fmt.Sprintf("%q %q %q %q %d %d %q %q %q %q", ci.ID, ci.Author, ci.Path, ci.Side, ci.StartLine, ci.EndLine, ci.Body, ci.State, ci.Snippet, ci.At)
		b := fmt.Sprintf("%q %q %q %q %d %d %q %q %q %q", co.ID, co.Author, co.Path, co.Side, co.StartLine, co.EndLine, co.Body, co.State, co.Snippet, co.At)
		if a != b {
			t.Errorf("comment %d changed:\n got %s\nwant %s", i, b, a)
		}
		if len(ci.Replies) != len(co.Replies) {
			t.Errorf("comment %d: got %d replies, want %d", i, len(co.Replies), len(ci.Replies))
			continue
		}
		for j, r := range ci.Replies {
			if ro := co.Replies[j]; r.Author != ro.Author || r.Body != ro.Body || r.At != ro.At {
				t.Errorf("comment %d reply %d changed: got %+v, want %+v", i, j, co.Replies[j], r)
			}
		}
	}
}

// modelLines is the model's view of the patch, with the carriage return
// that ends a CRLF line set aside (the reader strips it from the string form
// only) and the empty lines at the end dropped.
func modelLines(p Patch) []string {
	var out []string
	for i := range p.LineCount() {
		out = append(out, strings.TrimRight(p.LineText(i), "\r"))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// TestFormatRandomDocuments formats generated documents: random member
// order, spacing, escapes, unicode, unknown members and values, string and
// array patches.
func TestFormatRandomDocuments(t *testing.T) {
	for seed := range 200 {
		g := &docGen{r: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
		src := g.document()
		doc := Parse(src)
		if len(doc.Syntax) > 0 {
			t.Fatalf("seed %d: generator made invalid JSON: %v\n%s", seed, doc.Syntax, src)
		}
		out, err := Format(doc)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if again := mustFormat(t, out); !bytes.Equal(again, out) {
			t.Fatalf("seed %d: not idempotent: %s", seed, firstDifference(again, out))
		}
		if oracle := formatOracle(t, out); !bytes.Equal(oracle, out) {
			t.Fatalf("seed %d: encoding/json disagrees: %s", seed, firstDifference(out, oracle))
		}
		checkNothingLost(t, src, out)
		edits, err := FormatEdits(doc)
		if err != nil {
			t.Fatal(err)
		}
		if applied, err := ApplyEdits(src, edits); err != nil || !bytes.Equal(applied, out) {
			t.Fatalf("seed %d: FormatEdits applied (err %v): %s", seed, err, firstDifference(applied, out))
		}
		checkEditBoundaries(t, src, out, edits)
		if t.Failed() {
			t.Fatalf("seed %d input:\n%s", seed, src)
		}
	}
}

// docGen writes random review documents as source text, exercising the
// reader's spellings as well as the writer.
type docGen struct {
	r *rand.Rand
}

func (g *docGen) pick(n int) int { return g.r.IntN(n) }

// space is random whitespace between tokens.
func (g *docGen) space() string {
	return []string{"", "", " ", "\n  ", "\t", "\r\n", "\n\n    "}[g.pick(7)]
}

var genRunes = []rune{
	'a', 'b', 'z', 'A', ' ', '0', '9', '-', '+', '@', '{', '}', '[', ']', ',', ':',
	'"', '\\', '/', '<', '>', '&', '\'', '`', '\t', '\n', '\r', 0, 1, 8, 0xc, 0x1b, 0x1f, 0x7f,
	'é', 'ß', 'ø', 'Ω', 'ж', '中', '文', 'ー', 0x2028, 0x2029, 0xfeff, 0xfffd,
	'😀', '🚀', 0x1F1EB, 0x200d, 0x10ffff,
}

// text returns a decoded string and one of its JSON spellings.
func (g *docGen) text(maxLen int) (string, string) {
	var dec, enc strings.Builder
	enc.WriteByte('"')
	for range g.pick(maxLen + 1) {
		r := genRunes[g.pick(len(genRunes))]
		dec.WriteRune(r)
		enc.WriteString(g.spell(r))
	}
	enc.WriteByte('"')
	return dec.String(), enc.String()
}

// spell writes r as JSON string content, picking among valid spellings.
func (g *docGen) spell(r rune) string {
	short := map[rune]string{'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '/': `\/`}
	hexEsc := func(r rune) string {
		if g.pick(2) == 0 {
			return fmt.Sprintf(`\u%04x`, r)
		}
		return fmt.Sprintf(`\u%04X`, r)
	}
	if s, ok := short[r]; ok && g.pick(3) > 0 {
		return s
	}
	if r < 0x20 || r == '"' || r == '\\' || g.pick(5) == 0 {
		if r >= 0x10000 {
			r1, r2 := utf16Pair(r)
			return hexEsc(r1) + hexEsc(r2)
		}
		return hexEsc(r)
	}
	return string(r)
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

func (g *docGen) str(maxLen int) string {
	_, enc := g.text(maxLen)
	return enc
}

func (g *docGen) number() string {
	return []string{"0", "-0", "1", "72", "-3", "1.5", "1e3", "2E-2", "0.000", "123456789012345678901234567890", "1.0", "7e+0"}[g.pick(12)]
}

// value returns a random JSON value, nested up to depth.
func (g *docGen) value(depth int) string {
	k := g.pick(9)
	if depth <= 0 && k >= 7 {
		k = g.pick(7)
	}
	switch k {
	case 0, 1:
		return g.str(12)
	case 2:
		return g.number()
	case 3:
		return []string{"true", "false"}[g.pick(2)]
	case 4:
		return "null"
	case 5:
		return "[" + g.space() + "]"
	case 6:
		return "{" + g.space() + "}"
	case 7:
		var es []string
		for range g.pick(4) + 1 {
			es = append(es, g.value(depth-1))
		}
		return g.join("[", es, "]")
	}
	var ms []string
	for range g.pick(4) + 1 {
		ms = append(ms, g.str(6)+g.space()+":"+g.space()+g.value(depth-1))
	}
	return g.join("{", ms, "}")
}

func (g *docGen) join(open string, items []string, close string) string {
	var b strings.Builder
	b.WriteString(open)
	for i, it := range items {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(g.space())
		b.WriteString(it)
	}
	b.WriteString(g.space())
	b.WriteString(close)
	return b.String()
}

// object writes members in random order, sometimes adding unknown ones and
// a duplicate.
func (g *docGen) object(members map[string]string) string {
	names := make([]string, 0, len(members)+3)
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	for range g.pick(3) {
		name := g.str(8)
		members[name] = g.value(3)
		names = append(names, name)
	}
	if len(names) > 0 && g.pick(10) == 0 {
		names = append(names, names[g.pick(len(names))]) // a duplicate key
	}
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	var ms []string
	for _, name := range names {
		key := name
		if !strings.HasPrefix(name, `"`) {
			key = `"` + name + `"`
		}
		ms = append(ms, key+g.space()+":"+g.space()+members[name])
	}
	return g.join("{", ms, "}")
}

func (g *docGen) patch() string {
	var lines []string
	for range g.pick(12) {
		prefix := []string{" ", "+", "-", "@@ -1 +1 @@", "", `\\ No newline`}[g.pick(6)]
		lines = append(lines, prefix+g.str(20)[1:])
	}
	// lines hold spellings without their opening quote; glue some together
	// with line feeds and CRLFs, as string patches and multi-line elements do.
	if g.pick(3) == 0 {
		var b strings.Builder
		b.WriteByte('"')
		for _, l := range lines {
			b.WriteString(strings.TrimSuffix(l, `"`))
			b.WriteString([]string{`\n`, `\r\n`, `\u000a`}[g.pick(3)])
		}
		if g.pick(2) == 0 {
			b.WriteString(`\n\n`)
		}
		b.WriteByte('"')
		return b.String()
	}
	var elems []string
	for i := 0; i < len(lines); i++ {
		l := `"` + lines[i]
		if g.pick(5) == 0 && i+1 < len(lines) {
			l = strings.TrimSuffix(l, `"`) + `\n` + lines[i+1]
			i++
		}
		elems = append(elems, l)
	}
	for range g.pick(3) {
		elems = append(elems, `""`)
	}
	if g.pick(8) == 0 {
		elems = append(elems, g.value(1))
	}
	return g.join("[", elems, "]")
}

func (g *docGen) document() []byte {
	top := map[string]string{"leanreview_review": "1", "patch": g.patch()}
	if g.pick(2) == 0 {
		top["title"] = g.str(20)
	}
	if g.pick(2) == 0 {
		top["summary"] = g.str(40)
	}
	var comments []string
	for range g.pick(4) {
		c := map[string]string{}
		for _, name := range CommentKeys {
			if g.pick(3) == 0 {
				continue
			}
			switch name {
			case "start_line", "end_line":
				c[name] = g.number()
			case "replies":
				var rs []string
				for range g.pick(3) {
					r := map[string]string{}
					for _, rn := range ReplyKeys {
						if g.pick(4) > 0 {
							r[rn] = g.str(15)
						}
					}
					rs = append(rs, g.object(r))
				}
				c[name] = g.join("[", rs, "]")
			default:
				c[name] = g.str(25)
			}
		}
		comments = append(comments, g.object(c))
	}
	if g.pick(10) == 0 {
		comments = append(comments, g.value(2))
	}
	top["comments"] = g.join("[", comments, "]")
	return []byte(g.space() + g.object(top) + g.space())
}

// bigReview8MB builds a compact document of about 8 MB: a 100k-line patch
// with escapes and non-ASCII text, and a thousand comments with replies.
func bigReview8MB() []byte {
	var b bytes.Buffer
	b.WriteString(`{"leanreview_review":1,"title":"big","summary":"a \"large\" review","patch":[`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `"+\tvalue := compute(%d, \"key\") // état <ok> & done — line %d of the patch"`, i, i)
		case 1:
			fmt.Fprintf(&b, `"-\tvalue := compute(%d, 'key') // old version of the line, plain ASCII text"`, i)
		default:
			fmt.Fprintf(&b, `" \tif err != nil { return fmt.Errorf(\"step %%d: %%w\", %d, err) } 😀"`, i)
		}
	}
	b.WriteString(`],"comments":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"c%d","author":"assistant","path":"pkg/file.go","side":"RIGHT","start_line":%d,"body":"Consider returning the error here: callers cannot tell a missing value from a zero one.\n\nSee `+"`compute`"+`.","state":"active","snippet":"value := compute(%d, \"key\")","replies":[{"author":"dev","body":"Done.","at":"2024-05-01T10:00:00Z"}]}`, i, 4*i+1, 4*i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func BenchmarkFormat(b *testing.B) {
	src := bigReview8MB()
	doc := Parse(src)
	if len(doc.Syntax) > 0 {
		b.Fatal(doc.Syntax[0])
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Format(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormatEdits(b *testing.B) {
	src := bigReview8MB()
	doc := Parse(src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FormatEdits(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFormatLarge(t *testing.T) {
	src := bigReview8MB()
	if len(src) < 7<<20 {
		t.Fatalf("generated document is %d bytes, want about 8 MB", len(src))
	}
	out := mustFormat(t, src)
	if !utf8.Valid(out) {
		t.Fatal("output is not UTF-8")
	}
	if again := mustFormat(t, out); !bytes.Equal(again, out) {
		t.Fatalf("not idempotent: %s", firstDifference(again, out))
	}
	if testing.Short() {
		return
	}
	if oracle := formatOracle(t, out); !bytes.Equal(oracle, out) {
		t.Fatalf("encoding/json disagrees: %s", firstDifference(out, oracle))
	}
}

// TestFormatByteOrderMark drops a leading BOM (encoding/json, and so
// leanreview, rejects one) with an edit of its own.
func TestFormatByteOrderMark(t *testing.T) {
	canonical := "{\n  \"leanreview_review\": 1,\n  \"patch\": [],\n  \"comments\": []\n}\n"
	src := []byte("\ufeff" + canonical)
	if got := string(mustFormat(t, src)); got != canonical {
		t.Fatalf("got %q, want %q", got, canonical)
	}
	edits, err := FormatEdits(Parse(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Edit{Start: 0, End: 3}); len(edits) != 1 || edits[0] != want {
		t.Errorf("got %+v, want [%+v]", edits, want)
	}
}

// asDecoded returns src with each lone surrogate escape replaced by the
// U+FFFD a decoder reads it as.
func asDecoded(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\\' && jsontext.LoneSurrogate(src, i):
			out = append(out, "\uFFFD"...)
			i += 5
		case src[i] == '\\' && i+1 < len(src):
			out = append(out, src[i], src[i+1]) // an escaped backslash is not an escape's start
			i++
		default:
			out = append(out, src[i])
		}
	}
	return out
}
