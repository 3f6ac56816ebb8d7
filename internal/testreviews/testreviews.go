// Package testreviews reads the project's review files for tests: the
// examples, the editor fixtures and the JSON files of the command's test
// archives, so that a test of any layer runs over the same reviews. Its
// paths are those of a package two folders below the repository's root
// (internal/x), where go test runs that package's tests.
package testreviews

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Golden returns the reviews by path (an archive's files as
// ARCHIVE/NAME), with the files of the archives the extra globs find.
// It fails tb when it finds fewer than twenty: the globs are out of date.
func Golden(tb testing.TB, archives ...string) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	files, _ := filepath.Glob("../../examples/*.review.json")
	fixtures, _ := filepath.Glob("../../editors/*/test/*fixtures/*.review.json")
	for _, f := range append(files, fixtures...) {
		src, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[f] = src
	}
	paths, _ := filepath.Glob("../../cmd/lreview-lsp/testdata/*.txtar")
	for _, glob := range archives {
		more, _ := filepath.Glob(glob)
		paths = append(paths, more...)
	}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".json") && (bytes.Contains(f.Data, []byte(`"comments"`)) || bytes.Contains(f.Data, []byte(`"patch"`))) {
				out[p+"/"+f.Name] = f.Data
			}
		}
	}
	if len(out) < 20 {
		tb.Fatalf("found %d reviews: the globs are out of date", len(out))
	}
	return out
}
