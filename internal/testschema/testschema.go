// Package testschema compiles the JSON Schemas tests validate output
// against, offline: a schema asking to load a reference from the network
// fails the test. Its paths are those of a package two folders below the
// repository's root (cmd/x, internal/x), where go test runs that
// package's tests.
package testschema

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// Compile compiles the schema held in data, named name in messages,
// asserting formats (date-time, uri, ...) as well as structure.
func Compile(tb testing.TB, name string, data []byte) *jsonschema.Schema {
	tb.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(url string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("the schema %s asks to load %s: no network in tests", name, url)
	}
	url := "file:///schemas/" + filepath.Base(name)
	if err := c.AddResource(url, bytes.NewReader(data)); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return s
}

// Forge compiles one of the forges' request and response schemas,
// extracted from GitHub's OpenAPI description and GitLab's docs: reference
// data (refdata's forge/), not in the repository. Without it the test is
// skipped, unless the environment sets CI: there a missing schema fails.
func Forge(tb testing.TB, file string) *jsonschema.Schema {
	tb.Helper()
	return Compile(tb, file, refdata.File(tb, "forge/"+file))
}
