package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"golang.org/x/tools/txtar"

	"github.com/leanreview/lreview-lsp/internal/testschema"
)

// TestExportPayloadsValidate runs every successful export golden and the
// shipped examples through the command and validates what it prints
// against the forge's request schema: GitHub's create-review body, or
// each of GitLab's discussion bodies.
func TestExportPayloadsValidate(t *testing.T) {
	github := testschema.Forge(t, "github-create-review.request.schema.json")
	gitlab := testschema.Forge(t, "gitlab-create-discussion.request.schema.json")
	archives, _ := filepath.Glob(filepath.Join("testdata", "export-*.txtar"))
	runs := 0
	for _, file := range archives {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		r := runArchive(t, ar)
		if r.exit != 0 {
			continue
		}
		runs++
		checkPayload(t, file, r.stdout, strings.Contains(r.stdout, `"position"`), github, gitlab)
	}
	examples, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.review.json"))
	for _, ex := range examples {
		for _, args := range [][]string{
			{"export", "--to", "github", "--skip-unresolved", ex},
			{"export", "--to", "gitlab", "--base-sha", "a", "--start-sha", "b", "--head-sha", "c", "--skip-unresolved", ex},
		} {
			var stdout, stderr bytes.Buffer
			if code := run(args, nil, &stdout, &stderr); code != 0 {
				t.Errorf("%s: got exit %d (%s), want 0", strings.Join(args, " "), code, stderr.String())
				continue
			}
			runs++
			checkPayload(t, strings.Join(args, " "), stdout.String(), args[2] == "gitlab", github, gitlab)
		}
	}
	if runs < 4 {
		t.Errorf("got %d payloads validated, want the goldens' and the examples'", runs)
	}
}

func checkPayload(t *testing.T, what, out string, isGitLab bool, github, gitlab *jsonschema.Schema) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Errorf("%s: stdout is not JSON: %v", what, err)
		return
	}
	if !isGitLab {
		if err := github.Validate(v); err != nil {
			t.Errorf("%s: the GitHub review does not validate: %#v", what, err)
		}
		return
	}
	list, ok := v.([]any)
	if !ok {
		t.Errorf("%s: got %T, want a JSON array of discussions", what, v)
		return
	}
	for i, d := range list {
		if err := gitlab.Validate(d); err != nil {
			t.Errorf("%s: discussion %d does not validate: %#v", what, i, err)
		}
	}
}
