package lsp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/testgotypes"
	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// shapeRepo is the shop module after a change of store.MaxItems and
// go.mod, with the review of the change in it.
func shapeRepo(t *testing.T) (root, review, text string) {
	t.Helper()
	base := map[string]string{"go.mod": "module example.com/shop\n\ngo 1.22\n\nrequire golang.org/x/text v0.3.0\n"}
	for k, v := range testgotypes.ShopModule {
		if k != "go.mod" {
			base[k] = v
		}
	}
	repo := testreviews.NewGitRepo(t, base)
	from := strings.TrimSpace(repo.Git("rev-parse", "HEAD"))
	to := repo.Commit("change", map[string]string{
		"go.mod":         "module example.com/shop\n\ngo 1.22\n\nrequire golang.org/x/text v1.0.0\n",
		"store/store.go": strings.Replace(base["store/store.go"], "const MaxItems = 100", "const MaxItems = 200", 1),
	})
	src, err := anchor.NewReview([]byte(repo.Diff(from, to)), "shop", "")
	if err != nil {
		t.Fatal(err)
	}
	review = filepath.Join(repo.Dir, "change.review.json")
	if err := os.WriteFile(review, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return repo.Dir, review, string(src)
}

// cohortLensesOf asks for the review's lenses until the cohorts' are there:
// the graph is built in the background after the first ask.
func cohortLensesOf(t *testing.T, c *testClient, u protocol.DocumentURI) []protocol.CodeLens {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var lenses []protocol.CodeLens
		c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
		var out []protocol.CodeLens
		for _, l := range lenses {
			if l.Command != nil && (l.Command.Command == CommandNextCohort || l.Command.Command == CommandMarkCohort) {
				out = append(out, l)
			}
		}
		if len(out) > 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCohortsInTheEditor(t *testing.T) {
	root, review, text := shapeRepo(t)
	c := newTestClient(t, Options{})
	caps := fullCapabilities("utf-16")
	caps["workspace"] = map[string]any{"applyEdit": true}
	initializeIn(c, root, caps, nil)
	u := protocol.DocumentURI(uri.File(review))
	c.open(u, text)
	// The dependency change, on go.mod's changed line, once the working
	// tree's files are read.
	dep := waitDependencyDiagnostic(t, c, u)
	if want := "dependency upgraded: golang.org/x/text v0.3.0 → v1.0.0 (major version change)"; dep.Message != want || dep.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("dependency diagnostic: %q (severity %v), want %q (information)", dep.Message, dep.Severity, want)
	}
	if line := strings.Count(text[:strings.Index(text, `"+require golang.org/x/text v1.0.0"`)], "\n"); int(dep.Range.Start.Line) != line {
		t.Errorf("dependency diagnostic on line %d, want go.mod's added line %d", dep.Range.Start.Line, line)
	}
	lenses := cohortLensesOf(t, c, u)
	if len(lenses) != 4 {
		t.Fatalf("got %d cohort lenses, want 4 (two cohorts, two lenses each): %+v", len(lenses), lenses)
	}
	want := "cohort 1 of 2 · go.mod · high: dependency manifest, major version change: golang.org/x/text v0.3.0 → v1.0.0"
	if lenses[0].Command.Title != want || lenses[1].Command.Title != "mark reviewed" {
		t.Errorf("first lenses: %q, %q; want %q, mark reviewed", lenses[0].Command.Title, lenses[1].Command.Title, want)
	}
	header := strings.Index(text, `"diff --git a/store/store.go`)
	if got := lenses[2].Range.Start.Line; int(got) != strings.Count(text[:header], "\n") {
		t.Errorf("second cohort's lens on line %d, want store.go's header line %d", got, strings.Count(text[:header], "\n"))
	}
	if !strings.HasPrefix(lenses[2].Command.Title, "cohort 2 of 2 · store/store.go · MaxItems · medium: 2 uses outside") {
		t.Errorf("second cohort's lens: %q", lenses[2].Command.Title)
	}

	// The outline lists the cohorts, riskiest first, with their files.
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	var outline []string
	for _, sym := range syms {
		if sym.Name == "cohorts" {
			for _, ch := range sym.Children {
				outline = append(outline, ch.Name+": "+ch.Children[0].Name)
			}
		}
	}
	if want := "1. go.mod: go.mod | 2. store/store.go · MaxItems: store/store.go"; strings.Join(outline, " | ") != want {
		t.Errorf("outline's cohorts = %q, want %q", outline, want)
	}

	// The file header's hover names the cohort and its blast radius.
	var h protocol.Hover
	c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": navPosition(text, header+3, exchange.UTF16)}, &h)
	for _, w := range []string{"**Cohort 2 of 2** · store/store.go · MaxItems · medium", "`example.com/shop/store.MaxItems` (line 15): 3 uses, 2 outside the cohort"} {
		if !strings.Contains(h.Contents.Value, w) {
			t.Errorf("header hover lacks %q:\n%s", w, h.Contents.Value)
		}
	}

	// References on the line that changes MaxItems: its uses in the tree.
	changed := strings.Index(text, `"+const MaxItems = 200"`)
	var locs []protocol.Location
	c.mustCall("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": u}, "position": navPosition(text, changed+3, exchange.UTF16),
		"context": map[string]any{"includeDeclaration": false}}, &locs)
	var got []string
	for _, l := range locs {
		rel, _ := filepath.Rel(root, uriPath(t, l.URI))
		got = append(got, filepath.ToSlash(rel)+":"+strconv.Itoa(int(l.Range.Start.Line)+1))
	}
	if strings.Join(got, " ") != "cart/cart.go:20 store/store.go:30 store/store_test.go:7" {
		t.Errorf("references = %v, want the three uses of MaxItems", got)
	}

	// Mark the riskiest cohort reviewed: one edit of the review, under the
	// extension member; the next cohort not reviewed is then store.go's.
	key := lenses[1].Command.Arguments[1].(string)
	c.mustCall("workspace/executeCommand", map[string]any{"command": CommandMarkCohort, "arguments": []any{u, key, true}}, nil)
	c.mu.Lock()
	applied := c.applied
	c.mu.Unlock()
	if len(applied) != 1 {
		t.Fatalf("%d edits applied, want 1", len(applied))
	}
	edits := applied[0].Edit.Changes[u]
	if len(edits) != 1 || !strings.Contains(edits[0].NewText, `"x-lreview-cohorts": {"`+key+`": {"reviewed": "`) {
		t.Fatalf("mark edit = %+v", edits)
	}
	marked := applyTextEdits(t, text, exchange.UTF16, edits)
	c.change(u, 2, nil, marked)
	lenses = cohortLensesOf(t, c, u)
	if !strings.HasSuffix(lenses[0].Command.Title, " · reviewed") || lenses[1].Command.Title != "unmark reviewed" {
		t.Errorf("after marking: %q, %q", lenses[0].Command.Title, lenses[1].Command.Title)
	}
	var next protocol.Location
	c.mustCall("workspace/executeCommand", map[string]any{"command": CommandNextCohort, "arguments": []any{u, ""}}, &next)
	if int(next.Range.Start.Line) != strings.Count(marked[:strings.Index(marked, `"diff --git a/store/store.go`)], "\n") {
		t.Errorf("next cohort at line %d, want store.go's header", next.Range.Start.Line)
	}
}

