package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/contract/contracttest"
)

// TestExportVerdict: the exported review's body carries the verdict and
// the breaking changes without a decision, after the title.
func TestExportVerdict(t *testing.T) {
	repo := contractReview(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"export", "--to", "github", repo.ReviewFile}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	var rv struct{ Body string }
	if err := json.Unmarshal(stdout.Bytes(), &rv); err != nil {
		t.Fatal(err)
	}
	want := "**orders API**\n\n**Verdict: Block** — contract: fail (2 breaking, undecided) · correctness, security, test gap: unavailable (not finalized) · visual: n/a\n\nBreaking changes without a decision:\n\n" +
		"- GET /orders: the `query` request parameter `limit` became required\n- DELETE /orders/{id}: API removed without deprecation\n\n<!-- lreview title -->"
	if rv.Body != want {
		t.Errorf("body:\ngot  %q\nwant %q", rv.Body, want)
	}
}

// TestExportVerdictEveryForge: every forge's review body carries the
// verdict section, not GitHub's alone.
func TestExportVerdictEveryForge(t *testing.T) {
	repo := contractReview(t)
	for _, to := range []string{"github", "gitlab", "gerrit", "gitea", "bitbucket", "azure"} {
		args := []string{"export", "--to", to}
		if to == "gitlab" {
			args = append(args, "--base-sha", "b", "--start-sha", "s", "--head-sha", "h")
		}
		var stdout, stderr bytes.Buffer
		if code := run(append(args, repo.ReviewFile), nil, &stdout, &stderr); code != 0 {
			t.Fatalf("export --to %s: exit %d: %s", to, code, stderr.String())
		}
		for _, want := range []string{"**Verdict: Block** — contract: fail (2 breaking, undecided)", "- DELETE /orders/{id}: API removed without deprecation"} {
			if !bytes.Contains(stdout.Bytes(), []byte(want)) {
				t.Errorf("export --to %s: got\n%s\nwant it to hold %q", to, stdout.String(), want)
			}
		}
	}
}

// TestExportVerdictNamesDeciders: a decided breaking change is listed
// with who decided it, in which comment; the agent's decision is not one.
func TestExportVerdictNamesDeciders(t *testing.T) {
	repo := contractReview(t)
	line := contracttest.FirstLine(repo.Patch, "api/openapi.yaml")
	review := contracttest.ReviewOf(repo.Patch,
		fmt.Sprintf(`{"id": "c1", "author": "hduran", "path": "api/openapi.yaml", "side": "RIGHT", "start_line": %d, "body": "contract: approved — DELETE /orders/{id}: API removed without deprecation"}`, line),
		fmt.Sprintf(`{"id": "c2", "author": "assistant", "path": "api/openapi.yaml", "side": "RIGHT", "start_line": %d, "body": "contract: approved — GET /orders: the `+"`query`"+` request parameter `+"`limit`"+` became required"}`, line))
	name := filepath.Join(repo.Root, "reviews", "decided.review.json")
	if err := os.WriteFile(name, []byte(review), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"export", "--to", "github", name}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	var rv struct{ Body string }
	if err := json.Unmarshal(stdout.Bytes(), &rv); err != nil {
		t.Fatal(err)
	}
	want := "**Verdict: Block** — contract: fail (2 breaking: 1 undecided, 1 approved by hduran) · correctness, security, test gap: unavailable (not finalized) · visual: n/a\n\nBreaking changes without a decision:\n\n" +
		"- GET /orders: the `query` request parameter `limit` became required\n\nBreaking changes decided:\n\n" +
		"- DELETE /orders/{id}: API removed without deprecation — approved by hduran in c1"
	if !strings.Contains(rv.Body, want) {
		t.Errorf("body:\ngot  %q\nwant it to hold %q", rv.Body, want)
	}
}
