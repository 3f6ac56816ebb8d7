package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// wtSession is a review opened in a workspace that is its repository.
type wtSession struct {
	t      *testing.T
	c      *testClient
	root   string
	uri    protocol.DocumentURI
	source string // the working-tree file's path
}

func newWTSession(t *testing.T, settings map[string]any) *wtSession {
	t.Helper()
	return newWTSessionWith(t, settings, fullCapabilities("utf-16"))
}

// newWTSessionWith is newWTSession from a client with caps, to which it
// adds applyEdit and dynamic file watching.
func newWTSessionWith(t *testing.T, settings, caps map[string]any) *wtSession {
	t.Helper()
	root, review := testreviews.WorktreeRepo(t, 0, "")
	c := newTestClient(t, Options{})
	caps["workspace"] = map[string]any{"applyEdit": true, "didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}
	initializeIn(c, root, caps, settings)
	s := &wtSession{t: t, c: c, root: root, uri: protocol.DocumentURI(uri.File(review)), source: filepath.Join(root, "internal", "api", "handler.go")}
	c.open(s.uri, testreviews.WorktreeReview)
	return s
}

// initializeIn initializes c as a client with caps whose one workspace
// folder is root, with settings (when not nil) as initializationOptions.
func initializeIn(c *testClient, root string, caps, settings map[string]any) {
	params := map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(root), "name": "repo"}},
		"capabilities":     caps,
	}
	if settings != nil {
		params["initializationOptions"] = settings
	}
	c.mustCall("initialize", params, nil)
	c.notifyServer("initialized", map[string]any{})
}

// pos is the UTF-16 position of the n-th (from 0) needle in the review,
// one byte inside it.
func (s *wtSession) pos(needle string, n int) protocol.Position {
	s.t.Helper()
	text := testreviews.WorktreeReview
	off := -1
	for ; n >= 0; n-- {
		i := strings.Index(text[off+1:], needle)
		if i < 0 {
			s.t.Fatalf("%q not in the review", needle)
		}
		off += 1 + i
	}
	return navPosition(text, off+1, exchange.UTF16)
}

func (s *wtSession) textPos(p protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": s.uri}, "position": p}
}

// rewrite replaces the source file and tells the server, as the
// client's file watcher does.
func (s *wtSession) rewrite(content string) {
	s.t.Helper()
	if err := os.WriteFile(s.source, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	later := time.Now().Add(time.Hour) // a new mtime, whatever the clock's grain
	_ = os.Chtimes(s.source, later, later)
	s.c.notifyServer("workspace/didChangeWatchedFiles", map[string]any{
		"changes": []any{map[string]any{"uri": uri.File(s.source), "type": 2}},
	})
}

// waitCodes waits for a publish of version 1 whose worktree codes are
// want (in order), and returns it.
func (s *wtSession) waitCodes(want ...string) []protocol.Diagnostic {
	s.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		s.c.mu.Lock()
		list := s.c.diagnostics[s.uri]
		var last []protocol.Diagnostic
		if len(list) > 0 {
			last = list[len(list)-1].Diagnostics
		}
		s.c.mu.Unlock()
		var got []string
		for _, d := range last {
			if code, _ := d.Code.(string); code == features.CodeSourceChanged || code == features.CodeWorktreeDiffers || code == features.CodeSuggestionApplied {
				got = append(got, code)
			}
		}
		if len(list) > 0 && slices.Equal(got, want) {
			return last
		}
		select {
		case <-s.c.notify:
		case <-deadline:
			s.t.Fatalf("no publish with worktree codes %v; the last had %v", want, got)
		}
	}
}

func (s *wtSession) locations(method string, p protocol.Position) []protocol.Location {
	s.t.Helper()
	var out []protocol.Location
	s.c.mustCall(method, s.textPos(p), &out)
	return out
}

