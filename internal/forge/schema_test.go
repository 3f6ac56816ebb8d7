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

// TestOwnSchemasReject makes sure the schema subsets of testdata/schemas
// can fail: a request or listing each forge's reference forbids is
// refused.
func TestOwnSchemasReject(t *testing.T) {
	bad := []struct{ name, schema, json string }{
		{"gerrit side not REVISION or PARENT", "gerrit-review-input.request.schema.json", `{"comments":{"a":[{"line":1,"side":"LEFT","message":"x"}]}}`},
		{"gerrit comment on no line", "gerrit-review-input.request.schema.json", `{"comments":{"a":[{"line":0,"message":"x"}]}}`},
		{"gerrit range without characters", "gerrit-review-input.request.schema.json", `{"comments":{"a":[{"line":2,"range":{"start_line":1,"end_line":2},"message":"x"}]}}`},
		{"gerrit timestamp in RFC 3339", "gerrit-comments.response.schema.json", `{"a":[{"id":"x","message":"m","updated":"2026-12-01T09:00:00Z"}]}`},
		{"gitea both positions", "gitea-create-review.request.schema.json", `{"event":"COMMENT","body":"","comments":[{"path":"a","body":"x","old_position":1,"new_position":2}]}`},
		{"gitea GitHub's event", "gitea-create-review.request.schema.json", `{"event":"APPROVE","body":"","comments":[]}`},
		{"gitea comment without a user", "gitea-review-comment.response.schema.json", `[{"id":1,"body":"","pull_request_review_id":1,"created_at":"2026-12-01T09:00:00Z","path":"a","commit_id":"c","position":1,"original_position":0}]`},
		{"bitbucket reply with an anchor", "bitbucket-create-comment.request.schema.json", `{"text":"x","parent":{"id":1},"anchor":{"path":"a"}}`},
		{"bitbucket line without its type", "bitbucket-create-comment.request.schema.json", `{"text":"x","anchor":{"path":"a","line":3}}`},
		{"bitbucket page without values", "bitbucket-activities.response.schema.json", `{"size":0,"isLastPage":true,"start":0,"limit":25}`},
		{"azure relative file path", "azure-create-thread.request.schema.json", `{"comments":[{"content":"x"}],"threadContext":{"filePath":"a.txt"}}`},
		{"azure offset 0", "azure-create-thread.request.schema.json", `{"comments":[{"content":"x"}],"threadContext":{"filePath":"/a","rightFileStart":{"line":1,"offset":0},"rightFileEnd":{"line":1,"offset":1}}}`},
		{"azure status not in the enum", "azure-threads.response.schema.json", `{"count":1,"value":[{"id":1,"publishedDate":"2026-12-01T09:00:00Z","comments":[],"isDeleted":false,"status":"resolved"}]}`},
	}
	for _, b := range bad {
		var doc any
		if err := json.Unmarshal([]byte(b.json), &doc); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if err := ownSchema(t, b.schema).Validate(doc); err == nil {
			t.Errorf("%s: got valid, want a validation error", b.name)
		}
	}
}
