package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// srcSession is a workspace holding a review on disk (reviews/
// handler.review.json) and the source file it reviews, with no document
// open yet.
type srcSession struct {
	t            *testing.T
	c            *testClient
	root, review string
	source       protocol.DocumentURI
	reviewURI    protocol.DocumentURI
}

func newSrcSession(t *testing.T, shift int, changed string, settings map[string]any) *srcSession {
	t.Helper()
	root, review := testreviews.WorktreeRepo(t, shift, changed)
	c := newTestClient(t, Options{})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}}
	initializeIn(c, root, caps, settings)
	return &srcSession{t: t, c: c, root: root, review: review,
		source:    protocol.DocumentURI(uri.File(filepath.Join(root, "internal", "api", "handler.go"))),
		reviewURI: protocol.DocumentURI(uri.File(review))}
}

// openSource opens a source document as an editor does: its own language.
func (s *srcSession) openSource(u protocol.DocumentURI, text string) {
	s.t.Helper()
	s.c.notifyServer("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": u, "languageId": "go", "version": 1, "text": text},
	})
}

// waitFor waits for a publish on u that satisfies ok, and returns it.
func (s *srcSession) waitFor(u protocol.DocumentURI, what string, ok func(publishedDiagnostics) bool) publishedDiagnostics {
	s.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		s.c.mu.Lock()
		list := slices.Clone(s.c.diagnostics[u])
		s.c.mu.Unlock()
		if len(list) > 0 && ok(list[len(list)-1]) {
			return list[len(list)-1]
		}
		select {
		case <-s.c.notify:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			s.t.Fatalf("%s: no such publish on %s; the last were %s", what, u, jsonOf(s.t, list))
		}
	}
}

// idle waits until the server has nothing left to place or publish on
// the source files.
func (s *srcSession) idle() {
	s.t.Helper()
	st := s.c.srv.src
	deadline := time.Now().Add(20 * time.Second)
	for {
		st.mu.Lock()
		busy := st.running || st.dirtyAll || len(st.dirty) > 0 || st.rescan
		st.mu.Unlock()
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatal("the source comments never settled")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// summary is each diagnostic as "line-line severity: message" (lines
// from 1).
func summary(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		sev := map[protocol.DiagnosticSeverity]string{1: "error", 2: "warning", 3: "information", 4: "hint"}[d.Severity]
		out = append(out, strings.Join([]string{itoa(int(d.Range.Start.Line) + 1), "-", itoa(int(d.Range.End.Line) + 1), " ", sev, ": ", d.Message}, ""))
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSourceCommentsFromDisk: a review in scope that is not open puts
// its active comments on the source file, pushed before the file is
// opened; the dismissed one is not shown; the LEFT one sits on the first
// RIGHT line after the removed line and says so; each carries the thread
// in the review as related information.
func TestSourceCommentsFromDisk(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	// Any document starts the scan: here a review elsewhere, opened.
	s.c.open("file:///elsewhere/other.review.json", `{"leanreview_review": 1, "patch": [], "comments": []}`)
	p := s.waitFor(s.source, "comments from the review on disk", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })
	if p.Version != 0 {
		t.Errorf("version: got %d for a file not open, want none", p.Version)
	}
	want := []string{
		"72-72 information: c2: The old call ignored errors. · on removed lines",
		"72-73 information: c1: Return the error 🚀.",
	}
	if got := summary(p.Diagnostics); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, d := range p.Diagnostics {
		if d.Code != features.CodeReviewComment || d.Source != "lreview" {
			t.Errorf("code %v source %q, want %s lreview", d.Code, d.Source, features.CodeReviewComment)
		}
		if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != s.reviewURI {
			t.Errorf("related: got %s, want the comment in the review", jsonOf(t, d.RelatedInformation))
		}
	}
	// c1's body in the review: line 25 (from 0) of the review file.
	if rel := p.Diagnostics[1].RelatedInformation[0]; rel.Location.Range.Start.Line != 22 || rel.Message != "c1" {
		t.Errorf("c1's related: got %s, want line 23 of the review (its body), \"c1\"", jsonOf(t, rel))
	}
}

// TestSourceFollowsTheBuffer: typing three lines above a comment moves
// its diagnostic three lines down at once, in the buffer's version; the
// hover on the line shows the whole thread.
func TestSourceFollowsTheBuffer(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	text := testreviews.WorktreeSource(0, "")
	s.openSource(s.source, text)
	p := s.c.waitDiagnostics(s.source, 1)
	if len(p) != 2 || p[1].Range.Start.Line != 71 {
		t.Fatalf("version 1: got %q, want c2 and c1 at line 72", summary(p))
	}
	s.c.change(s.source, 2, &protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "a\nb\nc\n")
	p = s.c.waitDiagnostics(s.source, 2)
	if got := summary(p); len(got) != 2 || !strings.HasPrefix(got[1], "75-76 information: c1:") || !strings.HasPrefix(got[0], "75-75 information: c2:") {
		t.Errorf("after typing 3 lines above: got %q, want c2 at 75 and c1 at 75–76", got)
	}
	var h protocol.Hover
	s.c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": s.source}, "position": protocol.Position{Line: 74, Character: 4}}, &h)
	for _, want := range []string{"**`c1`** · active", "Return the error 🚀.", "**`c2`** · active", "The old call ignored errors."} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover: got %q, want it to hold %q", h.Contents.Value, want)
		}
	}
	var none *protocol.Hover
	s.c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": s.source}, "position": protocol.Position{Line: 10}}, &none)
	if none != nil {
		t.Errorf("hover off the comments: got %s, want null", jsonOf(t, none))
	}
}