// wantLines checks that locs is one location in the source file, from
// the start of line first to the end of line last (0-based).
func (s *wtSession) wantLines(what string, locs []protocol.Location, first, last uint32) {
	s.t.Helper()
	lines := strings.Split(readFile(s.t, s.source), "\n")
	endChar := uint32(len(utf16Units(lines[last])))
	want := protocol.Location{URI: protocol.DocumentURI(uri.File(s.source)), Range: protocol.Range{
		Start: protocol.Position{Line: first}, End: protocol.Position{Line: last, Character: endChar}}}
	if len(locs) != 1 || locs[0] != want {
		s.t.Errorf("%s: got %v, want %v", what, locs, want)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWorktreeDefinitionImplementationLinks(t *testing.T) {
	s := newWTSession(t, nil)
	s.waitCodes()
	added := s.pos(`"+    _ = err`, 0)
	s.wantLines("definition on an added line", s.locations("textDocument/definition", added), 72, 72)
	s.wantLines("definition on the removed line", s.locations("textDocument/definition", s.pos(`"-    result`, 0)), 71, 71)
	s.wantLines("implementation on c1's body", s.locations("textDocument/implementation", s.pos(`Return the error`, 0)), 71, 72)
	s.wantLines("implementation on c2's side", s.locations("textDocument/implementation", s.pos(`"LEFT"`, 0)), 71, 71)
	// From an anchor member, definition still goes to the patch.
	if got := s.locations("textDocument/definition", s.pos(`"start_line": 72`, 0)); len(got) != 1 || got[0].URI != s.uri {
		t.Errorf("definition on start_line: got %v, want the patch lines in the review", got)
	}

	var links []protocol.DocumentLink
	s.c.mustCall("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": s.uri}}, &links)
	var got []string
	for _, l := range links {
		got = append(got, strings.TrimPrefix(string(l.Target), string(uri.File(s.root))))
	}
	want := []string{"/internal/api/handler.go#L70", "/internal/api/handler.go#L70", "/internal/api/handler.go#L72", "/internal/api/handler.go#L72", "/internal/api/handler.go#L74"}
	if !slices.Equal(got, want) {
		t.Errorf("documentLink targets: got %v, want %v", got, want)
	}

	// The code moves down three lines: no diagnostic, the locations follow.
	s.rewrite(testreviews.WorktreeSource(3, ""))
	s.waitCodes()
	s.wantLines("definition after the move", s.locations("textDocument/definition", added), 75, 75)
	var h protocol.Hover
	s.c.mustCall("textDocument/hover", s.textPos(s.pos(`Return the error`, 0)), &h)
	if want := "**Working tree:** `internal/api/handler.go:75–76`, moved 3 lines down."; !strings.HasSuffix(h.Contents.Value, want) {
		t.Errorf("hover: got %q, want it to end with %q", h.Contents.Value, want)
	}

	regs := s.registrations()
	if len(regs) != 1 || regs[0].Registrations[0].Method != "workspace/didChangeWatchedFiles" || !strings.Contains(jsonOf(t, regs[0]), "internal/api/handler.go") {
		t.Errorf("registrations: got %s, want one of didChangeWatchedFiles for handler.go", jsonOf(t, regs))
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	return string(mustMarshal(t, v))
}

func TestWorktreeSourceChanged(t *testing.T) {
	s := newWTSession(t, nil)
	s.waitCodes()
	s.rewrite(testreviews.WorktreeSource(0, "    result, err := calculate(input, opts)"))
	ds := s.waitCodes(features.CodeSourceChanged)
	var d protocol.Diagnostic
	for _, x := range ds {
		if x.Code == features.CodeSourceChanged {
			d = x
		}
	}
	if want := "internal/api/handler.go no longer holds RIGHT 72–73 of the review: the code changed since"; d.Message != want || d.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("got %v %q, want information %q", d.Severity, d.Message, want)
	}
	if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != protocol.DocumentURI(uri.File(s.source)) || d.RelatedInformation[0].Location.Range.Start.Line != 72 {
		t.Errorf("related: got %v, want handler.go line 73", d.RelatedInformation)
	}
	// The suggestion is not offered on lines the tree no longer holds.
	if titles := s.actionTitles(); slices.ContainsFunc(titles, func(x string) bool { return strings.HasPrefix(x, "Apply") }) {
		t.Errorf("actions: got %v, want no Apply", titles)
	}
	// The tree is then plainly another revision: said once, on the patch.
	s.rewrite("package api\n")
	ds = s.waitCodes(features.CodeWorktreeDiffers)
	for _, x := range ds {
		if x.Code == features.CodeWorktreeDiffers && !strings.Contains(x.Message, "0 of the 1 files") {
			t.Errorf("worktree-differs: got %q, want it to name 0 of the 1 files", x.Message)
		}
	}
}

