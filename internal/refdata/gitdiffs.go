package refdata

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitDiffs makes real diffs of every shape a review may embed, with git
// (and GNU diff, when installed) in a temporary repository: several hunks,
// a path with a space and a quoted non-ASCII one, binaries, a mode change,
// a symbolic link retargeted, CRLF and control characters inside lines, a
// 30,000-character line, a rename and a copy with edits, deleted files
// (one empty, one whose removed lines start "-- " and "--- "), a new file
// without a final newline; and a plain `diff -u x.orig x` and `diff -ruN
// a b`. Without git the test is skipped (failed under CI).
func GitDiffs(tb testing.TB) map[string][]byte {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		Missing(tb, "git, to make real diffs")
	}
	dir := tb.TempDir()
	repo := filepath.Join(dir, "repo")
	g := &gitRepo{tb: tb, dir: repo, home: dir}
	g.run("init", "-q", "-b", "main", repo)
	for name, content := range before() {
		g.write(name, content)
	}
	g.symlink("link", "internal/api/handler.go")
	g.run("add", "-A")
	g.commit("before")
	for name, content := range after() {
		g.write(name, content)
	}
	if err := os.MkdirAll(filepath.Join(repo, "new dir"), 0o755); err != nil {
		tb.Fatal(err)
	}
	g.run("mv", "old-name.go", "new dir/renamed.go")
	g.write("new dir/renamed.go", strings.Replace(goFile("old", 24), "line 12", "line twelve", 1))
	g.write("copy-dst.go", strings.Replace(goFile("copy", 24), "line 20", "line twenty", 1))
	g.remove("empty-gone", "query.sql")
	if err := os.Chmod(filepath.Join(repo, "script.sh"), 0o755); err != nil {
		tb.Fatal(err)
	}
	g.symlink("link", "docs/Read me.md")
	g.symlink("new-link", "script.sh")
	g.run("add", "-A")
	g.commit("after")

	quoted := []string{"-c", "core.quotePath=true", "-c", "diff.noprefix=false", "-c", "color.ui=never", "-c", "diff.relative=false"}
	out := map[string][]byte{
		"git-shapes.diff":     g.output(append(quoted, "diff", "--no-ext-diff", "-M", "-C", "--find-copies-harder", "HEAD~1", "HEAD")...),
		"git-no-renames.diff": g.output(append(quoted, "diff", "--no-ext-diff", "--no-renames", "HEAD~1", "HEAD")...),
		"git-show.diff":       g.output(append(quoted, "show", "--no-ext-diff", "--format=", "-M", "HEAD")...),
	}
	if _, err := exec.LookPath("diff"); err == nil {
		out["gnu-diff-u-blns-json.diff"] = gnuDiff(tb, dir, blnsFiles(), "-u", "blns.json.orig", "blns.json")
		out["gnu-diff-ruN-csnotes-assets-other.diff"] = gnuDiff(tb, dir, ruNFiles(), "-ruN", "a", "b")
	}
	return out
}

// before is the first commit's files.
func before() map[string]string {
	return map[string]string{
		"internal/api/handler.go": goFile("api", 40),
		"docs/Read me.md":         "# Read me\n\nA file whose name has a space.\n",
		"naïve/café.txt":          "crème\nbrûlée\n",
		"bin.dat":                 "\x00\x01\x02binary\x00\xff",
		"script.sh":               "#!/bin/sh\necho old\n",
		"crlf.txt":                "one\r\ntwo\r\nthree\r\n",
		"ctrl.txt":                "a\x01b\n\x1b[31mred\x1b[0m\nline\u2028separator\n\ufeffbom\nform\ffeed\n",
		"long.txt":                strings.Repeat("x", 30000) + "\n",
		"old-name.go":             goFile("old", 24),
		"copy-src.go":             goFile("copy", 24),
		"empty-gone":              "",
		"query.sql":               "-- a comment\n--- dashes\nSELECT 1;\n++ plus\n",
	}
}

