package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// trackSource is a Go file of n lines, most of which repeat (`}`,
// `if err != nil {`, `return err`), one in seven a call of its own.
func trackSource(n int) []string {
	repeated := []string{"\tif err != nil {", "\t\treturn err", "\t}", "", "\tdefer cancel()", "\treturn nil"}
	out := make([]string, n)
	for i := range out {
		if i%7 == 0 {
			out[i] = fmt.Sprintf("\tv%d, err := step%d(ctx)", i, i)
		} else {
			out[i] = repeated[i%len(repeated)]
		}
	}
	return out
}

// trackRepo writes a repository holding main.go (trackSource(300)) and a
// review of it whose hunk is lines 30–60, with comments on repeated
// lines: r1 on line 45 (`\t}`), r2 on 46–47 (a blank line and a
// `defer`), r3 on 56 (`\t\treturn err`).
func trackRepo(t *testing.T) (root string, lines []string) {
	t.Helper()
	root = t.TempDir()
	lines = trackSource(300)
	patch := []string{"diff --git a/main.go b/main.go", "--- a/main.go", "+++ b/main.go", "@@ -30,30 +30,31 @@"}
	for n := 30; n <= 60; n++ {
		mark := " "
		if n == 50 {
			mark = "+"
		}
		patch = append(patch, mark+lines[n-1])
	}
	comment := func(id string, start, end int) map[string]any {
		return map[string]any{"id": id, "path": "main.go", "side": "RIGHT", "start_line": start, "end_line": end, "body": id + " is about line " + fmt.Sprint(start)}
	}
	review, err := json.MarshalIndent(map[string]any{
		"leanreview_review": 1,
		"patch":             patch,
		"comments":          []any{comment("r1", 45, 45), comment("r2", 46, 47), comment("r3", 56, 56)},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		"main.go":               strings.Join(lines, "\n") + "\n",
		"reviews/r.review.json": string(review),
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, lines
}

// placedLines is each comment's lines (from 1) in a publish, "r1 45-45",
// with " outdated" for one shown as outdated.
func placedLines(p []protocol.Diagnostic) []string {
	var out []string
	for _, d := range p {
		s := fmt.Sprintf("%s %d-%d", d.Message[:2], d.Range.Start.Line+1, d.Range.End.Line+1)
		if strings.Contains(d.Message, "outdated") {
			s += " outdated"
		}
		out = append(out, s)
	}
	return out
}

// TestSourceTracksRepeatedLines types and pastes above comments on
// repeated lines (`}`, `return err`) in the editor, the way the issue
// measured them going wrong: each keystroke's publish has every comment
// on its own line, however many `}` lines are typed above it; a comment
// whose line is changed is outdated, not moved; a deletion of its lines
// leaves it outdated.
func TestSourceTracksRepeatedLines(t *testing.T) {
	root, lines := trackRepo(t)
	c := newTestClient(t, Options{})
	initializeIn(c, root, fullCapabilities("utf-16"), nil)
	source := protocol.DocumentURI(uri.File(filepath.Join(root, "main.go")))
	c.notifyServer("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": source, "languageId": "go", "version": 1, "text": strings.Join(lines, "\n") + "\n"}})
	want := func(version int32, w ...string) {
		t.Helper()
		got := placedLines(c.waitDiagnostics(source, version))
		if strings.Join(got, ", ") != strings.Join(w, ", ") {
			t.Fatalf("version %d: got %q, want %q", version, got, w)
		}
	}
	want(1, "r1 45-45", "r2 46-47", "r3 56-56")
	at := func(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }
	version := int32(1)
	edit := func(start, end protocol.Position, text string) {
		version++
		c.change(source, version, &protocol.Range{Start: start, End: end}, text)
	}
	// Eight `\t}` lines typed one at a time right above r1's `\t}` (line
	// 44, from 0), each as an editor sends it: the brace, then Enter.
	for k := range 8 {
		edit(at(uint32(44+k), 0), at(uint32(44+k), 0), "\t}")
		edit(at(uint32(44+k), 2), at(uint32(44+k), 2), "\n")
		want(version, fmt.Sprintf("r1 %d-%d", 46+k, 46+k), fmt.Sprintf("r2 %d-%d", 47+k, 48+k), fmt.Sprintf("r3 %d-%d", 57+k, 57+k))
	}
	// 3,000 lines of the file's own repeated lines pasted at the top.
	paste := strings.Repeat("\t}\n\t\treturn err\n", 1500)
	edit(at(0, 0), at(0, 0), paste)
	want(version, "r1 3053-3053", "r2 3054-3055", "r3 3064-3064")
	// r3's `return err` changed: outdated on its line.
	edit(at(3063, 2), at(3063, 2), "//")
	want(version, "r1 3053-3053", "r2 3054-3055", "r3 3064-3064 outdated")
	// Undone: r3 is back.
	edit(at(3063, 2), at(3063, 4), "")
	want(version, "r1 3053-3053", "r2 3054-3055", "r3 3064-3064")
	// The paste deleted again, then r2's lines.
	edit(at(0, 0), at(3000, 0), "")
	want(version, "r1 53-53", "r2 54-55", "r3 64-64")
	edit(at(53, 0), at(55, 0), "")
	got := placedLines(c.waitDiagnostics(source, version))
	if strings.Join(got, ", ") != "r1 53-53, r2 54-54 outdated, r3 62-62" {
		t.Fatalf("r2's lines deleted: got %q, want r2 outdated where they were", got)
	}
}