// actions are the code actions at the start of c1's body.
func (s *wtSession) actions() []protocol.CodeAction {
	s.t.Helper()
	var actions []protocol.CodeAction
	s.codeActionsInto(&actions)
	return actions
}

// codeActionsInto decodes the answer to codeAction at the start of c1's
// body into out: CodeAction literals, or Commands.
func (s *wtSession) codeActionsInto(out any) {
	s.t.Helper()
	p := s.pos(`Return the error`, 0)
	s.c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"range":        protocol.Range{Start: p, End: p},
		"context":      map[string]any{"diagnostics": []any{}},
	}, out)
}

func (s *wtSession) actionTitles() []string {
	s.t.Helper()
	var titles []string
	for _, a := range s.actions() {
		titles = append(titles, a.Title)
	}
	return titles
}

func TestWorktreeApplySuggestion(t *testing.T) {
	s := newWTSession(t, nil)
	s.rewrite(testreviews.WorktreeSource(1, ""))
	s.waitCodes()
	actions := s.actions()
	var apply *protocol.CodeAction
	for i := range actions {
		if actions[i].Title == "Apply c1's suggestion to internal/api/handler.go:73–74" {
			apply = &actions[i]
		}
	}
	if apply == nil || apply.Command == nil {
		t.Fatalf("no action \"Apply c1's suggestion to internal/api/handler.go:73–74\" with a command among %v", actions)
	}
	s.c.mustCall("workspace/executeCommand", map[string]any{"command": apply.Command.Command, "arguments": apply.Command.Arguments}, nil)
	s.c.mu.Lock()
	edits := slices.Clone(s.c.applied)
	s.c.mu.Unlock()
	if len(edits) != 1 {
		t.Fatalf("got %d applyEdit requests, want 1", len(edits))
	}
	source := readFile(t, s.source)
	tes := edits[0].Edit.Changes[protocol.DocumentURI(uri.File(s.source))]
	if len(tes) != 1 {
		t.Fatalf("applyEdit: got %v, want one edit of %s", edits[0].Edit, s.source)
	}
	start, end := navOffset(t, source, tes[0].Range.Start, exchange.UTF16), navOffset(t, source, tes[0].Range.End, exchange.UTF16)
	got := source[:start] + tes[0].NewText + source[end:]
	want := strings.Replace(testreviews.WorktreeSource(1, ""), "    _ = err // 🚀 later\n", "    if err != nil {\n        return Output{}, err\n    }\n", 1)
	if got != want {
		t.Errorf("the file once the edit is applied:\n%s\nwant\n%s", got, want)
	}
	if readFile(t, s.source) != source {
		t.Errorf("the server wrote the file itself")
	}
}

