package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
	"github.com/leanreview/lreview-lsp/internal/visual/visualtest"
)

// TestCheckVisualAxis: check of a review of a Flutter repository whose
// patch changes a widget with a Widgetbook use case, on a host without
// the Flutter SDK (PATH emptied): the visual axis is unavailable for that
// reason and holds the verdict; the same review in a repository without
// a Widgetbook app says that instead.
func TestCheckVisualAxis(t *testing.T) {
	button := func(label string) string {
		return "import 'package:flutter/widgets.dart';\n\nclass BuyButton extends StatelessWidget {\n  @override\n  Widget build(BuildContext context) => const Text('" + label + "');\n}\n"
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"widgetbook", map[string]string{
			"widgetbook/pubspec.yaml":  "name: book\ndependencies:\n  widgetbook: ^3.0.0\n",
			"widgetbook/lib/main.dart": "@UseCase(name: 'Default', type: BuyButton)\nWidget b(BuildContext c) => BuyButton();\n",
		}, "visual: unavailable (no Flutter SDK on the host) · verdict: Hold [verdict]"},
		{"no widgetbook", nil, "visual: unavailable (no Widgetbook app in the repository) · verdict: Hold [verdict]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := branchtest.NewRepo(t)
			files := map[string]string{"pubspec.yaml": "name: shop\ndependencies:\n  flutter:\n    sdk: flutter\n", "lib/buy.dart": button("Buy")}
			for p, text := range tc.files {
				files[p] = text
			}
			r.Commit("base", files)
			base := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
			r.Commit("label", map[string]string{"lib/buy.dart": button("Buy now")})
			review := filepath.Join(r.Root, "pr.review.json")
			if err := os.WriteFile(review, r.Review(base, "HEAD"), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", t.TempDir())
			out, code := checkOut(t, review)
			if code != 0 || !strings.Contains(out, ":1:1: warning: contract: n/a · correctness, security, test gap: unavailable (not finalized) · "+tc.want) {
				t.Errorf("exit %d, output:\n%s", code, out)
			}
		})
	}
}

func TestMain(m *testing.M) {
	visualtest.Main() // run as flutter: the fake, then exit
	os.Exit(m.Run())
}

// TestCheckVisualRendered: check of a review that changes a widget's
// colour, on a host whose flutter is the fake: the golden images are
// rendered in both work trees, the changed and removed snapshots hold
// the visual gate (fail: exit 1), and nothing is written into the
// repository; a person's approvals of both lift it to warn (Hold: the
// reviewers' axes are not finalized); flutter failing is the harness's
// error, with its output.
func TestCheckVisualRendered(t *testing.T) {
	log := visualtest.Install(t)
	r, _, review := visualtest.GoldenRepo(t)
	file := filepath.Join(t.TempDir(), "pr.review.json")
	write := func(data []byte) {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(review)
	out, code := checkOut(t, "--root", r.Root, file)
	want := "visual: fail (1 changed, 1 removed, 1 added, 1 unchanged: approve them (visual: approved — <snapshot>) or fix) · verdict: Block [verdict]"
	if code != 1 || !strings.Contains(out, ":1:1: error: contract: n/a · correctness, security, test gap: unavailable (not finalized) · "+want) {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	if runs := visualtest.Runs(t, log); len(runs) != 4 {
		t.Errorf("flutter ran %d times, want 4 (pub get and test on each side): %q", len(runs), runs)
	}
	if st := r.Git("status", "--porcelain", "--ignored"); st != "" {
		t.Errorf("the repository was written: %s", st)
	}

	approve := func(id, name string) string {
		return `{"id": "` + id + `", "path": "lib/buy_button.dart", "side": "RIGHT", "start_line": 7, "body": "visual: approved — ` + name + `"}`
	}
	write([]byte(strings.Replace(string(review), `"comments": []`, `"comments": [`+approve("v1", "BuyButton/Default")+`, `+approve("v2", "BuyButton/Old")+`]`, 1)))
	out, code = checkOut(t, "--root", r.Root, file)
	if code != 0 || !strings.Contains(out, "visual: warn (2 approved, 1 added, 1 unchanged) · verdict: Hold [verdict]") {
		t.Errorf("approved: exit %d, output:\n%s", code, out)
	}

	t.Setenv(visualtest.EnvFail, "1")
	if err := os.WriteFile(filepath.Join(r.Root, "lib/extra.dart"), []byte("// a change: the inputs differ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(review)
	out, code = checkOut(t, "--root", r.Root, "--format", "json", file)
	if code != 0 || !strings.Contains(out, "visual: unavailable (the golden harness failed) · verdict: Hold") ||
		!strings.Contains(out, "Compilation failed (fake flutter)") {
		t.Errorf("flutter failing: exit %d, output:\n%s", code, out)
	}
}
