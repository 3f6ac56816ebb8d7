package main

import (
	"bytes"
	"encoding/json"
	"testing"
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
