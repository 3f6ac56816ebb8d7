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
		args, _ := archiveSection(ar, "args")
		if to := archiveForge(string(args)); to != "github" && to != "gitlab" {
			checkNewForgePayload(t, file, to, r.stdout)
			continue
		}
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

// archiveForge is the forge an export archive's arguments name.
func archiveForge(args string) string {
	f := strings.Fields(args)
	for i := range f {
		if f[i] == "--to" && i+1 < len(f) {
			return f[i+1]
		}
	}
	return ""
}

// archiveSection returns an archive's section.
func archiveSection(ar *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// newForgeSchemas names each new forge's request schema.
var newForgeSchemas = map[string]string{
	"gerrit":    "gerrit-review-input.request.schema.json",
	"gitea":     "gitea-create-review.request.schema.json",
	"bitbucket": "bitbucket-create-comment.request.schema.json",
	"azure":     "azure-create-thread.request.schema.json",
}

// checkNewForgePayload validates what export --to printed: one body, or
// each request of the array.
func checkNewForgePayload(t *testing.T, what, to, out string) {
	t.Helper()
	s := ownForgeSchema(t, newForgeSchemas[to])
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Errorf("%s: stdout is not JSON: %v", what, err)
		return
	}
	bodies := []any{v}
	if list, ok := v.([]any); ok {
		bodies = list
	}
	for i, b := range bodies {
		if err := s.Validate(b); err != nil {
			t.Errorf("%s: request %d does not validate against %s: %#v", what, i, newForgeSchemas[to], err)
		}
	}
}
