package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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

// TestReadmeFirstCommands runs CONTRIBUTING.md's first commands as a new
// contributor on a fresh clone would: the check of a shipped example
// through `go run` (in process here), then `make test` (not run: it runs
// this test).
func TestReadmeFirstCommands(t *testing.T) {
	blocks := docBlocks(t, "CONTRIBUTING.md", "sh")
	if len(blocks) == 0 {
		t.Fatal("CONTRIBUTING.md has no sh block")
	}
	var cmds []string
	for _, line := range strings.Split(blocks[0], "\n") {
		if cmd, _, _ := strings.Cut(line, "#"); strings.TrimSpace(cmd) != "" {
			cmds = append(cmds, strings.TrimSpace(cmd))
		}
	}
	if len(cmds) != 2 || !strings.HasPrefix(cmds[0], "go run ./cmd/lreview-lsp check ") || cmds[1] != "make test" {
		t.Fatalf("got the README's first commands %q, want `go run ./cmd/lreview-lsp check EXAMPLE` then `make test`", cmds)
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
