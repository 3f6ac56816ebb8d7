package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// update rewrites testdata/tools.golden.json: go test ./internal/agent -run ToolsList -update
var update = flag.Bool("update", false, "rewrite testdata/tools.golden.json from the server's tools/list")

// TestToolsList compares tools/list (names, descriptions, input and output
// schemas, annotations) with the golden file: a change to what agents see
// is a change to review.
func TestToolsList(t *testing.T) {
	s := newSession(t, Options{}, nil)
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	want := []string{"lreview_add_comment", "lreview_add_diagram", "lreview_apply_suggestion", "lreview_blast_radius", "lreview_check", "lreview_cohorts", "lreview_comments", "lreview_delete_comment", "lreview_edit_comment",
		"lreview_finalize", "lreview_fix", "lreview_locate", "lreview_new", "lreview_preview", "lreview_rebase", "lreview_reply", "lreview_set_cohort_summary", "lreview_set_state"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Errorf("got tools %v, want %v", names, want)
	}
	for _, tool := range res.Tools {
		out, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(out, []byte(`"null"`)) {
			t.Errorf("%s: got a nullable type in its output schema, want none (the server never sends null)", tool.Name)
		}
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "tools.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	wantJSON, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantJSON) {
		t.Errorf("tools/list differs from %s (run with -update to accept):\n%s", golden, got)
	}
}

// TestInstructions checks that the server sends its instructions at
// initialize, naming the loop's tools and the four states.
func TestInstructions(t *testing.T) {
	s := newSession(t, Options{}, nil)
	got := s.cs.InitializeResult().Instructions
	for _, w := range []string{"lreview_new", "lreview_add_comment", "lreview_comments", "lreview_check", "active", "dismissed", "orphaned", "stale"} {
		if !bytes.Contains([]byte(got), []byte(w)) {
			t.Errorf("instructions %q do not mention %s", got, w)
		}
	}
}
