package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// caSession is one open document in a test session, tracked with its
// text, version and encoding, so that code actions can be applied to it
// and the result sent back to the server as the client would.
type caSession struct {
	t       *testing.T
	c       *testClient
	uri     protocol.DocumentURI
	enc     exchange.Encoding
	text    string
	version int32
}

// caOpen starts a server, offers encodings, opens text and waits for its
// first diagnostics.
func caOpen(t *testing.T, text string, encodings ...string) *caSession {
	t.Helper()
	return caOpenWith(t, text, encodings, Options{})
}

// caOpenWith is caOpen with a server of the given options.
func caOpenWith(t *testing.T, text string, encodings []string, opts Options) *caSession {
	t.Helper()
	c := newTestClient(t, opts)
	res := c.initialize(encodings...)
	enc := exchange.UTF16
	if res.Capabilities.PositionEncoding == "utf-8" {
		enc = exchange.UTF8
	}
	s := &caSession{t: t, c: c, uri: "file:///work/r.review.json", enc: enc, text: text, version: 1}
	c.open(s.uri, text)
	c.waitDiagnostics(s.uri, 1)
	return s
}

// diagnostics returns the diagnostics of the current version.
func (s *caSession) diagnostics() []protocol.Diagnostic {
	s.t.Helper()
	return s.c.waitDiagnostics(s.uri, s.version)
}

// pos returns the position of the first occurrence of needle, plus skip
// bytes, in the session's encoding.
func (s *caSession) pos(needle string, skip int) protocol.Position {
	s.t.Helper()
	i := strings.Index(s.text, needle)
	if i < 0 {
		s.t.Fatalf("%q is not in the document", needle)
	}
	p := exchange.NewMapper([]byte(s.text)).Position(i+skip, s.enc)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

// at is an empty range (a cursor) inside needle.
func (s *caSession) at(needle string) protocol.Range {
	p := s.pos(needle, 1)
	return protocol.Range{Start: p, End: p}
}

// last is a cursor inside the last occurrence of needle.
func (s *caSession) last(needle string) protocol.Range {
	s.t.Helper()
	i := strings.LastIndex(s.text, needle)
	if i < 0 {
		s.t.Fatalf("%q is not in the document", needle)
	}
	p := exchange.NewMapper([]byte(s.text)).Position(i+1, s.enc)
	pos := protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
	return protocol.Range{Start: pos, End: pos}
}

// actions asks for the code actions of rng.
func (s *caSession) actions(rng protocol.Range, only []string, diags []protocol.Diagnostic) []protocol.CodeAction {
	s.t.Helper()
	ctx := map[string]any{"diagnostics": diags}
	if diags == nil {
		ctx["diagnostics"] = []any{}
	}
	if only != nil {
		ctx["only"] = only
	}
	var out []protocol.CodeAction
	s.c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": s.uri},
		"range":        rng,
		"context":      ctx,
	}, &out)
	return out
}

// apply applies action's edit to the text, sends the new text to the
// server and waits for its diagnostics.
func (s *caSession) apply(a protocol.CodeAction) []protocol.Diagnostic {
	s.t.Helper()
	s.text = s.applied(a)
	s.version++
	s.c.change(s.uri, s.version, nil, s.text)
	return s.diagnostics()
}

// applied returns the text with action's edit applied, converting the
// edit's positions with the session's encoding.
func (s *caSession) applied(a protocol.CodeAction) string {
	s.t.Helper()
	if a.Edit == nil || len(a.Edit.DocumentChanges) > 0 {
		s.t.Fatalf("action %q: got edit %+v, want changes only", a.Title, a.Edit)
	}
	for uri := range a.Edit.Changes {
		if uri != s.uri {
			s.t.Fatalf("action %q edits %s, want only %s", a.Title, uri, s.uri)
		}
	}
	return caApply(s.t, s.text, a.Edit.Changes[s.uri], s.enc)
}