func TestWorktreeOff(t *testing.T) {
	s := newWTSession(t, map[string]any{"lreview": map[string]any{"workingTree": false}})
	s.rewrite("package api\n")
	s.c.waitDiagnostics(s.uri, 1)
	if got := s.locations("textDocument/implementation", s.pos(`Return the error`, 0)); len(got) != 0 {
		t.Errorf("implementation with workingTree false: got %v, want none", got)
	}
	for _, d := range s.c.waitDiagnostics(s.uri, 1) {
		if d.Code == features.CodeWorktreeDiffers {
			t.Errorf("workingTree false: got %s", d.Message)
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16Units(s string) []uint16 { return utf16.Encode([]rune(s)) }

// registrations waits for the server's client/registerCapability
// requests of the review's working tree, sent once the first diagnostics
// are decided (those of the reviews in scope, "lreview-scope", aside).
func (s *wtSession) registrations() []protocol.RegistrationParams {
	s.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		s.c.mu.Lock()
		regs := slices.DeleteFunc(slices.Clone(s.c.registrations), func(r protocol.RegistrationParams) bool {
			return len(r.Registrations) > 0 && r.Registrations[0].ID == "lreview-scope"
		})
		s.c.mu.Unlock()
		if len(regs) > 0 {
			return regs
		}
		select {
		case <-s.c.notify:
		case <-deadline:
			s.t.Fatal("no client/registerCapability request")
		}
	}
}

// TestWorktreeWatchersWithdrawnOnClose: closing a review withdraws the
// file watchers its working tree registered. The test waits for that
// unregistration itself: the scope's watchers ("lreview-scope") are
// withdrawn and registered again as the scope changes, before or after it.
func TestWorktreeWatchersWithdrawnOnClose(t *testing.T) {
	s := newWTSession(t, nil)
	s.waitCodes()
	id := s.registrations()[0].Registrations[0].ID
	s.c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": s.uri}})
	deadline := time.After(20 * time.Second)
	for {
		s.c.mu.Lock()
		var seen []protocol.Unregistration
		for _, p := range s.c.unregistrations {
			seen = append(seen, p.Unregisterations...)
		}
		s.c.mu.Unlock()
		if i := slices.IndexFunc(seen, func(u protocol.Unregistration) bool { return u.ID == id }); i >= 0 {
			if got := seen[i]; got.Method != "workspace/didChangeWatchedFiles" {
				t.Errorf("unregistration: got %+v, want id %q of workspace/didChangeWatchedFiles", got, id)
			}
			return
		}
		select {
		case <-s.c.notify:
		case <-deadline:
			t.Fatalf("no client/unregisterCapability of %s after the close; got %+v", id, seen)
		}
	}
}

// TestWorktreeSourceRootSetting: a review kept outside the repository
// finds it through lreview.sourceRoot; without it, the review has no
// working tree and nothing is said.
func TestWorktreeSourceRootSetting(t *testing.T) {
	root, _ := testreviews.WorktreeRepo(t, 2, "")
	elsewhere := filepath.Join(t.TempDir(), "x.review.json")
	if err := os.WriteFile(elsewhere, []byte(testreviews.WorktreeReview), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		settings map[string]any
		want     int // 1-based line of c1 in handler.go, 0 for none
	}{
		{"no root", nil, 0},
		{"sourceRoot", map[string]any{"sourceRoot": root}, 74},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, Options{})
			params := map[string]any{"processId": nil, "capabilities": map[string]any{}}
			if tc.settings != nil {
				params["initializationOptions"] = tc.settings
			}
			c.mustCall("initialize", params, nil)
			c.notifyServer("initialized", map[string]any{})
			u := protocol.DocumentURI(uri.File(elsewhere))
			c.open(u, testreviews.WorktreeReview)
			for _, d := range c.waitDiagnostics(u, 1) {
				if d.Code == features.CodeWorktreeDiffers || d.Code == features.CodeSourceChanged {
					t.Errorf("got %s: %s", d.Code, d.Message)
				}
			}
			off := strings.Index(testreviews.WorktreeReview, "Return the error") + 1
			var locs []protocol.Location
			c.mustCall("textDocument/implementation", map[string]any{"textDocument": map[string]any{"uri": u}, "position": navPosition(testreviews.WorktreeReview, off, exchange.UTF16)}, &locs)
			switch {
			case tc.want == 0 && len(locs) != 0:
				t.Errorf("implementation: got %v, want none", locs)
			case tc.want > 0 && (len(locs) != 1 || locs[0].Range.Start.Line != uint32(tc.want-1)):
				t.Errorf("implementation: got %v, want handler.go line %d", locs, tc.want)
			}
		})
	}
}

