package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/forge"
	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// TestImportRefusesAFileChangedMeanwhile: import -o reads an existing OUT
// before the import and replaces it after; a person's save in between is
// kept and the import says to run again.
func TestImportRefusesAFileChangedMeanwhile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pr.review.json")
	if err := os.WriteFile(out, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orig, err := filewrite.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	saved := []byte("{\"leanreview_review\": 1, \"patch\": [], \"comments\": []}\n")
	if err := os.WriteFile(out, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := writeImported(out, orig, &forge.Imported{Data: []byte("imported\n")}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "changed while the import ran; nothing written — run again") {
		t.Errorf("got exit %d, stderr %q; want 1 and the file named as changed", code, stderr.String())
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, saved) {
		t.Errorf("got %q in the file, want the save %q kept", got, saved)
	}
}

// TestImportCreateRefusesAFileThatAppeared: OUT did not exist when the
// import started, and does when it writes: nothing is overwritten.
func TestImportCreateRefusesAFileThatAppeared(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pr.review.json")
	if err := os.WriteFile(out, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := writeImported(out, nil, &forge.Imported{Data: []byte("imported\n")}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "appeared while the import ran") {
		t.Errorf("got exit %d, stderr %q; want 1 and the file named", code, stderr.String())
	}
	if got, _ := os.ReadFile(out); string(got) != "mine\n" {
		t.Errorf("got %q in the file, want it untouched", got)
	}
}

// ownForgeSchema compiles one of the schema subsets internal/forge's
// tests keep (internal/forge/testdata/schemas).
func ownForgeSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "internal", "forge", "testdata", "schemas", name))
	if err != nil {
		t.Fatal(err)
	}
	return testschema.Compile(t, name, data)
}

// TestExportNewForgesValidate exports every shipped example to Gerrit,
// Gitea, Bitbucket and Azure DevOps through the command and validates
// what it prints against the forge's request schema.
func TestExportNewForgesValidate(t *testing.T) {
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.review.json"))
	if len(examples) == 0 {
		t.Fatal("no shipped examples")
	}
	for to := range newForgeSchemas {
		for _, ex := range examples {
			var stdout, stderr bytes.Buffer
			if code := run([]string{"export", "--to", to, "--skip-unresolved", ex}, nil, &stdout, &stderr); code != 0 {
				t.Errorf("export --to %s %s: exit %d: %s", to, ex, code, stderr.String())
				continue
			}
			checkNewForgePayload(t, "export --to "+to+" "+ex, to, stdout.String())
		}
	}
}