// caApply applies protocol edits to text, as an editor would.
func caApply(t *testing.T, text string, edits []protocol.TextEdit, enc exchange.Encoding) string {
	t.Helper()
	m := exchange.NewMapper([]byte(text))
	var es []exchange.Edit
	for _, e := range edits {
		start, err1 := m.Offset(exchange.Position{Line: int(e.Range.Start.Line), Character: int(e.Range.Start.Character)}, enc)
		end, err2 := m.Offset(exchange.Position{Line: int(e.Range.End.Line), Character: int(e.Range.End.Character)}, enc)
		if err1 != nil || err2 != nil {
			t.Fatalf("edit %+v does not map: %v %v", e, err1, err2)
		}
		es = append(es, exchange.Edit{Start: start, End: end, NewText: e.NewText})
	}
	out, err := exchange.ApplyEdits([]byte(text), es)
	if err != nil {
		t.Fatalf("applying %+v: %v", edits, err)
	}
	return string(out)
}

// caFind returns the action whose title starts with prefix.
func caFind(t *testing.T, as []protocol.CodeAction, prefix string) protocol.CodeAction {
	t.Helper()
	for _, a := range as {
		if strings.HasPrefix(a.Title, prefix) {
			return a
		}
	}
	t.Fatalf("no action %q among %s", prefix, caTitles(as))
	return protocol.CodeAction{}
}

func caTitles(as []protocol.CodeAction) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "\n  [%s] %s", a.Kind, a.Title)
		if a.IsPreferred {
			b.WriteString(" (preferred)")
		}
	}
	return b.String()
}

func caDiagnostic(t *testing.T, ds []protocol.Diagnostic, code string) protocol.Diagnostic {
	t.Helper()
	for _, d := range ds {
		if fmt.Sprint(d.Code) == code {
			return d
		}
	}
	t.Fatalf("no %s diagnostic among %v", code, caCodes(ds))
	return protocol.Diagnostic{}
}

func caCodes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprint(d.Code))
	}
	return out
}

// anchoringCodes are the diagnostics a misplaced comment gets.
var anchoringCodes = []string{"orphaned-anchor", "snippet-mismatch", "orphaned-resolves", "stale-anchor", "syntax", "schema"}

func caNoAnchoring(t *testing.T, ds []protocol.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if slices.Contains(anchoringCodes, fmt.Sprint(d.Code)) {
			t.Errorf("after the fix: got %s %q, want no anchoring or syntax diagnostic", d.Code, d.Message)
		}
	}
}

// driftReview is the spec's example (short hunk counts included) with c1
// at startLine instead of 72.
func driftReview(startLine string) string {
	return strings.Replace(exampleReview, `"start_line": 72`, `"start_line": `+startLine, 1)
}

func TestCodeActionDriftQuickFix(t *testing.T) {
	tests := []struct {
		name, startLine, code, reason string
	}{
		{"snippet mismatch", "71", "snippet-mismatch", ""},
		{"line not in image", "99", "orphaned-anchor", "line-not-in-image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := caOpen(t, driftReview(tt.startLine))
			d := caDiagnostic(t, s.diagnostics(), tt.code)
			if tt.reason != "" {
				data, _ := d.Data.(map[string]any)
				if got := data["reason"]; got != tt.reason {
					t.Errorf("data.reason: got %v, want %s", got, tt.reason)
				}
			}
			// The client names the diagnostic; the cursor is at its start.
			as := s.actions(protocol.Range{Start: d.Range.Start, End: d.Range.Start}, nil, []protocol.Diagnostic{d})
			var preferred []protocol.CodeAction
			for _, a := range as {
				if a.IsPreferred {
					preferred = append(preferred, a)
				}
			}
			if len(preferred) != 1 {
				t.Fatalf("got %d preferred actions, want 1:%s", len(preferred), caTitles(as))
			}
			a := preferred[0]
			if a.Kind != protocol.QuickFix {
				t.Errorf("kind: got %s, want quickfix", a.Kind)
			}
			if len(a.Diagnostics) != 1 || fmt.Sprint(a.Diagnostics[0].Code) != tt.code || a.Diagnostics[0].Range != d.Range || a.Diagnostics[0].Message != d.Message {
				t.Errorf("diagnostics: got %+v, want the published %s", a.Diagnostics, tt.code)
			}
			if want := "Re-anchor c1 to RIGHT 72"; !strings.HasPrefix(a.Title, want) {
				t.Errorf("title: got %q, want %q…", a.Title, want)
			}
			ds := s.apply(a)
			if !strings.Contains(s.text, `"start_line": 72,`) {
				t.Errorf("got text\n%s\nwant \"start_line\": 72", s.text)
			}
			caNoAnchoring(t, ds)
		})
	}
}