// after is what the second commit changes or adds.
func after() map[string]string {
	return map[string]string{
		"internal/api/handler.go": strings.NewReplacer("line 5\n", "line five\n", "line 30\n", "line thirty\n\t// added\n").Replace(goFile("api", 40)),
		"docs/Read me.md":         "# Read me\n\nA file whose name has a space.\nAnd one more line.\n",
		"naïve/café.txt":          "crème\nbrûlée!\n",
		"bin.dat":                 "\x00\x01\x02BINARY\x00\xfe",
		"script.sh":               "#!/bin/sh\necho new\n",
		"crlf.txt":                "one\r\nTWO\r\nthree\r\n",
		"ctrl.txt":                "a\x01b\n\x1b[32mgreen\x1b[0m\nline\u2028separator\n\ufeffbom\nform\ffeed\n",
		"long.txt":                strings.Repeat("x", 15000) + "y" + strings.Repeat("x", 14999) + "\n",
		"no-newline.txt":          "the last line has no newline",
		"image.png":               "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
	}
}

// goFile is a Go file of n numbered lines.
func goFile(pkg string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for i := 3; i <= n; i++ {
		fmt.Fprintf(&b, "// line %d\n", i)
	}
	return b.String()
}

// blnsFiles are the two sides of a plain `diff -u x.orig x`: JSON with
// escapes, changed in its lines 16 and 17.
func blnsFiles() map[string]string {
	var old, cur strings.Builder
	old.WriteString("[\n")
	cur.WriteString("[\n")
	for i := 2; i <= 29; i++ {
		line := fmt.Sprintf("    \"string %d \\u0001 \\\\ \\\"\",\n", i)
		old.WriteString(line)
		if i == 16 || i == 17 {
			line = fmt.Sprintf("    \"string %d changed \\u2029\",\n", i)
		}
		cur.WriteString(line)
	}
	old.WriteString("    \"\"\n]\n")
	cur.WriteString("    \"\"\n]\n")
	return map[string]string{"blns.json.orig": old.String(), "blns.json": cur.String()}
}

// ruNFiles are two trees for `diff -ruN a b`: a file changed in its first
// line, one only in a (deleted: dated the epoch in b), one only in b.
func ruNFiles() map[string]string {
	return map[string]string{
		"a/assets/download.md": "# Download\n\nline 3\nline 4\nline 5\n",
		"b/assets/download.md": "# Downloads\n\nline 3\nline 4\nline 5\n",
		"a/other/gone.md":      "gone\n",
		"b/other/new file.md":  "new\n",
	}
}

// gnuDiff writes files under a folder of dir and runs diff args there;
// exit 1 (differences found) is success.
func gnuDiff(tb testing.TB, dir string, files map[string]string, args ...string) []byte {
	tb.Helper()
	work := filepath.Join(dir, "gnu-"+strings.Join(args, ""))
	for name, content := range files {
		p := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cmd := exec.Command("diff", args...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "TZ=UTC")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok && err != nil || ok && ee.ExitCode() != 1 {
		tb.Fatalf("diff %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// gitRepo runs git in a repository of a test, with no user or system
// configuration.
type gitRepo struct {
	tb   testing.TB
	dir  string
	home string
}

func (g *gitRepo) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = g.home
	if _, err := os.Stat(g.dir); err == nil {
		cmd.Dir = g.dir
	}
	cmd.Env = append(os.Environ(), "HOME="+g.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_AUTHOR_DATE=2026-12-05T08:00:00Z", "GIT_COMMITTER_DATE=2026-12-05T08:00:00Z")
	return cmd
}

func (g *gitRepo) run(args ...string) { g.output(args...) }

func (g *gitRepo) output(args ...string) []byte {
	g.tb.Helper()
	var stderr bytes.Buffer
	cmd := g.cmd(args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		g.tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func (g *gitRepo) commit(msg string) { g.run("commit", "-q", "--no-gpg-sign", "-m", msg) }

func (g *gitRepo) write(name, content string) {
	g.tb.Helper()
	p := filepath.Join(g.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.tb.Fatal(err)
	}
}

func (g *gitRepo) remove(names ...string) {
	g.tb.Helper()
	for _, n := range names {
		if err := os.Remove(filepath.Join(g.dir, n)); err != nil {
			g.tb.Fatal(err)
		}
	}
}

func (g *gitRepo) symlink(name, target string) {
	g.tb.Helper()
	p := filepath.Join(g.dir, name)
	os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		g.tb.Fatal(err)
	}
}
