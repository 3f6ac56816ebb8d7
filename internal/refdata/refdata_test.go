package refdata

import (
	"strings"
	"testing"
)

// TestGitDiffsHaveEveryShape: the diffs GitDiffs makes hold the shapes
// the tests rely on, as git and GNU diff write them.
func TestGitDiffsHaveEveryShape(t *testing.T) {
	diffs := GitDiffs(t)
	shapes := string(diffs["git-shapes.diff"])
	for _, want := range []string{
		"diff --git a/docs/Read me.md b/docs/Read me.md",
		`"a/na\303\257ve/caf\303\251.txt"`,
		"Binary files a/bin.dat and b/bin.dat differ",
		"old mode 100644\nnew mode 100755",
		"new file mode 120000",
		"rename from old-name.go\nrename to new dir/renamed.go",
		"copy from copy-src.go\ncopy to copy-dst.go",
		"deleted file mode 100644\nindex e69de29..0000000\n",
		"\n--- a comment\n---- dashes\n",
		"+TWO\r\n",
		"\\ No newline at end of file",
		"\u2028",
		"-\x1b[31mred",
	} {
		if !strings.Contains(shapes, want) {
			t.Errorf("git-shapes.diff lacks %q", want)
		}
	}
	if len(strings.Split(shapes, "\n")) < 80 {
		t.Errorf("git-shapes.diff has %d lines, want a real diff", len(strings.Split(shapes, "\n")))
	}
	if !strings.Contains(string(diffs["git-no-renames.diff"]), "deleted file mode 100644\nindex") {
		t.Error("git-no-renames.diff lacks the rename as a deletion")
	}
	if gnu, ok := diffs["gnu-diff-ruN-csnotes-assets-other.diff"]; ok {
		for _, want := range []string{"diff -ruN a/assets/download.md b/assets/download.md", "--- a/other/gone.md\t", "1970-01-01", "-# Download\n+# Downloads\n"} {
			if !strings.Contains(string(gnu), want) {
				t.Errorf("diff -ruN lacks %q:\n%s", want, gnu)
			}
		}
	}
}