func TestCodeActionQuickFixTargets(t *testing.T) {
	s := caOpen(t, driftReview("71"))
	d := caDiagnostic(t, s.diagnostics(), "snippet-mismatch")
	quick := []string{"quickfix"}

	// Cursor inside the diagnostic's range (the snippet value), no
	// context: found by overlap.
	cursor := s.last(`"result, err := calculate(input)"`)
	as := s.actions(cursor, quick, nil)
	caFind(t, as, "Re-anchor c1 to RIGHT 72")
	caFind(t, as, "Update c1's snippet from the patch")
	caFind(t, as, "Dismiss c1")

	// Far from every diagnostic: no quick fix.
	if as := s.actions(s.at(`"title"`), quick, nil); len(as) != 0 {
		t.Errorf("on the title: got%s\nwant no quick fix", caTitles(as))
	}

	// The context names the diagnostic: its fixes, wherever the cursor is.
	as = s.actions(s.at(`"title"`), quick, []protocol.Diagnostic{d})
	caFind(t, as, "Re-anchor c1 to RIGHT 72")

	// A context diagnostic of an older version (its range no longer
	// matches) does not hide the diagnostics under the cursor.
	old := d
	old.Range.Start.Line += 40
	old.Range.End.Line += 40
	as = s.actions(cursor, quick, []protocol.Diagnostic{old})
	caFind(t, as, "Re-anchor c1 to RIGHT 72")

	// Another server's diagnostic with the same code and range is not ours.
	other := d
	other.Source = "json"
	if as := s.actions(s.at(`"title"`), quick, []protocol.Diagnostic{other}); len(as) != 0 {
		t.Errorf("with another source's diagnostic: got%s\nwant none", caTitles(as))
	}
}

func TestCodeActionFixAll(t *testing.T) {
	s := caOpen(t, driftReview("71"))
	ds := s.diagnostics()
	caDiagnostic(t, ds, "hunk-count-mismatch")
	caDiagnostic(t, ds, "snippet-mismatch")

	for _, only := range [][]string{{"source.fixAll.lreview"}, {"source.fixAll"}, {"source"}, nil} {
		at := s.at(`"title"`) // asked for by kind, fixAll is offered anywhere
		if only == nil {
			at = s.at(`"@@ -70,5`) // in the light bulb, beside a diagnostic it fixes
		}
		as := s.actions(at, only, nil)
		var fixAll []protocol.CodeAction
		for _, a := range as {
			if a.Kind == CodeActionKindFixAll {
				fixAll = append(fixAll, a)
			}
		}
		if len(fixAll) != 1 {
			t.Fatalf("only %v: got %d fixAll actions, want 1:%s", only, len(fixAll), caTitles(as))
		}
		if only != nil && len(as) != 1 {
			t.Errorf("only %v: got%s\nwant the fixAll action alone", only, caTitles(as))
		}
	}
	as := s.actions(s.at(`"title"`), []string{"source.fixAll"}, nil)
	if want := "Apply all 2 safe lreview fixes"; as[0].Title != want {
		t.Errorf("title: got %q, want %q", as[0].Title, want)
	}
	ds = s.apply(as[0])
	for _, want := range []string{`"@@ -70,4 +70,5 @@ func Handle(input Input) (Output, error) {"`, `"start_line": 72,`} {
		if !strings.Contains(s.text, want) {
			t.Errorf("after fixAll: got\n%s\nwant it to contain %s", s.text, want)
		}
	}
	if len(ds) != 0 {
		t.Errorf("after fixAll: got diagnostics %v, want none", caCodes(ds))
	}
	if as := s.actions(s.at(`"title"`), []string{"source"}, nil); len(as) != 0 {
		t.Errorf("nothing left to fix: got%s\nwant no action", caTitles(as))
	}
}

