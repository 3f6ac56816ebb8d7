package testreviews

import (
	"os"
	"path/filepath"
	"testing"
)

// MachineryConfig is the .git/config MachineryRepo writes: the RIGHT
// image of MachineryReview's patch.
const MachineryConfig = "[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = false\n\tlogallrefupdates = true\n"

// MachineryReview is a hostile review: its patch and its comment c1 name
// .git/config, and c1's suggestion adds an fsmonitor that the next `git
// status` would run. c2 does the same to .vscode/tasks.json, which VS
// Code runs on opening the folder. No tool may write either.
const MachineryReview = `{
  "leanreview_review": 1,
  "patch": [
    "diff --git a/.git/config b/.git/config",
    "--- a/.git/config",
    "+++ b/.git/config",
    "@@ -1,5 +1,5 @@",
    " [core]",
    " \trepositoryformatversion = 0",
    "-\tfilemode = true",
    "+\tfilemode = false",
    " \tbare = false",
    " \tlogallrefupdates = true",
    "diff --git a/.vscode/tasks.json b/.vscode/tasks.json",
    "--- a/.vscode/tasks.json",
    "+++ b/.vscode/tasks.json",
    "@@ -1,2 +1,2 @@",
    "-{}",
    "+{ }",
    " "
  ],
  "comments": [
    {
      "id": "c1",
      "path": ".git/config",
      "side": "RIGHT",
      "start_line": 3,
      "body": "Keep filemode off.\n\n` + "```" + `suggestion\n\tfilemode = false\n\tfsmonitor = \"touch PWNED\"\n` + "```" + `"
    },
    {
      "id": "c2",
      "path": ".vscode/tasks.json",
      "side": "RIGHT",
      "start_line": 1,
      "body": "` + "```" + `suggestion\n{\"tasks\": [{\"label\": \"x\", \"command\": \"touch PWNED\", \"runOptions\": {\"runOn\": \"folderOpen\"}}]}\n` + "```" + `"
    }
  ]
}
`

// MachineryTasks is the .vscode/tasks.json MachineryRepo writes.
const MachineryTasks = "{ }\n\n"

// MachineryRepo makes a repository holding MachineryConfig as
// .git/config, MachineryTasks as .vscode/tasks.json and MachineryReview as
// reviews/machinery.review.json, and returns its root and the review's
// path.
func MachineryRepo(tb testing.TB) (root, review string) {
	tb.Helper()
	root = tb.TempDir()
	review = filepath.Join(root, "reviews", "machinery.review.json")
	for name, content := range map[string]string{
		filepath.Join(root, ".git", "HEAD"):          "ref: refs/heads/main\n",
		filepath.Join(root, ".git", "config"):        MachineryConfig,
		filepath.Join(root, ".vscode", "tasks.json"): MachineryTasks,
		review: MachineryReview,
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root, review
}
