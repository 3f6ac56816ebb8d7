package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/refdata"
)

// realDiff is one of the real plain diffs: the shared data's
// (realdiff2/NAME), else the one refdata makes under that name with GNU
// diff.
func realDiff(t *testing.T, name string) []string {
	t.Helper()
	return refdata.Lines(refdata.RealDiff(t, name))
}

// reviewOf is a review of patch with one comment per anchor, each
// {path, side, start_line}.
func reviewOf(t *testing.T, patch []string, anchors ...[3]any) []byte {
	t.Helper()
	type comment struct {
		ID        string `json:"id"`
		Path      any    `json:"path"`
		Side      any    `json:"side"`
		StartLine any    `json:"start_line"`
		Body      string `json:"body"`
	}
	var cs []comment
	for i, a := range anchors {
		cs = append(cs, comment{fmt.Sprintf("c%d", i+1), a[0], a[1], a[2], "b"})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as a review writer should
	b.WriteString(`{"leanreview_review": 1, "patch": `)
	if err := enc.Encode(patch); err != nil {
		t.Fatal(err)
	}
	b.WriteString(`, "comments": `)
	if err := enc.Encode(cs); err != nil {
		t.Fatal(err)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// TestCheckPlainDiffs runs check and fix over the real plain diffs of the
// report: `diff -u blns.json.orig blns.json` with comments naming
// blns.json on both sides is clean; on `diff -ruN a b` the repository path
// is known on both sides, and a/… or b/… get the header-path hint, which
// fix turns into the path.
func TestCheckPlainDiffs(t *testing.T) {
	blns := realDiff(t, "gnu-diff-u-blns-json.diff")
	var anchors [][3]any
	for _, side := range []string{"LEFT", "RIGHT"} {
		for _, n := range []int{15, 16, 17, 18} {
			anchors = append(anchors, [3]any{"blns.json", side, n})
		}
	}
	var out, errb bytes.Buffer
	if status := run([]string{"check", "-"}, bytes.NewReader(reviewOf(t, blns, anchors...)), &out, &errb); status != 0 || out.Len() > 0 {
		t.Errorf("blns: got exit %d and\n%s%s\nwant exit 0, no diagnostic", status, out.String(), errb.String())
	}

	ruN := realDiff(t, "gnu-diff-ruN-csnotes-assets-other.diff")
	src := reviewOf(t, ruN,
		[3]any{"assets/download.md", "LEFT", 1}, [3]any{"assets/download.md", "RIGHT", 1},
		[3]any{"a/assets/download.md", "RIGHT", 2}, [3]any{"b/assets/download.md", "LEFT", 2})
	out.Reset()
	errb.Reset()
	status := run([]string{"check", "-"}, bytes.NewReader(src), &out, &errb)
	hint := func(p string) string {
		return fmt.Sprintf(`hint: %q is how the diff's header writes "assets/download.md": name the file by its path, "assets/download.md" [header-path]`, p)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if status != 0 || len(got) != 2 || !strings.HasSuffix(got[0], hint("a/assets/download.md")) || !strings.HasSuffix(got[1], hint("b/assets/download.md")) {
		t.Errorf("diff -ruN: got exit %d and\n%s\nwant exit 0 and two lines ending\n%s\n%s", status, out.String(), hint("a/assets/download.md"), hint("b/assets/download.md"))
	}

	out.Reset()
	errb.Reset()
	if status := run([]string{"fix", "-"}, bytes.NewReader(src), &out, &errb); status != 0 {
		t.Fatalf("fix: got exit %d, %s", status, errb.String())
	}
	var fixed struct {
		Comments []struct {
			Path string `json:"path"`
		} `json:"comments"`
	}
	if err := json.Unmarshal(out.Bytes(), &fixed); err != nil {
		t.Fatal(err)
	}
	for i, c := range fixed.Comments {
		if c.Path != "assets/download.md" {
			t.Errorf("fix: got c%d on %q, want \"assets/download.md\"", i+1, c.Path)
		}
	}
	if !strings.Contains(errb.String(), `: changed c3's path from "a/assets/download.md" to "assets/download.md"`) {
		t.Errorf("fix: got stderr\n%s\nwant c3's path changed", errb.String())
	}
}