// TestCodeActionFixAllOnlyWhereItFixes: without a kind asked for (the
// light bulb), fixAll is offered beside a diagnostic it fixes, and not
// beside one it cannot touch nor where there is none.
func TestCodeActionFixAllOnlyWhereItFixes(t *testing.T) {
	text := strings.Replace(driftReview("71"), `"summary"`, `"x-extra": 1, "summary"`, 1)
	s := caOpen(t, text)
	caDiagnostic(t, s.diagnostics(), "unknown-field") // its fix is not safe: fixAll leaves it
	hasFixAll := func(as []protocol.CodeAction) bool {
		return slices.ContainsFunc(as, func(a protocol.CodeAction) bool { return a.Kind == CodeActionKindFixAll })
	}
	for _, tc := range []struct {
		name string
		at   protocol.Range
		want bool
	}{
		{"the hunk header's count mismatch", s.at(`"@@ -70,5`), true},
		{"the snippet mismatch", s.last(`"result, err := calculate(input)"`), true},
		{"the unknown member, which fixAll leaves", s.at(`"x-extra"`), false},
		{"no diagnostic", s.at(`"title"`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if as := s.actions(tc.at, nil, nil); hasFixAll(as) != tc.want {
				t.Errorf("%s: got%s\nwant fixAll offered: %v", tc.name, caTitles(as), tc.want)
			}
		})
	}
	// The client's context names the diagnostic: the same answer there.
	d := caDiagnostic(t, s.diagnostics(), "unknown-field")
	if as := s.actions(s.at(`"title"`), nil, []protocol.Diagnostic{d}); hasFixAll(as) {
		t.Errorf("context naming unknown-field: got%s\nwant no fixAll", caTitles(as))
	}
}

func TestCodeActionFixAllLeavesSilencedCodes(t *testing.T) {
	s := caOpen(t, driftReview("71"))
	s.c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{"diagnostics": map[string]any{"disabled": []string{"hunk-count-mismatch"}}}}})
	as := s.actions(s.at(`"title"`), []string{"source.fixAll"}, nil)
	if len(as) != 1 {
		t.Fatalf("got%s\nwant one fixAll action", caTitles(as))
	}
	text := s.applied(as[0])
	if !strings.Contains(text, `"@@ -70,5 +70,6 @@`) || !strings.Contains(text, `"start_line": 72,`) {
		t.Errorf("got\n%s\nwant the drift fixed and the silenced header count left alone", text)
	}
}

func TestCodeActionDismissRestore(t *testing.T) {
	s := caOpen(t, exampleReview)
	original := s.text
	cursor := s.at(`"author": "assistant"`)

	a := caFind(t, s.actions(cursor, nil, nil), "Dismiss c1")
	if a.Kind != protocol.RefactorRewrite {
		t.Errorf("dismiss kind: got %s, want refactor.rewrite", a.Kind)
	}
	s.apply(a)
	if want := strings.Replace(original, `"state": "active"`, `"state": "dismissed"`, 1); s.text != want {
		t.Fatalf("after dismiss: got\n%s\nwant\n%s", s.text, want)
	}

	as := s.actions(cursor, nil, nil)
	for _, x := range as {
		if strings.HasPrefix(x.Title, "Dismiss") {
			t.Errorf("dismissed comment: got %q, want no dismiss", x.Title)
		}
	}
	s.apply(caFind(t, as, "Restore c1"))
	if s.text != original {
		t.Errorf("after restore: got\n%s\nwant the original text", s.text)
	}

	// Inside a reply is inside the comment too.
	caFind(t, s.actions(s.at(`"hduran"`), nil, nil), "Dismiss c1")
}

