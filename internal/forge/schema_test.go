package forge

import (
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/leanreview/lreview-lsp/internal/testschema"
)

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
	gh := testschema.Forge(t, "github-create-review.request.schema.json")
	gl := testschema.Forge(t, "gitlab-create-discussion.request.schema.json")
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
