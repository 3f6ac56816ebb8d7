package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/branch"
	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func diagOf(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}

// TestBranchMovedBanner: a review of the branch's commit, open in its
// repository, has no banner; after commits touching its files the banner
// says how many and the lens too, and its quick fix rebases the review
// onto the branch; after a force-push it says the commit is gone.
func TestBranchMovedBanner(t *testing.T) {
	r := branchtest.NewRepo(t)
	r.Commit("base", map[string]string{"a.go": "package a\n\nfunc A() int { return 1 }\n", "b.go": "package a\n\nvar B = 2\n"})
	base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	r.Commit("feature", map[string]string{"a.go": "package a\n\nfunc A() int { return 10 }\n", "b.go": "package a\n\nvar B = 20\n"})
	review := string(r.Review(base, "HEAD"))
	review = strings.Replace(review, `"comments": []`, `"comments": [
    {"id": "c1", "path": "a.go", "side": "RIGHT", "start_line": 3, "body": "Why ten?", "snippet": "func A() int { return 10 }"}
  ]`, 1)
	reviewPath := filepath.Join(r.Root, "pr.review.json")
	if err := os.WriteFile(reviewPath, []byte(review), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, Options{})
	c.mustCall("initialize", map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(r.Root), "name": "repo"}},
		"capabilities":     fullCapabilities("utf-16"),
	}, nil)
	c.notifyServer("initialized", map[string]any{})
	u := protocol.DocumentURI(uri.File(reviewPath))
	c.open(u, review)
	if d := diagOf(c.waitDiagnostics(u, 1), branch.CodeMoved); d != nil {
		t.Fatalf("at the reviewed commit: got %+v", d)
	}

	r.Commit("more", map[string]string{"a.go": "package a\n\n// A is the answer.\nfunc A() int { return 10 }\n"})
	r.Commit("again", map[string]string{"b.go": "package a\n\nvar B = 21\n"})
	r.Commit("elsewhere", map[string]string{"c.go": "package a\n"})
	c.change(u, 2, nil, review)
	want := "the branch moved past this review: 2 commits touch 2 of its files — rebase"
	d := waitDiagnostic(t, c, u, 2, branch.CodeMoved, want)
	if d.Severity != protocol.DiagnosticSeverityWarning || d.Range.Start.Line != 0 {
		t.Fatalf("after two commits: got %+v, want %q on the first brace", d, want)
	}
	if got := lensTitles(t, c, u); !containsString(got, want) {
		t.Errorf("lenses: got %q", got)
	}
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u},
		"range":        d.Range,
		"context":      map[string]any{"diagnostics": []any{d}},
	}, &actions)
	var rebase *protocol.CodeAction
	for i := range actions {
		if actions[i].Title == "Rebase the review onto the branch (git diff of its base and HEAD)" {
			rebase = &actions[i]
		}
	}
	if rebase == nil || rebase.Kind != protocol.QuickFix {
		t.Fatalf("actions: got %+v, want the rebase", actions)
	}
	text := applyTextEdits(t, review, exchange.UTF16, rebase.Edit.Changes[u])
	for _, w := range []string{`"+// A is the answer."`, `"+var B = 21"`, `"+++ b/c.go"`, `"start_line": 4`} {
		if !strings.Contains(text, w) {
			t.Errorf("the rebased review lacks %s:\n%s", w, text)
		}
	}
	// Rebased, the banner goes.
	c.change(u, 3, nil, text)
	if d := diagOf(c.waitDiagnostics(u, 3), branch.CodeMoved); d != nil {
		t.Errorf("after the rebase: got %+v", d)
	}

	// A force-push: the branch rewritten from the base.
	r.Git("reset", "-q", "--hard", base)
	r.Commit("feature, rewritten", map[string]string{"a.go": "package a\n\nfunc A() int { return 100 }\n"})
	c.change(u, 4, nil, review)
	waitDiagnostic(t, c, u, 4, branch.CodeMoved, "the review was made from a commit that is no longer an ancestor of HEAD (a force-push?) — rebase")
}

// TestBannerPublishRunsNoGit: the banner is found in the background. The
// first publish is sent while git is held (it does not wait for it), the
// banner comes with a later publish of the same version; a publish of a
// new version with HEAD where it was runs no git at all; a commit (HEAD's
// ref file changed) makes the next publish look again.
func TestBannerPublishRunsNoGit(t *testing.T) {
	r := branchtest.NewRepo(t)
	r.Commit("base", map[string]string{"a.go": "package a\n\nvar A = 1\n"})
	base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	r.Commit("feature", map[string]string{"a.go": "package a\n\nvar A = 10\n"})
	review := string(r.Review(base, "HEAD"))
	r.Commit("more", map[string]string{"a.go": "package a\n\nvar A = 11\n"})
	reviewPath := filepath.Join(r.Root, "pr.review.json")
	if err := os.WriteFile(reviewPath, []byte(review), 0o644); err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int32
	held := make(chan struct{})
	git := func(ctx context.Context, dir string, args ...string) ([]byte, error) {
		runs.Add(1)
		select {
		case <-held:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return branch.Run(ctx, dir, args...)
	}
	c := newTestClient(t, Options{git: git})
	c.mustCall("initialize", map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(r.Root), "name": "repo"}},
		"capabilities":     fullCapabilities("utf-16"),
	}, nil)
	c.notifyServer("initialized", map[string]any{})
	u := protocol.DocumentURI(uri.File(reviewPath))
	c.open(u, review)
	if d := diagOf(c.waitDiagnostics(u, 1), branch.CodeMoved); d != nil {
		t.Fatalf("the first publish, git held: got %+v, want no banner yet", d)
	}
	close(held)
	waitDiagnostic(t, c, u, 1, branch.CodeMoved, "the branch moved past this review: 1 commit touches 1 of its files — rebase")
	before := runs.Load()
	c.change(u, 2, nil, review)
	if d := diagOf(c.waitDiagnostics(u, 2), branch.CodeMoved); d == nil {
		t.Errorf("version 2: the banner is gone")
	}
	if n := runs.Load(); n != before {
		t.Errorf("a publish ran git %d times", n-before)
	}
	r.Commit("again", map[string]string{"a.go": "package a\n\nvar A = 12\n"})
	c.change(u, 3, nil, review)
	waitDiagnostic(t, c, u, 3, branch.CodeMoved, "the branch moved past this review: 2 commits touch 1 of its files — rebase")
}