func TestCodeActionReactivateAndReanchor(t *testing.T) {
	orphaned := strings.Replace(exampleReview, `"state": "active"`, `"state": "orphaned"`, 1)
	s := caOpen(t, orphaned)
	caDiagnostic(t, s.diagnostics(), "orphaned-resolves")
	// Away from the state value, reactivating is still the fix of the
	// orphaned-resolves diagnostic: a quick fix that names it.
	a := caFind(t, s.actions(s.at(`"author": "assistant"`), nil, nil), "Reactivate c1")
	if a.Kind != protocol.QuickFix || len(a.Diagnostics) != 1 || fmt.Sprint(a.Diagnostics[0].Code) != "orphaned-resolves" {
		t.Errorf("reactivate: got kind %s diagnostics %v, want a quickfix for orphaned-resolves", a.Kind, a.Diagnostics)
	}
	// On the state value the diagnostic's own fix is offered; not twice.
	as := s.actions(s.at(`"orphaned"`), nil, nil)
	n := 0
	for _, x := range as {
		if strings.HasPrefix(x.Title, "Reactivate") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("on the state: got %d reactivate actions, want 1:%s", n, caTitles(as))
	}
	caNoAnchoring(t, s.apply(a))

	stale := strings.Replace(driftReview("71"), `"state": "active"`, `"state": "stale"`, 1)
	s = caOpen(t, stale)
	caDiagnostic(t, s.diagnostics(), "stale-anchor")
	as = s.actions(s.at(`"author": "assistant"`), nil, nil)
	caFind(t, as, "Reactivate c1")
	caFind(t, as, "Dismiss c1")
	a = caFind(t, as, "Re-anchor c1 by content")
	// It is the fix of both the stale-anchor and the snippet-mismatch
	// of the comment, offered wherever the cursor is in it.
	if a.Kind != protocol.QuickFix || len(a.Diagnostics) != 2 || fmt.Sprint(a.Diagnostics[0].Code) != "stale-anchor" || fmt.Sprint(a.Diagnostics[1].Code) != "snippet-mismatch" {
		t.Errorf("re-anchor: got kind %s diagnostics %v, want a quickfix for stale-anchor and snippet-mismatch", a.Kind, a.Diagnostics)
	}
	ds := s.apply(a)
	if !strings.Contains(s.text, `"start_line": 72,`) || !strings.Contains(s.text, `"state": "active"`) {
		t.Errorf("after re-anchoring: got\n%s\nwant c1 active at 72", s.text)
	}
	caNoAnchoring(t, ds)
}

