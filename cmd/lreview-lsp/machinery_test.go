package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestApplyNeverWritesMachinery: a review's suggestions for .git/config
// and .vscode/tasks.json are skipped, saying why, and neither file is
// written, with --dry-run or without.
func TestApplyNeverWritesMachinery(t *testing.T) {
	root, review := testreviews.MachineryRepo(t)
	for _, args := range [][]string{{"apply", "--dry-run", review}, {"apply", review}} {
		code, out, errs := runCmd(t, args...)
		if code != 1 || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 1, no diff", args, code, out)
		}
		for _, want := range []string{
			`c1: skipped: .git/config: ".git" is git's repository data`,
			`c2: skipped: .vscode/tasks.json: ".vscode" is VS Code's workspace settings and tasks`,
			"make such a change by hand",
		} {
			if !strings.Contains(errs, want) {
				t.Errorf("%v: stderr %q lacks %q", args, errs, want)
			}
		}
		if strings.Contains(errs, "applied") {
			t.Errorf("%v: stderr %q says something was applied", args, errs)
		}
	}
	for name, want := range map[string]string{".git/config": testreviews.MachineryConfig, ".vscode/tasks.json": testreviews.MachineryTasks} {
		if got, _ := os.ReadFile(filepath.Join(root, name)); string(got) != want {
			t.Errorf("%s: got %q, want it untouched", name, got)
		}
	}
}