// TestWorktreeSuggestionAsCommand: a client that takes code actions only
// as Commands gets the suggestion's own command, which applies it, not a
// command carrying an edit it does not have.
func TestWorktreeSuggestionAsCommand(t *testing.T) {
	caps := fullCapabilities("utf-16")
	delete(caps["textDocument"].(map[string]any)["codeAction"].(map[string]any), "codeActionLiteralSupport")
	s := newWTSessionWith(t, nil, caps)
	s.waitCodes()
	var commands []protocol.Command
	s.codeActionsInto(&commands)
	const title = "Apply c1's suggestion to internal/api/handler.go:72–73"
	i := slices.IndexFunc(commands, func(c protocol.Command) bool { return c.Title == title })
	if i < 0 || commands[i].Command != CommandApplySuggestion {
		t.Fatalf("got %+v, want a command %q running %s", commands, title, CommandApplySuggestion)
	}
	s.c.mustCall("workspace/executeCommand", map[string]any{"command": commands[i].Command, "arguments": commands[i].Arguments}, nil)
	s.c.mu.Lock()
	applied := len(s.c.applied)
	s.c.mu.Unlock()
	if applied != 1 {
		t.Errorf("got %d applyEdit requests, want 1", applied)
	}
}

// TestWorktreeUnopenedRootIsLogged: a sourceRoot (in the workspace) that
// is not a directory turns the working tree off for the review, and the
// server says so once.
func TestWorktreeUnopenedRootIsLogged(t *testing.T) {
	s := newWTSession(t, map[string]any{"lreview": map[string]any{"sourceRoot": "missing"}})
	missing := filepath.Join(s.root, "missing")
	s.c.waitDiagnostics(s.uri, 1)
	if got := s.locations("textDocument/implementation", s.pos(`Return the error`, 0)); len(got) != 0 {
		t.Errorf("implementation: got %v, want none without a working tree", got)
	}
	deadline := time.After(20 * time.Second)
	for {
		s.c.mu.Lock()
		logs := slices.Clone(s.c.logs)
		s.c.mu.Unlock()
		if n := len(slices.DeleteFunc(logs, func(l string) bool { return !strings.Contains(l, missing) })); n > 0 {
			if n != 1 {
				t.Errorf("got %d log messages naming %s, want 1", n, missing)
			}
			return
		}
		select {
		case <-s.c.notify:
		case <-deadline:
			t.Fatalf("no log message names %s; logs: %q", missing, logs)
		}
	}
}

// TestWorktreeWarmUpRepublishesFromTheFirst: the publish that follows
// the first read of a review's working-tree files comes after the first
// publish and adds to it only what the read found: of the 8 MB review's
// diagnostics, in a folder without its files, the one that says so
// (before, the second publish ran beside the first, and could arrive
// before it).
func TestWorktreeWarmUpRepublishesFromTheFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("opens the 8 MB review")
	}
	root := t.TempDir()
	c := newTestClient(t, Options{})
	initializeIn(c, root, fullCapabilities("utf-16"), nil)
	review := protocol.DocumentURI(uri.File(filepath.Join(root, "big.review.json")))
	c.open(review, string(generatedReview()))
	deadline := time.After(60 * time.Second)
	for {
		c.mu.Lock()
		n := len(c.diagnostics[review])
		c.mu.Unlock()
		if n >= 2 {
			break
		}
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatalf("%d publishes of the review, want the first and the one after the working tree was read", n)
		}
	}
	c.mu.Lock()
	pubs := c.diagnostics[review]
	c.mu.Unlock()
	first, second := pubs[0].Diagnostics, pubs[1].Diagnostics
	if len(first) < 100 || len(second) != len(first)+1 || countCode(first, "worktree-differs") != 0 || countCode(second, "worktree-differs") != 1 {
		t.Errorf("publishes of %d then %d diagnostics, %d then %d of them worktree-differs; want the first's and then one more, worktree-differs",
			len(first), len(second), countCode(first, "worktree-differs"), countCode(second, "worktree-differs"))
	}
}

func countCode(ds []protocol.Diagnostic, code string) int {
	n := 0
	for _, d := range ds {
		if d.Code == code {
			n++
		}
	}
	return n
}