func TestCodeActionReply(t *testing.T) {
	t.Run("pretty-printed", func(t *testing.T) {
		s := caOpen(t, exampleReview)
		a := caFind(t, s.actions(s.at(`"id": "c1"`), nil, nil), "Reply to c1")
		if a.Kind != protocol.RefactorRewrite {
			t.Errorf("kind: got %s, want refactor.rewrite", a.Kind)
		}
		want := strings.Replace(exampleReview,
			`{ "author": "hduran", "body": "Agreed, but only log it: callers can't handle it." }`,
			`{ "author": "hduran", "body": "Agreed, but only log it: callers can't handle it." },
        { "author": "user", "body": "", "at": "2026-12-02T10:00:00Z" }`, 1)
		ds := s.apply(a)
		if s.text != want {
			t.Errorf("got\n%s\nwant\n%s", s.text, want)
		}
		caNoAnchoring(t, ds)
	})
	t.Run("first reply, author from the settings", func(t *testing.T) {
		text := strings.Replace(exampleReview, `,
      "replies": [
        { "author": "hduran", "body": "Agreed, but only log it: callers can't handle it." }
      ]`, "", 1)
		s := caOpen(t, text)
		s.c.notifyServer("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"lreview": map[string]any{"author": "hduran"}}})
		s.apply(caFind(t, s.actions(s.at(`"id": "c1"`), nil, nil), "Reply to c1"))
		want := strings.Replace(text, `"snippet": "result, err := calculate(input)"`, `"snippet": "result, err := calculate(input)",
      "replies": [
        {
          "author": "hduran",
          "body": "",
          "at": "2026-12-02T10:00:00Z"
        }
      ]`, 1)
		if s.text != want {
			t.Errorf("got\n%s\nwant\n%s", s.text, want)
		}
	})
	t.Run("one line", func(t *testing.T) {
		text := `{"leanreview_review": 1, "patch": ["diff --git a/a.go b/a.go", "--- a/a.go", "+++ b/a.go", "@@ -1 +1 @@", "-x", "+y"], "comments": [{"id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 1, "body": "why?"}]}` + "\n"
		s := caOpen(t, text)
		s.apply(caFind(t, s.actions(s.at(`"why?"`), nil, nil), "Reply to c1"))
		want := strings.Replace(text, `"body": "why?"}`, `"body": "why?", "replies": [{"author": "user", "body": "", "at": "2026-12-02T10:00:00Z"}]}`, 1)
		if s.text != want {
			t.Errorf("got\n%s\nwant\n%s", s.text, want)
		}
	})
}

func TestCodeActionCommentOnLine(t *testing.T) {
	s := caOpen(t, exampleReview)

	// An added line: RIGHT only.
	as := s.actions(s.at(`"+    _ = err"`), nil, nil)
	a := caFind(t, as, "Comment on RIGHT 73")
	for _, x := range as {
		if strings.HasPrefix(x.Title, "Comment on LEFT") {
			t.Errorf("added line: got %q, want no LEFT comment", x.Title)
		}
	}
	if a.Kind != protocol.RefactorRewrite {
		t.Errorf("kind: got %s, want refactor.rewrite", a.Kind)
	}
	want := strings.Replace(exampleReview, `      ]
    }
  ]`, `      ]
    },
    {
      "id": "c2",
      "author": "user",
      "path": "internal/api/handler.go",
      "side": "RIGHT",
      "start_line": 73,
      "body": "",
      "state": "active",
      "snippet": "_ = err",
      "at": "2026-12-02T10:00:00Z"
    }
  ]`, 1)
	if got := s.applied(a); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// A context line below the change: RIGHT 74 and LEFT 73, in that order.
	as = s.actions(s.at(`"     return result, nil"`), nil, nil)
	right, left := caFind(t, as, "Comment on RIGHT 74"), caFind(t, as, "Comment on LEFT 73")
	if i, j := slices.IndexFunc(as, func(a protocol.CodeAction) bool { return a.Title == right.Title }),
		slices.IndexFunc(as, func(a protocol.CodeAction) bool { return a.Title == left.Title }); i > j {
		t.Errorf("got%s\nwant RIGHT before LEFT", caTitles(as))
	}
	for _, tt := range []struct {
		action protocol.CodeAction
		want   string
	}{
		{right, `c2 RIGHT 74 "return result, nil" active`},
		{left, `c2 LEFT 73 "return result, nil" active`},
	} {
		t.Run(tt.action.Title, func(t *testing.T) {
			s := caOpen(t, exampleReview)
			caNoAnchoring(t, s.apply(tt.action))
			doc := exchange.Parse([]byte(s.text))
			if n := len(doc.Review.Comments); n != 2 {
				t.Fatalf("%s: got %d comments, want 2", tt.action.Title, n)
			}
			c := doc.Review.Comments[1]
			if got := fmt.Sprintf("%s %s %d %q %s", c.ID, c.Side, c.StartLine, c.Snippet, c.State); got != tt.want {
				t.Errorf("%s: got comment %s, want %s", tt.action.Title, got, tt.want)
			}
			if r := anchor.CheckDocument(doc, nil).Anchors.Resolutions[1]; !r.Resolved {
				t.Errorf("%s: the new comment does not resolve (%s)", tt.action.Title, r.Reason)
			}
		})
	}

	// A hunk header or a file header: no comment.
	for _, where := range []string{`"@@ -70,5`, `"--- a/internal`} {
		for _, x := range s.actions(s.at(where), nil, nil) {
			if strings.HasPrefix(x.Title, "Comment on") {
				t.Errorf("on %s: got %q, want no comment action", where, x.Title)
			}
		}
	}
}

func TestCodeActionCommentOnRenamedFileAndEmptyComments(t *testing.T) {
	text := `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/old/name.go b/new/name.go",
    "similarity index 90%",
    "rename from old/name.go",
    "rename to new/name.go",
    "--- a/old/name.go",
    "+++ b/new/name.go",
    "@@ -10,3 +12,3 @@",
    " func f() {",
    "-\treturn 1",
    "+\treturn 2",
    " }"
  ],
  "comments": []
}
`
	s := caOpen(t, text)
	as := s.actions(s.at(`" func f() {"`), nil, nil)
	left := caFind(t, as, "Comment on LEFT 10")
	want := strings.Replace(text, `"comments": []`, `"comments": [
    {
      "id": "c1",
      "author": "user",
      "path": "old/name.go",
      "side": "LEFT",
      "start_line": 10,
      "body": "",
      "state": "active",
      "snippet": "func f() {",
      "at": "2026-12-02T10:00:00Z"
    }
  ]`, 1)
	if got := s.applied(left); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	right := caFind(t, as, "Comment on RIGHT 12")
	if got := s.applied(right); !strings.Contains(got, `"path": "new/name.go",`) {
		t.Errorf("RIGHT: got\n%s\nwant the new name", got)
	}
	caNoAnchoring(t, s.apply(right))

	// A selection from the context line to the added line: a RIGHT range.
	s = caOpen(t, text)
	rng := protocol.Range{Start: s.pos(`" func f() {"`, 2), End: s.pos(`"+\treturn 2"`, 2)}
	a := caFind(t, s.actions(rng, []string{"refactor"}, nil), "Comment on RIGHT 12–13")
	ds := s.apply(a)
	if !strings.Contains(s.text, `"start_line": 12,
      "end_line": 13,`) || !strings.Contains(s.text, `"snippet": "func f() {\nreturn 2",`) {
		t.Errorf("got\n%s\nwant a RIGHT 12–13 comment", s.text)
	}
	caNoAnchoring(t, ds)
}

func TestCodeActionOnly(t *testing.T) {
	s := caOpen(t, driftReview("71"))
	cursor := s.last(`"result, err := calculate(input)"`) // the snippet: a mismatch in a comment

	all := s.actions(cursor, nil, nil)
	kinds := map[protocol.CodeActionKind]bool{}
	for _, a := range all {
		kinds[a.Kind] = true
	}
	for _, k := range []protocol.CodeActionKind{protocol.QuickFix, protocol.RefactorRewrite, CodeActionKindFixAll} {
		if !kinds[k] {
			t.Errorf("no only: got%s\nwant some %s", caTitles(all), k)
		}
	}
	tests := []struct {
		only []string
		want []protocol.CodeActionKind
	}{
		{[]string{"quickfix"}, []protocol.CodeActionKind{protocol.QuickFix}},
		{[]string{"refactor"}, []protocol.CodeActionKind{protocol.RefactorRewrite}},
		{[]string{"refactor.rewrite"}, []protocol.CodeActionKind{protocol.RefactorRewrite}},
		{[]string{"source"}, []protocol.CodeActionKind{CodeActionKindFixAll}},
		{[]string{"source.fixAll"}, []protocol.CodeActionKind{CodeActionKindFixAll}},
		{[]string{"quickfix", "source.fixAll"}, []protocol.CodeActionKind{protocol.QuickFix, CodeActionKindFixAll}},
		{[]string{"refactor.extract"}, nil},
		{[]string{"source.organizeImports"}, nil},
		{[]string{"quick"}, nil}, // a prefix of a word is not a parent kind
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.only, ","), func(t *testing.T) {
			as := s.actions(cursor, tt.only, nil)
			got := map[protocol.CodeActionKind]bool{}
			for _, a := range as {
				got[a.Kind] = true
				if !slices.Contains(tt.want, a.Kind) {
					t.Errorf("only %v: got %s %q, want kinds %v", tt.only, a.Kind, a.Title, tt.want)
				}
			}
			for _, k := range tt.want {
				if !got[k] {
					t.Errorf("only %v: got%s\nwant some %s", tt.only, caTitles(as), k)
				}
			}
		})
	}
	// With only refactorings asked for, a dismiss that also fixes the
	// snippet mismatch is still offered, as a rewrite.
	caFind(t, s.actions(s.at(`"author": "assistant"`), []string{"refactor"}, nil), "Dismiss c1")
}

