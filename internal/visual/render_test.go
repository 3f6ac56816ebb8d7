package visual

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
	"github.com/leanreview/lreview-lsp/internal/visual/visualtest"
)

func TestMain(m *testing.M) {
	visualtest.Main() // run as flutter: the fake, then exit
	os.Exit(m.Run())
}

// state is every file under root (.git included) by its content and
// mode: what "nothing written into the repository" compares.
func state(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, _ := os.ReadFile(p)
		sum := sha256.Sum256(data)
		out[p] = fi.Mode().String() + fi.ModTime().String() + string(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func unchanged(t *testing.T, r *branchtest.Repo, before map[string]string) {
	t.Helper()
	after := state(t, r.Root)
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was written into the repository", p)
		}
	}
	if st := r.Git("status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("git status: %s", st)
	}
}

// TestFlutterRenderer drives the renderer end to end with the fake
// flutter: the work trees made, the generated test run on each side, the
// images compared — changed, unchanged, added, removed exactly — and
// nothing written into the repository; the same inputs again are
// answered from the memo, a file touched renders again.
func TestFlutterRenderer(t *testing.T) {
	log := visualtest.Install(t)
	r, _, review := visualtest.GoldenRepo(t)
	before := state(t, r.Root)
	opts := Options{LookPath: exec.LookPath, Renderer: NewFlutter()}
	res := evaluate(t, r.Root, review, opts)
	if got, want := res.Axis().Words(), "visual: fail (1 changed, 1 removed, 1 added, 1 unchanged: approve them (visual: approved — <snapshot>) or fix)"; got != want {
		t.Fatalf("got %q (%s), want %q", got, res.Detail, want)
	}
	want := map[string]string{"BuyButton/Default": Changed, "BuyButton/Old": Removed, "BuyButton/New": Added, "BuyButton/Same": Unchanged}
	for _, s := range res.Snapshots {
		if want[s.Name] != s.State {
			t.Errorf("%s: got %s, want %s", s.Name, s.State, want[s.Name])
		}
	}
	if s := res.Snapshots[0]; s.Name != "BuyButton/Default" || s.Pixels != 16 {
		t.Errorf("got %+v, want BuyButton/Default with 16 pixels changed", s)
	}
	wantRuns := []string{"pub get --offline", "test --no-pub --update-goldens " + HarnessFile}
	wantRuns = append(wantRuns, wantRuns...)
	if got := visualtest.Runs(t, log); strings.Join(got, "|") != strings.Join(wantRuns, "|") {
		t.Errorf("flutter runs: got %q, want %q", got, wantRuns)
	}
	unchanged(t, r, before)

	evaluate(t, r.Root, review, opts)
	if got := visualtest.Runs(t, log); len(got) != 4 {
		t.Errorf("the same inputs rendered again: %d runs", len(got))
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(r.Root, "lib/buy_button.dart"), later, later); err != nil {
		t.Fatal(err)
	}
	evaluate(t, r.Root, review, opts)
	if got := visualtest.Runs(t, log); len(got) != 8 {
		t.Errorf("a file touched: got %d runs, want 8", len(got))
	}
}

// TestFlutterHarnessFailures: flutter failing (its output in the
// reason), flutter past its timeout, and a patch without index lines
// are the harness's error, saying why; nothing is written into the
// repository.
func TestFlutterHarnessFailures(t *testing.T) {
	visualtest.Install(t)
	r, base, review := visualtest.GoldenRepo(t)
	before := state(t, r.Root)
	check := func(t *testing.T, f *Flutter, review []byte, want string) {
		t.Helper()
		res := evaluate(t, r.Root, review, Options{LookPath: exec.LookPath, Renderer: f})
		if res.Reason != HarnessError || !strings.Contains(res.Detail, want) {
			t.Errorf("got %q: %q, want %q: …%s…", res.Reason, res.Detail, HarnessError, want)
		}
		if got := res.Axis().Words(); got != "visual: unavailable (the golden harness failed)" {
			t.Errorf("axis: got %q", got)
		}
	}
	t.Run("flutter fails", func(t *testing.T) {
		t.Setenv(visualtest.EnvFail, "1")
		check(t, NewFlutter(), review, "the base side: flutter pub get --offline: exit status 1: lib/main.dart:3:1: Error: Compilation failed (fake flutter)")
	})
	t.Run("timeout", func(t *testing.T) {
		t.Setenv(visualtest.EnvSleep, "20s")
		start := time.Now()
		check(t, &Flutter{Timeout: 300 * time.Millisecond}, review, "the base side: flutter pub get --offline did not finish in 300ms")
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v: the hung flutter was waited for", d)
		}
	})
	t.Run("no index lines", func(t *testing.T) {
		var kept []string
		for _, l := range strings.SplitAfter(r.Git("diff", base, "HEAD"), "\n") {
			if !strings.HasPrefix(l, "index ") {
				kept = append(kept, l)
			}
		}
		plain, err := anchor.NewReview([]byte(strings.Join(kept, "")), "review", "")
		if err != nil {
			t.Fatal(err)
		}
		check(t, NewFlutter(), plain, "has no index line (git diff's blob ids)")
	})
	unchanged(t, r, before)
}