// TestSourceTracksOnDisk: a file changed on disk (not open) has its
// comments placed by a line diff against the review's lines: after
// `\t}` lines are added above a comment on a `\t}`, it is on its own
// line, not the nearest `\t}`.
func TestSourceTracksOnDisk(t *testing.T) {
	root, lines := trackRepo(t)
	edited := append(append(append([]string{}, lines[:40]...), "\t}", "\t}", "\t}"), lines[40:]...)
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte(strings.Join(edited, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, Options{})
	initializeIn(c, root, fullCapabilities("utf-16"), nil)
	review := protocol.DocumentURI(uri.File(filepath.Join(root, "reviews", "r.review.json")))
	text, err := os.ReadFile(filepath.Join(root, "reviews", "r.review.json"))
	if err != nil {
		t.Fatal(err)
	}
	c.open(review, string(text))
	source := protocol.DocumentURI(uri.File(filepath.Join(root, "main.go")))
	got := placedLines(c.waitDiagnostics(source, 0))
	if w := "r1 48-48, r2 49-50, r3 59-59"; strings.Join(got, ", ") != w {
		t.Fatalf("got %q, want %s", got, w)
	}
}

// TestSourceAppliedSuggestion: c1's suggestion applied in the code reads
// "suggestion applied" on the source file (not outdated), offers
// "Dismiss c1: its suggestion is applied" there, and follows the edits
// above it like any comment.
func TestSourceAppliedSuggestion(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	block := "    result, err := calculate(input)\n    if err != nil {\n        return Output{}, err\n    }"
	text := strings.Replace(testreviews.WorktreeSource(0, ""), "    result, err := calculate(input)\n    _ = err // 🚀 later", block, 1)
	s.openSource(s.source, text)
	c1 := func(p []protocol.Diagnostic) string {
		for _, d := range p {
			if strings.HasPrefix(d.Message, "c1") {
				return fmt.Sprintf("%d-%d %d %s", d.Range.Start.Line+1, d.Range.End.Line+1, int(d.Severity), d.Message[strings.LastIndex(d.Message, "·")+len("· "):])
			}
		}
		return "none"
	}
	first := s.c.waitDiagnostics(s.source, 1)
	if got, want := c1(first), "72-75 4 suggestion applied"; got != want {
		t.Fatalf("c1: got %q, want %q", got, want)
	}
	// The thread a client draws says so too (VS Code's thread label).
	for _, d := range first {
		var td ThreadData
		if err := json.Unmarshal([]byte(jsonOf(t, d.Data)), &td); err != nil {
			t.Fatalf("data of %q: %v", d.Message, err)
		}
		if want := td.Comment == "c1"; td.Applied != want || td.Outdated {
			t.Errorf("%s's thread: got applied %v outdated %v, want applied %v, not outdated", td.Comment, td.Applied, td.Outdated, want)
		}
	}
	var actions []protocol.CodeAction
	s.c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": s.source}, "range": protocol.Range{Start: protocol.Position{Line: 72}, End: protocol.Position{Line: 72}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	if !slices.Contains(titles, "Dismiss c1: its suggestion is applied") {
		t.Errorf("actions: got %q, want \"Dismiss c1: its suggestion is applied\" among them", titles)
	}
	var hover protocol.Hover
	s.c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": s.source}, "position": protocol.Position{Line: 72}}, &hover)
	if !strings.Contains(hover.Contents.Value, "suggestion applied") {
		t.Errorf("hover: got %q, want it to say the suggestion is applied", hover.Contents.Value)
	}
	s.c.change(s.source, 2, &protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "a\nb\nc\n")
	if got, want := c1(s.c.waitDiagnostics(s.source, 2)), "75-78 4 suggestion applied"; got != want {
		t.Fatalf("after 3 lines above: got %q, want %q", got, want)
	}
}