// emojiReview has a one-line comment whose body holds characters of
// every width before the members the actions edit.
const emojiReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/a.go b/a.go",
    "--- a/a.go",
    "+++ b/a.go",
    "@@ -1,2 +1,2 @@",
    " package a // é😀",
    "-var x = 1",
    "+var x = 2"
  ],
  "comments": [
    { "id": "c1", "author": "bot", "path": "a.go", "side": "RIGHT", "start_line": 2, "body": "ship it 🎉 — é", "state": "active", "snippet": "var x = 2" }
  ]
}
`

func TestCodeActionEncodings(t *testing.T) {
	for _, enc := range [][]string{{"utf-8"}, nil} {
		t.Run(fmt.Sprint(enc), func(t *testing.T) {
			s := caOpen(t, emojiReview, enc...)
			if want := len(enc) > 0; (s.enc == exchange.UTF8) != want {
				t.Fatalf("negotiated %s, want utf-8 %v", s.enc, want)
			}
			// The cursor after the emoji: on the state value.
			cursor := s.at(`"active"`)
			got := s.applied(caFind(t, s.actions(cursor, nil, nil), "Dismiss c1"))
			if want := strings.Replace(emojiReview, `"state": "active"`, `"state": "dismissed"`, 1); got != want {
				t.Errorf("dismiss: got\n%s\nwant\n%s", got, want)
			}
			got = s.applied(caFind(t, s.actions(cursor, nil, nil), "Reply to c1"))
			if want := strings.Replace(emojiReview, `"snippet": "var x = 2" }`, `"snippet": "var x = 2", "replies": [{ "author": "user", "body": "", "at": "2026-12-02T10:00:00Z" }] }`, 1); got != want {
				t.Errorf("reply: got\n%s\nwant\n%s", got, want)
			}
			// A patch line with an emoji: its position maps back to it.
			a := caFind(t, s.actions(s.at(`" package a // é😀"`), nil, nil), "Comment on RIGHT 1")
			if got := s.applied(a); !strings.Contains(got, `"snippet": "package a // é😀"`) {
				t.Errorf("comment: got\n%s\nwant the emoji line's snippet", got)
			}
		})
	}
}

func TestCodeActionCRLF(t *testing.T) {
	text := strings.ReplaceAll(exampleReview, "\n", "\r\n")
	s := caOpen(t, text)
	for _, tt := range []struct{ at, title string }{
		{`"id": "c1"`, "Reply to c1"},
		{`"+    _ = err"`, "Comment on RIGHT 73"},
		{`"id": "c1"`, "Dismiss c1"},
	} {
		got := s.applied(caFind(t, s.actions(s.at(tt.at), nil, nil), tt.title))
		if strings.Count(got, "\n") != strings.Count(got, "\r\n") {
			t.Errorf("%s: got a lone line feed in\n%q", tt.title, got)
		}
		if got == text {
			t.Errorf("%s: the text did not change", tt.title)
		}
		if doc := exchange.Parse([]byte(got)); len(doc.Syntax) > 0 {
			t.Errorf("%s: got syntax errors %v", tt.title, doc.Syntax)
		}
	}
}

func TestCodeActionNoneOnBrokenJSON(t *testing.T) {
	broken := strings.Replace(exampleReview, `"body": "`+"`err`", `"body": `+"`err`", 1)
	s := caOpen(t, broken)
	for _, a := range s.actions(s.at(`"id": "c1"`), []string{"refactor", "source"}, nil) {
		t.Errorf("broken document: got %q, want no editing or fixAll action", a.Title)
	}
	// Its diagnostics' own fixes are still offered one by one.
	caFind(t, s.actions(s.at(`"@@ -70,5`), []string{"quickfix"}, nil), "Rewrite the hunk header as @@ -70,4 +70,5 @@")
}

// TestCodeActionsNeverRepeatAnEdit asks for every action on every line of
// the golden mistake reviews: no two actions offered at one place make
// the same change.
func TestCodeActionsNeverRepeatAnEdit(t *testing.T) {
	files, _ := filepath.Glob("../../cmd/lreview-lsp/testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".review.json") || strings.HasPrefix(f.Name, "out/") {
				continue
			}
			text := string(f.Data)
			if exchange.Parse(f.Data).Syntax != nil {
				continue
			}
			s := caOpen(t, text)
			for line := range strings.Count(text, "\n") {
				for _, col := range []uint32{4, 30} {
					at := protocol.Position{Line: uint32(line), Character: col}
					seen := map[string]string{}
					for _, a := range s.actions(protocol.Range{Start: at, End: at}, nil, nil) {
						key := fmt.Sprint(a.Edit)
						if prev, ok := seen[key]; ok {
							t.Errorf("%s line %d: %q and %q make the same edit", filepath.Base(file), line+1, prev, a.Title)
						}
						seen[key] = a.Title
					}
				}
			}
		}
	}
}
