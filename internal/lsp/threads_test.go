package lsp

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestSourceDiagnosticsCarryTheThread: each comment's diagnostic on a
// source file carries its thread as data — review, comment, author,
// state, body, replies, suggestion — the words of the review, byte for
// byte, so that no client parses the message or the hover.
func TestSourceDiagnosticsCarryTheThread(t *testing.T) {
	s := newSrcSession(t, 0, "", map[string]any{"author": "octo"})
	s.c.open("file:///elsewhere/other.review.json", `{"leanreview_review": 1, "patch": [], "comments": []}`)
	p := s.waitFor(s.source, "comments from the review on disk", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
	var got []ThreadData
	for _, d := range p.Diagnostics {
		var td ThreadData
		if err := json.Unmarshal([]byte(jsonOf(t, d.Data)), &td); err != nil {
			t.Fatalf("data of %q: %v", d.Message, err)
		}
		got = append(got, td)
	}
	c2, c1 := got[0], got[1]
	if c1.Comment != "c1" || c1.State != "active" || c1.Review != s.reviewURI || c1.ReviewName != "handler.review.json" || c1.OnRemovedLines || c1.Outdated {
		t.Errorf("c1: got %+v", c1)
	}
	if want := "Return the error 🚀.\n\n```suggestion\n    result, err := calculate(input)\n    if err != nil {\n        return Output{}, err\n    }\n```"; c1.Body != want {
		t.Errorf("c1's body: got %q, want %q", c1.Body, want)
	}
	if c1.Suggestion == nil || !slices.Equal(c1.Suggestion.Lines, []string{"    result, err := calculate(input)", "    if err != nil {", "        return Output{}, err", "    }"}) {
		t.Errorf("c1's suggestion: got %+v, want its four lines", c1.Suggestion)
	}
	if c1.Location.URI != s.reviewURI || c1.Location.Range.Start.Line != 22 {
		t.Errorf("c1's location: got %+v, want line 23 of the review (its body)", c1.Location)
	}
	if c2.Comment != "c2" || !c2.OnRemovedLines || c2.Suggestion != nil || c2.Body != "The old call ignored errors." || len(c2.Replies) != 0 {
		t.Errorf("c2: got %+v", c2)
	}

	// A reply written through lreview.reply: Markdown in, the JSON
	// string the server's, signed and stamped; the thread then holds it.
	words := "Done: \"quoted\", a tab\there,\nand a second line 🚀 \\ end"
	s.c.mustCall("workspace/executeCommand", map[string]any{"command": CommandReply, "arguments": []any{s.reviewURI, "c1", words}}, nil)
	s.c.mu.Lock()
	applied := slices.Clone(s.c.applied)
	s.c.mu.Unlock()
	if len(applied) != 1 || len(applied[0].Edit.DocumentChanges) != 1 {
		t.Fatalf("got %s, want one applyEdit of the review", jsonOf(t, applied))
	}
	text, err := os.ReadFile(s.review)
	if err != nil {
		t.Fatal(err)
	}
	after := applyTextEdits(t, string(text), exchange.UTF16, applied[0].Edit.DocumentChanges[0].Edits)
	if err := os.WriteFile(s.review, []byte(after), 0o644); err != nil {
		t.Fatal(err)
	}
	s.c.notifyServer("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": s.reviewURI, "type": 2}}})
	s.waitFor(s.source, "c1 with its reply", func(p publishedDiagnostics) bool {
		return len(p.Diagnostics) == 2 && strings.Contains(p.Diagnostics[1].Message, "1 reply")
	})
	var threads []SourceThread
	s.c.mustCall("workspace/executeCommand", map[string]any{"command": CommandThreads, "arguments": []any{map[string]any{"uri": s.source}}}, &threads)
	if len(threads) != 2 || len(threads[1].Thread.Replies) != 1 {
		t.Fatalf("lreview.threads: got %s, want c2 and c1 with its reply", jsonOf(t, threads))
	}
	if r := threads[1].Thread.Replies[0]; r.Body != words || r.Author != "octo" || r.At == "" {
		t.Errorf("the reply: got %+v, want %q by octo, stamped", r, words)
	}
	if threads[1].URI != s.source || threads[1].Range.Start.Line != 71 {
		t.Errorf("c1's place: got %s %+v, want %s line 72", threads[1].URI, threads[1].Range, s.source)
	}
	if !strings.Contains(after, `"body": "Done: \"quoted\", a tab\there,\nand a second line 🚀 \\ end"`) {
		t.Errorf("the reply's JSON string is not the writer's:\n%s", after)
	}

	// Every file's threads, with no argument; a comment that is not
	// there is an error that names it.
	var all []SourceThread
	s.c.mustCall("workspace/executeCommand", map[string]any{"command": CommandThreads}, &all)
	if len(all) != 2 {
		t.Errorf("every file's threads: got %d, want 2", len(all))
	}
	err = s.c.call("workspace/executeCommand", map[string]any{"command": CommandReply, "arguments": []any{s.reviewURI, "c9", "x"}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no comment c9") {
		t.Errorf("a reply to c9: got %v, want an error naming c9", err)
	}
}
