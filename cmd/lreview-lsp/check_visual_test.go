package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/branch/branchtest"
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
