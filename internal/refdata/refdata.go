// Package refdata gives tests the reference data that is not the
// project's to commit: the official LSP meta model, real diffs of public
// projects, the forges' request schemas. It looks, in order, in
// $LREVIEW_REFDATA, in testdata/ref/ of the repository (where
// scripts/fetch-testdata puts what it fetches from the public sources) and
// in ../shared/ beside the repository (the developers' copy), each laid
// out as data/lsp-metamodel/, data/realdiff*/ and forge/.
//
// Without it a test is skipped, and the skip is recorded in the file
// $LREVIEW_SKIPPED names, from which `make test` says in one line what
// was skipped; under CI (CI set) it fails instead. Real diffs are never
// missing: GitDiffs makes diffs of every shape with git in a temporary
// repository, and RealDiffs adds them to the fetched ones.
package refdata

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// roots are the folders searched, first first: each holds data/ and
// forge/ as ../shared does.
func roots() []string {
	if d := os.Getenv("LREVIEW_REFDATA"); d != "" {
		return []string{d}
	}
	if repo := repoRoot(); repo != "" {
		return []string{filepath.Join(repo, "testdata", "ref"), filepath.Join(repo, "..", "shared")}
	}
	return nil
}

// repoRoot is the repository's root: the nearest folder above the working
// directory (a package's, under go test) holding go.mod.
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns where the file rel (e.g. "data/lsp-metamodel/metaModel.json")
// is, and whether it is anywhere.
func Path(rel string) (string, bool) {
	for _, r := range roots() {
		p := filepath.Join(r, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// File reads the file rel, or skips the test (fails it under CI) naming
// what is missing.
func File(tb testing.TB, rel string) []byte {
	tb.Helper()
	p, ok := Path(rel)
	if !ok {
		Missing(tb, rel)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Glob returns the files matching pattern (slash-separated, relative to a
// root) in the first root that has any.
func Glob(pattern string) []string {
	for _, r := range roots() {
		m, _ := filepath.Glob(filepath.Join(r, filepath.FromSlash(pattern)))
		if len(m) > 0 {
			sort.Strings(m)
			return m
		}
	}
	return nil
}

// Missing ends the test for want of the reference data what: a failure
// under CI, else a skip recorded for `make test`'s summary.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("CI is set and the reference data %s is missing (sh scripts/fetch-testdata, or ../shared beside the repository)", what)
	}
	if f := os.Getenv("LREVIEW_SKIPPED"); f != "" {
		if out, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(out, "%s\t%s\n", tb.Name(), what)
			out.Close()
		}
	}
	tb.Skipf("no %s (sh scripts/fetch-testdata fetches it): skipped", what)
}

// RealDiffs returns the real diffs, by name: the fetched ones
// (data/realdiff*/NAME.diff, named "realdiff2/NAME.diff") and those
// GitDiffs makes (named "git/NAME.diff").
func RealDiffs(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, f := range Glob("data/realdiff*/*.diff") {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = data
	}
	for name, data := range GitDiffs(tb) {
		out["git/"+name] = data
	}
	return out
}

// RealDiff returns one diff by its name in data/realdiff2 (the shared
// data's), else the one GitDiffs makes under that name.
func RealDiff(tb testing.TB, name string) []byte {
	tb.Helper()
	if p, ok := Path("data/realdiff2/" + name); ok {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		return data
	}
	data, ok := GitDiffs(tb)[name]
	if !ok {
		Missing(tb, "data/realdiff2/"+name)
	}
	return data
}

// Lines splits a diff into its lines as a review's patch holds them: on
// LF only, without the final newline.
func Lines(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
