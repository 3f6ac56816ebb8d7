package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestArchiveHoldsWhatTheInstallRowsName: every editors/ path the
// README's install table names is in the archive (a file, or a folder
// with files in it), and no editor's test goes with it.
func TestArchiveHoldsWhatTheInstallRowsName(t *testing.T) {
	members, err := editorMembers("../..")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range members {
		names[m.name] = true
		if strings.Contains(m.name, "/test/") || strings.HasSuffix(m.name, ".go") {
			t.Errorf("the archive holds %s, a test", m.name)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Install\n")
	if !ok {
		t.Fatal("README.md has no Install section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	named := regexp.MustCompile("`(editors/[^` ]+)`").FindAllStringSubmatch(table, -1)
	if len(named) < 3 {
		t.Fatalf("the install table names %d editors/ paths, want Helix's, Emacs's and JetBrains' at least", len(named))
	}
	for _, n := range named {
		p := strings.TrimSuffix(n[1], "/")
		found := names[p]
		for name := range names {
			found = found || strings.HasPrefix(name, p+"/")
		}
		if !found {
			t.Errorf("the install table names %s, which the archive does not hold", p)
		}
	}
}
