package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestWorktreeSuggestionApplied: once the source holds c1's suggestion,
// the review says so (suggestion-applied, no source-changed), the hover
// too, and the actions dismiss c1 or reply "Applied." as fixes of it.
func TestWorktreeSuggestionApplied(t *testing.T) {
	s := newWTSession(t, nil)
	s.waitCodes()
	applied := strings.Replace(testreviews.WorktreeSource(1, ""), "    _ = err // 🚀 later\n", "    if err != nil {\n        return Output{}, err\n    }\n", 1)
	s.rewrite(applied)
	ds := s.waitCodes(features.CodeSuggestionApplied)
	for _, d := range ds {
		if d.Code == features.CodeSuggestionApplied {
			if want := "c1's suggestion is applied: internal/api/handler.go:73–76 holds it"; d.Message != want || d.Severity != protocol.DiagnosticSeverityInformation {
				t.Errorf("got %v %q, want information %q", d.Severity, d.Message, want)
			}
		}
	}
	var hover protocol.Hover
	s.c.mustCall("textDocument/hover", s.textPos(s.pos(`Return the error`, 0)), &hover)
	if want := "`internal/api/handler.go:73–76` holds c1's suggestion: it is applied."; !strings.Contains(hover.Contents.Value, want) {
		t.Errorf("hover: got %q, want it to say %q", hover.Contents.Value, want)
	}
	byTitle := map[string]protocol.CodeAction{}
	for _, a := range s.actions() {
		if _, dup := byTitle[a.Title]; dup {
			t.Errorf("%q offered twice", a.Title)
		}
		byTitle[a.Title] = a
	}
	if _, ok := byTitle["Dismiss c1"]; ok {
		t.Errorf("the plain Dismiss c1 is offered beside the fix")
	}
	if _, ok := byTitle["Apply c1's suggestion to internal/api/handler.go:73–74"]; ok {
		t.Errorf("an applied suggestion is offered again")
	}
	for title, after := range map[string]string{
		"Dismiss c1: its suggestion is applied": `"state": "dismissed"`,
		"Reply “Applied.” to c1":                `"body": "Applied."`,
	} {
		a, ok := byTitle[title]
		if !ok {
			t.Errorf("no action %q among %v", title, s.actionTitles())
			continue
		}
		if a.Kind != protocol.QuickFix || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != features.CodeSuggestionApplied {
			t.Errorf("%s: got kind %s for %v, want a quick fix of suggestion-applied", title, a.Kind, a.Diagnostics)
		}
		var edits []protocol.TextEdit
		for _, es := range a.Edit.Changes {
			edits = append(edits, es...)
		}
		if len(edits) != 1 || !strings.Contains(edits[0].NewText, after) {
			t.Errorf("%s: got %v, want one edit writing %s", title, edits, after)
		}
	}
}

// TestWorktreeDefinitionOfAChangedLine: definition on a patch line whose
// text changed in the tree goes to the place it had, not nowhere.
func TestWorktreeDefinitionOfAChangedLine(t *testing.T) {
	s := newWTSession(t, nil)
	s.waitCodes()
	s.rewrite(testreviews.WorktreeSource(2, "    result, err := calculate(input, opts)"))
	s.waitCodes(features.CodeSourceChanged)
	s.wantLines("definition", s.locations("textDocument/definition", s.pos(`"+    result, err`, 0)), 73, 73)
}
