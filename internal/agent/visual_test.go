package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/visual/visualtest"
)

func TestMain(m *testing.M) {
	visualtest.Main() // run as flutter: the fake, then exit
	os.Exit(m.Run())
}

// TestCheckVisualRendered: lreview_check of a review that changes a
// widget's colour, on a host whose flutter is the fake, carries the
// visual axis as rendered (changed and removed snapshots fail it:
// Block); a second check renders nothing again.
func TestCheckVisualRendered(t *testing.T) {
	log := visualtest.Install(t)
	s := newSession(t, Options{}, nil)
	_, _, review := visualtest.GoldenRepoIn(t, filepath.Join(s.root, "shop"))
	writeFile(t, filepath.Join(s.root, "shop", "pr.review.json"), string(review))
	var out CheckOutput
	for range 2 {
		s.ok("lreview_check", map[string]any{"file": "shop/pr.review.json"}, &out)
		v := out.Verdict
		if v == nil || v.Verdict != "Block" || len(v.Axes) != 5 {
			t.Fatalf("got %+v", v)
		}
		if ax := v.Axes[4]; ax.Name != "visual" || ax.State != "fail" || ax.Detail != "1 changed, 1 removed, 1 added, 1 unchanged: approve them (visual: approved — <snapshot>) or fix" {
			t.Errorf("visual: got %+v", ax)
		}
	}
	if runs := visualtest.Runs(t, log); len(runs) != 4 {
		t.Errorf("flutter ran %d times, want 4 (pub get and test on each side, once): %q", len(runs), runs)
	}
}
