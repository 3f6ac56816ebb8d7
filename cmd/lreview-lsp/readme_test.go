package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/forge"
)

// readmeBlocks returns the fenced blocks of the repository's README.md
// whose info string is lang, in order.
func readmeBlocks(t *testing.T, lang string) []string {
	t.Helper()
	return docBlocks(t, "README.md", lang)
}

// docBlocks returns the fenced blocks of the repository's file name whose
// info string is lang, in order.
func docBlocks(t *testing.T, name, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?ms)^```" + lang + "\n(.*?)^```\n")
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestReadmeFirstCommands runs README.md's and CONTRIBUTING.md's first
// commands as a new contributor on a fresh clone would: the check of a shipped example
// through `go run` (in process here), then `make test` (not run: it runs
// this test).
func TestReadmeFirstCommands(t *testing.T) {
	for _, doc := range []string{"README.md", "CONTRIBUTING.md"} {
		t.Run(doc, func(t *testing.T) { firstCommands(t, doc) })
	}
}

// firstCommands runs the first sh block of doc, which must be the two
// commands that set a clone up.
func firstCommands(t *testing.T, doc string) {
	blocks := docBlocks(t, doc, "sh")
	if len(blocks) == 0 {
		t.Fatalf("%s has no sh block", doc)
	}
	var cmds []string
	for _, line := range strings.Split(blocks[0], "\n") {
		if cmd, _, _ := strings.Cut(line, "#"); strings.TrimSpace(cmd) != "" {
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	if len(cmds) != 2 || !strings.HasPrefix(cmds[0], "go run ./cmd/lreview-lsp check ") || cmds[1] != "make test" {
		t.Fatalf("got %s's first commands %q, want `go run ./cmd/lreview-lsp check EXAMPLE` then `make test`", doc, cmds)
	}
	args := strings.Fields(strings.TrimPrefix(cmds[0], "go run ./cmd/lreview-lsp "))
	for i, a := range args {
		if strings.HasPrefix(a, "examples/") {
			args[i] = filepath.Join("..", "..", a)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Errorf("got exit %d (stderr %q), want 0", code, stderr.String())
	}
	if stdout.Len() == 0 {
		t.Error("the example's check printed nothing; the README promises a diagnostic to look at")
	}
}

// TestReadmeConsole replays the README's console session on the review it
// shows, and checks that the install step comes before any bare
// `lreview-lsp` command.
func TestReadmeConsole(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	install, firstBare := strings.Index(text, "\n## Install\n"), strings.Index(text, "$ lreview-lsp")
	if install < 0 || firstBare >= 0 && firstBare < install {
		t.Errorf("got the Install section at %d and the first `$ lreview-lsp` at %d, want the install step first", install, firstBare)
	}
	jsons, consoles := readmeBlocks(t, "json"), readmeBlocks(t, "console")
	if len(jsons) == 0 || len(consoles) == 0 {
		t.Fatal("README.md lacks the drift example or its console session")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "drift.review.json")
	if err := os.WriteFile(file, []byte(jsons[0]), 0o644); err != nil {
		t.Fatal(err)
	}
	var cmd string
	var want []string
	flush := func() {
		if cmd == "" {
			return
		}
		args := strings.Fields(strings.ReplaceAll(cmd, "drift.review.json", file))
		var out bytes.Buffer
		run(args, nil, &out, &out)
		got := strings.ReplaceAll(out.String(), dir+string(filepath.Separator), "")
		if w := strings.Join(want, "\n") + "\n"; got != w {
			t.Errorf("$ lreview-lsp %s\ngot:\n%swant:\n%s", cmd, got, w)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(consoles[0], "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "$ lreview-lsp "); ok {
			flush()
			cmd, want = rest, nil
			continue
		}
		want = append(want, line)
	}
	flush()
}

// TestReadmeForgeTables checks the README's forge tables against the
// forges' table (go test -update rewrites them): a forge added or changed
// in internal/forge cannot leave the README behind.
func TestReadmeForgeTables(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, sec := range []struct{ name, want string }{{"forge-holds", forgeHoldsTable()}, {"forge-states", forgeStatesTable()}} {
		open := "<!-- " + sec.name + ": written from forge.Forges; readme_test checks it -->\n"
		end := "<!-- end " + sec.name + " -->"
		i, j := strings.Index(text, open), strings.Index(text, end)
		if i < 0 || j < i {
			t.Errorf("README.md has no %q … %q section", open, end)
			continue
		}
		got := text[i+len(open) : j]
		if got == sec.want {
			continue
		}
		if *update {
			text = text[:i+len(open)] + sec.want + text[j:]
			continue
		}
		t.Errorf("README.md's %s table is\n%s\nwant, from forge.Forges (go test -update rewrites it):\n%s", sec.name, got, sec.want)
	}
	if *update && text != string(data) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// commandFlags returns the flags a command defines, from its own -h.
func commandFlags(t *testing.T, name string) []string {
	t.Helper()
	_, _, stderr := runCLI(name, "-h")
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(l, "  -"); ok && len(strings.Fields(rest)) > 0 {
			out = append(out, strings.Fields(rest)[0])
		}
	}
	return out
}

// TestHelpAndReadmeCommands checks the help and the README's table of
// commands against the commands' table and each command's own flags:
// every command is in both, every flag it defines is in its help lines
// and in its README rows, and export and import name every forge.
func TestHelpAndReadmeCommands(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	help := usage()
	for _, c := range commands() {
		var rows []string
		for _, l := range strings.Split(readme, "\n") {
			if strings.HasPrefix(l, "| `lreview-lsp "+c.name+" ") || strings.HasPrefix(l, "| `lreview-lsp "+c.name+"`") {
				rows = append(rows, l)
			}
		}
		if len(rows) == 0 {
			t.Errorf("README.md's Commands table has no row for %s", c.name)
		}
		row := strings.Join(rows, "\n")
		syn := strings.Join(c.synopsis, "\n")
		if !strings.Contains(help, "lreview-lsp "+c.synopsis[0]) {
			t.Errorf("the help has no line for %s", c.name)
		}
		for _, f := range commandFlags(t, c.name) {
			dash := "--" + f
			if len(f) == 1 {
				dash = "-" + f
			}
			if !strings.Contains(syn, dash+" ") && !strings.Contains(syn, dash+"]") {
				t.Errorf("%s defines %s, which its help lines do not name:\n%s", c.name, dash, syn)
			}
			if !strings.Contains(row, dash) {
				t.Errorf("%s defines %s, which its README rows do not name", c.name, dash)
			}
		}
	}
	for _, f := range forge.Forges() {
		for _, cmd := range []string{"export --to " + f.Name, "import --from " + f.Name} {
			if !strings.Contains(help, "lreview-lsp "+cmd+" ") {
				t.Errorf("the help has no line for %s", cmd)
			}
		}
		if !strings.Contains(readme, "\\|"+f.Name) && !strings.Contains(readme, f.Name+"\\|") {
			t.Errorf("README.md's Commands table does not name the forge %s", f.Name)
		}
	}
}
