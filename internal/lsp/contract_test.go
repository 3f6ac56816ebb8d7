package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/contract"
	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/verdict"
)

// contractDiags are the contract axis's diagnostics among ds, as
// "code severity message-prefix".
func contractDiags(ds []protocol.Diagnostic) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range ds {
		if code, _ := d.Code.(string); strings.HasPrefix(code, "contract-") && code != verdict.Code {
			out = append(out, d)
		}
	}
	return out
}

func lensTitles(t *testing.T, c *testClient, u protocol.DocumentURI) []string {
	t.Helper()
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	var out []string
	for _, l := range lenses {
		out = append(out, l.Command.Title)
	}
	return out
}

// TestContractDecisionRoundTrip opens a review of a description that
// loses DELETE /orders/{id}, in its repository: an error on the removed
// line, the lens failing the verdict; approving it from the code action
// on that line writes the decision comment, and the next publish warns.
func TestContractDecisionRoundTrip(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(t, map[string][2]string{"api/openapi.yaml": {v.YAML(), v.RemoveDelete().YAML()}})
	c := newTestClient(t, Options{})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	c.mustCall("initialize", map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(repo.Root), "name": "repo"}},
		"capabilities":     caps,
	}, nil)
	c.notifyServer("initialized", map[string]any{})
	u := protocol.DocumentURI(uri.File(repo.ReviewFile))
	c.open(u, repo.Review)

	all := c.waitDiagnostics(u, 1)
	if v := verdictOf(all); v == nil || v.Severity != protocol.DiagnosticSeverityError || v.Message != "contract: fail (1 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block" || v.Range.Start.Line != 0 {
		t.Errorf("verdict: got %+v", v)
	}
	ds := contractDiags(all)
	var breaking *protocol.Diagnostic
	for i := range ds {
		if ds[i].Code == contract.CodeBreaking {
			breaking = &ds[i]
		}
	}
	if breaking == nil || breaking.Severity != protocol.DiagnosticSeverityError ||
		!strings.HasPrefix(breaking.Message, "DELETE /orders/{id}: API removed without deprecation — breaking: clients calling it get 404") {
		t.Fatalf("got contract diagnostics %+v, want an error on DELETE /orders/{id}", ds)
	}
	lines := strings.Split(repo.Review, "\n")
	if got := lines[breaking.Range.Start.Line]; !strings.Contains(got, `"-    \"delete\":"`) {
		t.Errorf("the diagnostic is on %q, want the removed delete: line", got)
	}
	if got := lensTitles(t, c, u); !containsString(got, "contract: fail (1 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block") {
		t.Errorf("lenses: got %q", got)
	}

	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u},
		"range":        breaking.Range,
		"context":      map[string]any{"diagnostics": []any{breaking}},
	}, &actions)
	var approve *protocol.CodeAction
	var titles []string
	for i := range actions {
		titles = append(titles, actions[i].Title)
		if strings.HasPrefix(actions[i].Title, "Approve this breaking change") {
			approve = &actions[i]
		}
	}
	if approve == nil || approve.Kind != protocol.QuickFix || !containsString(titles, "Reject this breaking change: DELETE /orders/{id}: API removed without deprecation") {
		t.Fatalf("actions: got %q, want Approve and Reject", titles)
	}
	text := applyTextEdits(t, repo.Review, exchange.UTF16, approve.Edit.Changes[u])
	if !strings.Contains(text, `"body": "contract: approved — DELETE /orders/{id}: API removed without deprecation"`) {
		t.Fatalf("the approval wrote:\n%s", text)
	}
	c.change(u, 2, nil, text)
	all = c.waitDiagnostics(u, 2)
	if v := verdictOf(all); v == nil || v.Severity != protocol.DiagnosticSeverityWarning || v.Message != "contract: warn (1 breaking, approved by user) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold" {
		t.Errorf("verdict after approving: got %+v", v)
	}
	ds = contractDiags(all)
	if len(ds) != 1 || ds[0].Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(ds[0].Message, "breaking, approved by user in c1") {
		t.Errorf("after approving: got %+v, want one warning approved by user in c1", ds)
	}
	if got := lensTitles(t, c, u); !containsString(got, "contract: warn (1 breaking, approved by user) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold") {
		t.Errorf("lenses after approving: got %q", got)
	}
	// Rejecting it now changes the decision's first line in place.
	c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u},
		"range":        ds[0].Range,
		"context":      map[string]any{"diagnostics": []any{ds[0]}},
	}, &actions)
	var reject *protocol.CodeAction
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, "Approve this breaking change") {
			t.Errorf("approve offered on an approved change")
		}
		if strings.HasPrefix(actions[i].Title, "Reject this breaking change") {
			reject = &actions[i]
		}
	}
	if reject == nil {
		t.Fatalf("actions after approving: got %+v", actions)
	}
	text = applyTextEdits(t, text, exchange.UTF16, reject.Edit.Changes[u])
	if strings.Count(text, "contract: ") != 1 || !strings.Contains(text, "contract: rejected — DELETE") {
		t.Fatalf("the rejection wrote:\n%s", text)
	}
	c.change(u, 3, nil, text)
	ds = contractDiags(c.waitDiagnostics(u, 3))
	if len(ds) != 1 || ds[0].Severity != protocol.DiagnosticSeverityError || !strings.Contains(ds[0].Message, "rejected by user in c1") {
		t.Errorf("after rejecting: got %+v", ds)
	}
}

func verdictOf(ds []protocol.Diagnostic) *protocol.Diagnostic {
	for i := range ds {
		if ds[i].Code == verdict.Code {
			return &ds[i]
		}
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestContractFollowsTheFile: the axis is kept per version, with the
// files it read; when the description changes on disk (the client's
// watcher says so) the same version is published again, compared anew.
func TestContractFollowsTheFile(t *testing.T) {
	v := contracttest.Orders("3.0.3")
	repo := contracttest.NewRepo(t, map[string][2]string{"openapi.yaml": {v.YAML(), v.RemoveDelete().YAML()}})
	c := newTestClient(t, Options{})
	c.mustCall("initialize", map[string]any{
		"processId":        nil,
		"workspaceFolders": []any{map[string]any{"uri": uri.File(repo.Root), "name": "repo"}},
		"capabilities":     fullCapabilities("utf-16"),
	}, nil)
	c.notifyServer("initialized", map[string]any{})
	u := protocol.DocumentURI(uri.File(repo.ReviewFile))
	c.open(u, repo.Review)
	if v := verdictOf(c.waitDiagnostics(u, 1)); v == nil || v.Message != "contract: fail (1 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Block" {
		t.Fatalf("verdict: got %+v", v)
	}
	spec := filepath.Join(repo.Root, "openapi.yaml")
	if err := os.WriteFile(spec, []byte(v.JSON()), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	_ = os.Chtimes(spec, later, later)
	c.notifyServer("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": uri.File(spec), "type": 2}}})
	want := "contract: unavailable (openapi.yaml not compared: openapi.yaml: the working tree's file holds neither side of the patch's hunks) · correctness, security, test gap: unavailable (not finalized) · visual: n/a · verdict: Hold"
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		list := c.diagnostics[u]
		last := list[len(list)-1].Diagnostics
		c.mu.Unlock()
		if v := verdictOf(last); v != nil && v.Message == want && v.Severity == protocol.DiagnosticSeverityWarning {
			break
		}
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatalf("no publish with the verdict %q; the last had %+v", want, verdictOf(last))
		}
	}
	if got := lensTitles(t, c, u); !containsString(got, want) {
		t.Errorf("lenses: got %q", got)
	}
}
