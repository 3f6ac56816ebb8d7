package exchange

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func violationShape(vs []SchemaViolation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%s %q %s|", v.Node.Pointer(), v.Missing, v.Message)
	}
	return b.String()
}

// TestValidateCached edits comments at random and checks that validating
// with the previous version's cache reports exactly what a full
// validation reports.
func TestValidateCached(t *testing.T) {
	base := `{"leanreview_review": 1, "patch": ["diff --git a/x b/x", 3], "comments": [
  {"id": "c1", "path": "x", "side": "RIGHT", "start_line": 1, "body": "ok"},
  {"id": "c2", "path": "x", "side": "middle", "start_line": 0, "body": "bad"},
  "not a comment",
  {"id": "c3", "path": "x", "side": "left", "start_line": 2, "body": "ok", "replies": [{"author": "a"}]},
  {"id": "c4", "path": "x", "side": "RIGHT", "start_line": 1, "body": "ok", "at": "yesterday"}
]}`
	pieces := []string{`"side": "RIGHT"`, `"side": "MIDDLE"`, `"start_line": 1`, `"start_line": -1`, `"body": "ok"`, `"bodx": "ok"`, `"replies": []`, `"replies": [{"body": 1}]`, `"state": "done"`, `"state": "stale"`}
	r := rand.New(rand.NewPCG(3, 4))
	text := base
	var cache *SchemaCache
	v := DefaultSchema()
	for i := 0; i < 300; i++ {
		from := pieces[r.IntN(len(pieces))]
		if strings.Contains(text, from) {
			text = strings.Replace(text, from, pieces[r.IntN(len(pieces))], 1)
		}
		doc := Parse([]byte(text))
		var got []SchemaViolation
		got, cache = v.ValidateCached(doc, cache)
		want := v.Validate(doc)
		if violationShape(got) != violationShape(want) {
			t.Fatalf("step %d: cached validation differs on\n%s\ngot  %s\nwant %s", i, text, violationShape(got), violationShape(want))
		}
	}
}
