package forge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// forgeDir holds the request and response schemas extracted from
// GitHub's OpenAPI description and GitLab's docs; it sits beside the
// repository, not in it.
var forgeDir = filepath.Join("..", "..", "..", "shared", "forge")

// forgeSchema compiles one schema of forgeDir. Without the folder the
// test is skipped, unless CI is set: there a missing reference fails.
func forgeSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(forgeDir, file)
	data, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the forge schema is missing: %v", err)
		}
		t.Skipf("no forge schema to validate against (%v); it lives in ../shared/forge beside the repository", err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(url string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s asks to load %s: no network in tests", file, url)
	}
	url := "file:///forge/" + file
	if err := c.AddResource(url, bytes.NewReader(data)); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

// validate checks the JSON encoding of v against s.
func validate(t *testing.T, s *jsonschema.Schema, what string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(doc); err != nil {
		t.Errorf("%s does not validate against %s: %#v\n%s", what, s.Location, err, data)
	}
}

// TestSchemasRejectWhatTheForgeRejects makes sure the validation can
// fail: a payload the request schemas forbid is refused.
func TestSchemasRejectWhatTheForgeRejects(t *testing.T) {
	gh := forgeSchema(t, "github-create-review.request.schema.json")
	gl := forgeSchema(t, "gitlab-create-discussion.request.schema.json")
	bad := []struct {
		name   string
		schema *jsonschema.Schema
		json   string
	}{
		{"github event not in the enum", gh, `{"event":"REJECT","comments":[]}`},
		{"github comment without body", gh, `{"event":"COMMENT","comments":[{"path":"a","line":1}]}`},
		{"gitlab text position without paths", gl, `{"body":"x","position":{"position_type":"text","base_sha":"a","head_sha":"b","start_sha":"c","new_line":1}}`},
		{"gitlab text position without a line", gl, `{"body":"x","position":{"position_type":"text","base_sha":"a","head_sha":"b","start_sha":"c","new_path":"p","old_path":"p"}}`},
		{"gitlab line code not sha_old_new", gl, `{"body":"x","position":{"position_type":"text","base_sha":"a","head_sha":"b","start_sha":"c","new_path":"p","old_path":"p","new_line":2,"line_range":{"start":{"line_code":"p_1_1","type":"new"},"end":{"line_code":"p_2_2","type":"new"}}}}`},
	}
	for _, b := range bad {
		var doc any
		if err := json.Unmarshal([]byte(b.json), &doc); err != nil {
			t.Fatal(err)
		}
		if err := b.schema.Validate(doc); err == nil {
			t.Errorf("%s: got valid, want a validation error", b.name)
		}
	}
}