// TestSourceNotAReview: a source document is never read as a review: a
// Go file gets no syntax error, and a file no review in scope names gets
// nothing at all — no diagnostic, no hover, no action.
func TestSourceNotAReview(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	other := protocol.DocumentURI(uri.File(filepath.Join(s.root, "main.go")))
	if err := os.WriteFile(fileOf(string(other)), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openSource(other, "package main\n\nfunc main() {}\n")
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.c.waitDiagnostics(s.source, 1)
	s.idle()
	s.c.mu.Lock()
	got := s.c.diagnostics[other]
	s.c.mu.Unlock()
	if len(got) != 0 {
		t.Errorf("main.go: got publishes %s, want none", jsonOf(t, got))
	}
	var h *protocol.Hover
	s.c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": other}, "position": protocol.Position{Line: 2}}, &h)
	var actions []protocol.CodeAction
	s.c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": other}, "range": protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	var symbols []any
	s.c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": other}}, &symbols)
	if h != nil || len(actions) != 0 || len(symbols) != 0 {
		t.Errorf("main.go: hover %s, actions %s, symbols %s; want nothing", jsonOf(t, h), jsonOf(t, actions), jsonOf(t, symbols))
	}
}

// TestSourceUnsavedReview: an open review's unsaved text is what the
// source shows, not its file on disk; closing it brings the disk's back.
func TestSourceUnsavedReview(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	edited := strings.Replace(testreviews.WorktreeReview, "Return the error 🚀.", "Unsaved words.", 1)
	s.c.open(s.reviewURI, edited)
	s.waitFor(s.source, "the unsaved text", func(p publishedDiagnostics) bool {
		return len(p.Diagnostics) == 2 && p.Diagnostics[1].Message == "c1: Unsaved words."
	})
	s.c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": s.reviewURI}})
	s.waitFor(s.source, "the disk's text once closed", func(p publishedDiagnostics) bool {
		return len(p.Diagnostics) == 2 && p.Diagnostics[1].Message == "c1: Return the error 🚀."
	})
}

// secondReview is another review of handler.go, by another author.
const secondReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/internal/api/handler.go b/internal/api/handler.go",
    "--- a/internal/api/handler.go",
    "+++ b/internal/api/handler.go",
    "@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {",
    "     ctx := context.Background()",
    "     defer cancel(ctx)",
    "-    result := calculate(input)",
    "+    result, err := calculate(input)",
    "+    _ = err // 🚀 later",
    "     return result, nil"
  ],
  "comments": [
    {"id": "s1", "author": "assistant", "path": "internal/api/handler.go", "side": "RIGHT", "start_line": 70, "body": "Which context?\nMore.",
     "replies": [{"author": "user", "body": "Background is fine."}, {"author": "assistant", "body": "OK."}]},
    {"id": "s2", "path": "../outside.go", "side": "RIGHT", "start_line": 1, "body": "Out of the root."}
  ]
}
`

// TestSourceTwoReviews: two reviews naming the same file are both shown,
// each naming its review; replies are counted and related; a path that
// escapes the root publishes nothing, even when the file exists.
func TestSourceTwoReviews(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	if err := os.WriteFile(filepath.Join(s.root, "reviews", "second.review.json"), []byte(secondReview), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(s.root), "outside.go")
	if err := os.WriteFile(outside, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	p := s.waitFor(s.source, "two reviews", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 3 })
	want := []string{
		"70-70 information: s1 (assistant): Which context? · 2 replies · in second.review.json",
		"72-72 information: c2: The old call ignored errors. · on removed lines · in handler.review.json",
		"72-73 information: c1: Return the error 🚀. · in handler.review.json",
	}
	if got := summary(p.Diagnostics); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if rel := p.Diagnostics[0].RelatedInformation; len(rel) != 3 || rel[2].Message != "reply 2 by assistant" {
		t.Errorf("s1's related: got %s, want the comment and its two replies", jsonOf(t, rel))
	}
	// The actions name their review too: "Reply to c1" could be either's.
	var actions []protocol.CodeAction
	s.c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": s.source}, "range": protocol.Range{Start: protocol.Position{Line: 69}, End: protocol.Position{Line: 69}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) == 0 || actions[0].Title != "Reply to s1 · in second.review.json" {
		t.Errorf("actions on s1's line: got %s, want the first \"Reply to s1 · in second.review.json\"", jsonOf(t, actions))
	}
	s.idle()
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	for u := range s.c.diagnostics {
		if !strings.HasPrefix(fileOf(string(u)), s.root) {
			t.Errorf("published on %s, outside the root", u)
		}
	}
}

// TestSourceOutdated: a comment whose lines the file no longer holds is
// a hint saying "outdated", at the nearest place holding a part of them;
// the setting hides it, and another sets the severity of the others.
func TestSourceOutdated(t *testing.T) {
	text := strings.Replace(testreviews.WorktreeSource(0, ""), "    _ = err // 🚀 later", "    log(err)", 1)
	for _, c := range []struct {
		settings map[string]any
		want     []string
	}{
		{nil, []string{
			"72-72 hint: c1: Return the error 🚀. · outdated: the code changed since the review",
			"72-72 information: c2: The old call ignored errors. · on removed lines",
		}},
		{map[string]any{"comments": map[string]any{"outdated": false, "severity": "warning"}}, []string{
			"72-72 warning: c2: The old call ignored errors. · on removed lines",
		}},
	} {
		s := newSrcSession(t, 0, "", c.settings)
		s.openSource(s.source, text)
		if got := summary(s.c.waitDiagnostics(s.source, 1)); !slices.Equal(got, c.want) {
			t.Errorf("settings %v: got %q, want %q", c.settings, got, c.want)
		}
	}
}

// TestSourceActions: on a commented line of the source, the actions are
// reply (a versioned edit of the review, then the cursor in the new
// body), dismiss, apply the suggestion (to the buffer) and show in the
// review.
func TestSourceActions(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	s.c.open(s.reviewURI, testreviews.WorktreeReview)
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.c.waitDiagnostics(s.source, 1)
	var actions []protocol.CodeAction
	s.c.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": s.source}, "range": protocol.Range{Start: protocol.Position{Line: 72}, End: protocol.Position{Line: 72}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	want := []string{"Reply to c1", "Dismiss c1", "Apply c1's suggestion to internal/api/handler.go:72–73", "Show c1 in the review"}
	if !slices.Equal(titles, want) {
		t.Fatalf("actions: got %q, want %q", titles, want)
	}
	reply := actions[0]
	if reply.Edit == nil || len(reply.Edit.DocumentChanges) != 1 || reply.Edit.DocumentChanges[0].TextDocument.URI != s.reviewURI ||
		reply.Edit.DocumentChanges[0].TextDocument.Version == nil || *reply.Edit.DocumentChanges[0].TextDocument.Version != 1 {
		t.Fatalf("reply: got %s, want a versioned edit of the review at version 1", jsonOf(t, reply.Edit))
	}
	// Applied, the edit adds an empty reply, and the cursor lands in its body.
	text := applyTextEdits(t, testreviews.WorktreeReview, exchange.UTF16, reply.Edit.DocumentChanges[0].Edits)
	// Its command is lreview.showBody of the new reply (Neovim's plugin
	// runs it itself, as a Markdown buffer); run by the server once the
	// edit is in, it shows the review with the cursor in the new body.
	if reply.Command == nil || reply.Command.Command != CommandShowBody || jsonOf(t, reply.Command.Arguments[1:]) != `["c1",0]` {
		t.Fatalf("reply's command: got %s, want %s of c1's reply 0", jsonOf(t, reply.Command), CommandShowBody)
	}
	s.c.change(s.reviewURI, 2, nil, text)
	s.c.waitDiagnostics(s.reviewURI, 2)
	s.c.mustCall("workspace/executeCommand", map[string]any{"command": reply.Command.Command, "arguments": reply.Command.Arguments}, nil)
	s.c.mu.Lock()
	shown := slices.Clone(s.c.shown)
	s.c.mu.Unlock()
	if len(shown) != 1 || shown[0].Selection == nil {
		t.Fatalf("showBody: got %s, want one showDocument", jsonOf(t, shown))
	}
	at := shown[0].Selection.Start
	line := strings.Split(text, "\n")[at.Line]
	if !strings.Contains(line, `"body": ""`) || utf16Units(line)[at.Character-1] != '"' {
		t.Errorf("cursor: line %q at %d, want inside the new reply's empty body", line, at.Character)
	}
	doc := exchange.Parse([]byte(text))
	if len(doc.Syntax) > 0 || len(doc.Review.Comments[0].Replies) != 1 || doc.Review.Comments[0].Replies[0].Author != "user" {
		t.Errorf("the review after the reply: %s", text)
	}
	dismiss := actions[1].Edit.DocumentChanges[0]
	text = applyTextEdits(t, testreviews.WorktreeReview, exchange.UTF16, dismiss.Edits)
	if doc := exchange.Parse([]byte(text)); doc.Review.Comments[0].State != "dismissed" || doc.Review.Comments[1].StateNorm() != "active" {
		t.Errorf("dismiss changed the wrong comment: %s", text)
	}
	apply := actions[2].Edit.DocumentChanges[0]
	if apply.TextDocument.URI != s.source || apply.TextDocument.Version == nil || *apply.TextDocument.Version != 1 {
		t.Errorf("apply: got %s, want an edit of the source buffer at version 1", jsonOf(t, apply))
	}
}

// TestSourceNextPrevious: nextComment and previousComment go across the
// files in path order, then line, wrapping around.
func TestSourceNextPrevious(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	other := filepath.Join(s.root, "internal", "api", "zz.go")
	if err := os.WriteFile(other, []byte(testreviews.WorktreeSource(0, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	second := strings.ReplaceAll(secondReview, "internal/api/handler.go", "internal/api/zz.go")
	if err := os.WriteFile(filepath.Join(s.root, "reviews", "second.review.json"), []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openSource(s.source, testreviews.WorktreeSource(0, ""))
	s.c.waitDiagnostics(s.source, 1)
	s.idle()
	zz := protocol.DocumentURI(uri.File(other))
	move := func(cmd string, u protocol.DocumentURI, line uint32) string {
		var loc *protocol.Location
		s.c.mustCall("workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{map[string]any{"uri": u, "position": protocol.Position{Line: line}}}}, &loc)
		if loc == nil {
			return "null"
		}
		return filepath.Base(fileOf(string(loc.URI))) + ":" + itoa(int(loc.Range.Start.Line)+1)
	}
	for _, c := range []struct {
		cmd  string
		u    protocol.DocumentURI
		line uint32
		want string
	}{
		{CommandNextComment, s.source, 0, "handler.go:72"},
		{CommandNextComment, s.source, 71, "zz.go:70"},
		{CommandNextComment, zz, 69, "handler.go:72"},
		{CommandPreviousComment, s.source, 71, "zz.go:70"},
		{CommandPreviousComment, zz, 80, "zz.go:70"},
		{CommandPreviousComment, zz, 69, "handler.go:72"},
	} {
		if got := move(c.cmd, c.u, c.line); got != c.want {
			t.Errorf("%s from %s:%d: got %s, want %s", c.cmd, filepath.Base(string(c.u)), c.line+1, got, c.want)
		}
	}
}

// TestOpenReviewNotParsedTwice: a review in scope on disk, scanned before
// the editor opened it (a configuration change starts a scan), keeps no
// parse of its file once it is open — its buffer stands for it — and has
// one again once it is closed.
func TestOpenReviewNotParsedTwice(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	onDisk := func() bool {
		st := s.c.srv.src
		st.mu.Lock()
		defer st.mu.Unlock()
		return st.disk[s.review] != nil
	}
	// Settings before any document: the first scan waits for the first
	// document, the review the editor opens next.
	s.c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{}}})
	var syms json.RawMessage
	_ = s.c.call("workspace/symbol", map[string]any{"query": ""}, &syms) // the notification is handled
	s.idle()
	if onDisk() {
		t.Fatalf("settings before any document was opened scanned %s", s.review)
	}
	s.c.srv.scanReviews(t.Context())
	if !onDisk() {
		t.Fatalf("the scan kept no parse of %s, which is in scope", s.review)
	}
	text, err := os.ReadFile(s.review)
	if err != nil {
		t.Fatal(err)
	}
	s.c.open(s.reviewURI, string(text))
	s.c.waitDiagnostics(s.reviewURI, 1)
	if onDisk() {
		t.Errorf("open: the parse of %s on disk is kept beside the open review's", s.review)
	}
	s.c.srv.scanReviews(t.Context())
	if onDisk() {
		t.Errorf("a scan while the review is open parsed its file on disk")
	}
	s.c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": s.reviewURI}})
	s.c.waitDiagnosticsCleared(s.reviewURI)
	// The rescan that reads it again is scheduled after the clear is
	// queued (modifyFiles publishes last): wait for it, not for time.
	for deadline := time.Now().Add(20 * time.Second); !onDisk(); time.Sleep(5 * time.Millisecond) {
		s.idle()
		if time.Now().After(deadline) {
			t.Fatalf("closed: the review on disk is not in scope again")
		}
	}
}

// TestScanMeetsOpen: a scan that reads the review's file while the editor
// opens it keeps no parse of it once both are done, whichever comes
// first (the scan leaves out what was opened while it read; the open
// drops what a scan kept).
func TestScanMeetsOpen(t *testing.T) {
	for range 10 {
		s := newSrcSession(t, 0, "", nil)
		text, err := os.ReadFile(s.review)
		if err != nil {
			t.Fatal(err)
		}
		scanned := make(chan struct{})
		go func() {
			defer close(scanned)
			s.c.srv.scanReviews(t.Context())
		}()
		s.c.open(s.reviewURI, string(text))
		s.c.waitDiagnostics(s.reviewURI, 1)
		<-scanned
		s.idle()
		st := s.c.srv.src
		st.mu.Lock()
		kept := st.disk[s.review] != nil
		st.mu.Unlock()
		if kept {
			t.Fatalf("the scan kept a parse of %s, open in the editor", s.review)
		}
	}
}