func uriPath(t *testing.T, u protocol.DocumentURI) string {
	t.Helper()
	return uri.URI(u).Filename()
}

// waitDependencyDiagnostic waits for a publish of u holding a
// dependency-change diagnostic and returns it.
func waitDependencyDiagnostic(t *testing.T, c *testClient, u protocol.DocumentURI) protocol.Diagnostic {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		list := c.diagnostics[u]
		var last []protocol.Diagnostic
		if len(list) > 0 {
			last = list[len(list)-1].Diagnostics
		}
		c.mu.Unlock()
		for _, d := range last {
			if code, _ := d.Code.(string); code == cohort.CodeDependencyChange {
				return d
			}
		}
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatalf("no publish with a dependency-change diagnostic; the last had %d diagnostics", len(last))
		}
	}
}

// TestCohortNotesInHover: once the review keeps notes for a cohort, the
// hover of the cohort's first file header shows its summary and its
// diagram in a mermaid block, checked against the working tree's code
// graph: the reference the code makes solid, the other dashed and labelled.
func TestCohortNotesInHover(t *testing.T) {
	root, review, text := shapeRepo(t)
	c := newTestClient(t, Options{})
	initializeIn(c, root, fullCapabilities("utf-16"), nil)
	u := protocol.DocumentURI(uri.File(review))
	c.open(u, text)
	lenses := cohortLensesOf(t, c, u)
	if len(lenses) != 4 {
		t.Fatalf("got %d cohort lenses, want 4", len(lenses))
	}
	key := lenses[3].Command.Arguments[1].(string) // store.go's cohort
	notes := `"lreview_cohort_notes": {"` + key + `": {"summary": "Raises the **cap**.", "diagrams": [{"kind": "entity_relation",
    "entities": [{"id": "Put", "code": "store.Memory.Put"}, {"id": "Max", "code": "store.MaxItems"}, {"id": "Total", "code": "cart.Total"}],
    "relations": [{"from": "Put", "to": "Max", "label": "caps"}, {"from": "Max", "to": "Total"}]}]}},
  `
	brace := strings.IndexByte(text, '{') + 1
	with := text[:brace] + "\n  " + notes + text[brace:]
	c.change(u, 2, nil, with)
	cohortLensesOf(t, c, u)
	header := strings.Index(with, `"diff --git a/store/store.go`)
	var h protocol.Hover
	c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": navPosition(with, header+3, exchange.UTF16)}, &h)
	for _, w := range []string{
		"**Cohort 2 of 2** · store/store.go",
		"Raises the **cap**.\n\nentity-relation diagram, 1 of 2 edges verified against the code\n\n```mermaid\nerDiagram\n",
		`    Put ||--o{ Max : "caps"`,
		`    Max ||..o{ Total : "(unverified: store.MaxItems does not call or refer to cart.Total in the code graph)"`,
		"- unverified: Max → Total: store.MaxItems does not call or refer to cart.Total in the code graph",
	} {
		if !strings.Contains(h.Contents.Value, w) {
			t.Errorf("header hover lacks %q:\n%s", w, h.Contents.Value)
		}
	}
	// go.mod's header (another cohort, no notes) shows none.
	c.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": navPosition(with, strings.Index(with, `"diff --git a/go.mod`)+3, exchange.UTF16)}, &h)
	if strings.Contains(h.Contents.Value, "mermaid") {
		t.Errorf("go.mod's hover shows another cohort's notes:\n%s", h.Contents.Value)
	}
}

// TestCohortLensRefresh: the cohort lenses are not there at the first ask
// (the graph is being built); once it is built the server asks a client
// that declared refreshSupport to ask again, and the next ask has them.
// A client that did not declare it is sent no refresh.
func TestCohortLensRefresh(t *testing.T) {
	for _, refresh := range []bool{true, false} {
		t.Run("refreshSupport="+strconv.FormatBool(refresh), func(t *testing.T) {
			root, review, text := shapeRepo(t)
			c := newTestClient(t, Options{})
			caps := fullCapabilities("utf-16")
			caps["workspace"] = map[string]any{"applyEdit": true, "codeLens": map[string]any{"refreshSupport": refresh}}
			initializeIn(c, root, caps, nil)
			u := protocol.DocumentURI(uri.File(review))
			c.open(u, text)
			if got := cohortLensTitles(c, u); len(got) != 0 {
				t.Fatalf("cohort lenses at the first ask, before the graph is built: %q", got)
			}
			if !refresh {
				if len(cohortLensesOf(t, c, u)) == 0 {
					t.Fatal("no cohort lenses")
				}
				if code := c.shutdown(); code != 0 { // Serve waits for the build's goroutine
					t.Fatalf("exit code %d", code)
				}
				c.mu.Lock()
				defer c.mu.Unlock()
				if c.lensRefreshes != 0 {
					t.Errorf("%d workspace/codeLens/refresh sent to a client without refreshSupport", c.lensRefreshes)
				}
				return
			}
			waitLensRefresh(t, c)
			got := cohortLensTitles(c, u)
			if len(got) != 4 || got[0] != "cohort 1 of 2 · go.mod · high: dependency manifest, major version change: golang.org/x/text v0.3.0 → v1.0.0" || got[1] != "mark reviewed" {
				t.Errorf("cohort lenses after the refresh: %q", got)
			}
		})
	}
}

// cohortLensTitles asks once for the review's lenses and returns the
// cohort lenses' titles.
func cohortLensTitles(c *testClient, u protocol.DocumentURI) []string {
	c.t.Helper()
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	var out []string
	for _, l := range lenses {
		if l.Command != nil && (l.Command.Command == CommandNextCohort || l.Command.Command == CommandMarkCohort) {
			out = append(out, l.Command.Title)
		}
	}
	return out
}

// waitLensRefresh waits for the server's workspace/codeLens/refresh.
func waitLensRefresh(t *testing.T, c *testClient) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		n := c.lensRefreshes
		c.mu.Unlock()
		if n > 0 {
			return
		}
		select {
		case <-c.notify:
		case <-deadline:
			t.Fatal("no workspace/codeLens/refresh")
		}
	}
}
