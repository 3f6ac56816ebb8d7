package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/verdict"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestVerdictLensFinalized opens a finalized review (check-verdict's
// golden): the lens and the verdict diagnostic read every axis, the
// dismissed evidence stale; a person dismissing the other evidence in the
// editor turns the verdict from Block to Hold at the next publish.
func TestVerdictLensFinalized(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "cmd", "lreview-lsp", "testdata", "check-verdict.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "-- in.review.json --\n")
	review, _, _ := strings.Cut(rest, "-- args --")
	c := newTestClient(t, Options{})
	c.initialize()
	u := protocol.DocumentURI(uri.File(filepath.Join(t.TempDir(), "in.review.json")))
	c.open(u, review)
	want := "contract: n/a · correctness: warn · security: fail (c1) · test gap: fail (c2 dismissed: evidence stale, finalize again) · visual: n/a · verdict: Block"
	d := diagOf(c.waitDiagnostics(u, 1), verdict.Code)
	if d == nil || d.Message != want || d.Severity != protocol.DiagnosticSeverityError {
		t.Fatalf("verdict: got %+v, want an error %q", d, want)
	}
	if got := lensTitles(t, c, u); !containsString(got, want) {
		t.Errorf("lenses: got %q", got)
	}
	// The person dismisses c1, the security fail's only evidence.
	dismissed := strings.Replace(review, `"id": "c1",`, `"id": "c1", "state": "dismissed",`, 1)
	c.change(u, 2, nil, dismissed)
	want = "contract: n/a · correctness: warn · security: fail (c1 dismissed: evidence stale, finalize again) · test gap: fail (c2 dismissed: evidence stale, finalize again) · visual: n/a · verdict: Hold"
	d = diagOf(c.waitDiagnostics(u, 2), verdict.Code)
	if d == nil || d.Message != want || d.Severity != protocol.DiagnosticSeverityWarning {
		t.Fatalf("after the dismissal: got %+v, want a warning %q", d, want)
	}
	if got := lensTitles(t, c, u); !containsString(got, want) {
		t.Errorf("lenses after the dismissal: got %q", got)
	}
}
