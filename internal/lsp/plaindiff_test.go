package lsp

import (
	"strings"
	"testing"
)

// TestPlainDiffPathsOverLSP: in an editor, a comment that names a plain
// diff's file as its header writes it gets the header-path hint, whose
// preferred quick fix names the file by its path; a comment made on the
// patch gets the path on either side.
func TestPlainDiffPathsOverLSP(t *testing.T) {
	text := `{
  "leanreview_review": 1,
  "patch": [
    "diff -ruN old/src/util.c new/src/util.c",
    "--- old/src/util.c\t2024-05-01 10:00:00.000000000 +0000",
    "+++ new/src/util.c\t2024-05-02 11:30:00.000000000 +0000",
    "@@ -1,3 +1,4 @@",
    " #include \"util.h\"",
    "+#include <string.h>",
    " ",
    " int add(int a, int b) { return a + b; }"
  ],
  "comments": [
    {
      "id": "c1",
      "path": "new/src/util.c",
      "side": "LEFT",
      "start_line": 3,
      "body": "Overflow.",
      "snippet": "int add(int a, int b) { return a + b; }"
    }
  ]
}
`
	s := caOpen(t, text)
	ds := s.diagnostics()
	if got := caCodes(ds); len(got) != 1 || got[0] != "header-path" {
		t.Fatalf("got diagnostics %v, want header-path alone", got)
	}
	if want := `"new/src/util.c" is how the diff's header writes "src/util.c": name the file by its path, "src/util.c"`; ds[0].Message != want {
		t.Errorf("got message %q, want %q", ds[0].Message, want)
	}
	fix := caFind(t, s.actions(s.at(`"new/src/util.c",`), nil, nil), `Change c1's path to "src/util.c"`)
	if !fix.IsPreferred {
		t.Errorf("got %q not preferred, want it preferred", fix.Title)
	}
	if ds := s.apply(fix); len(ds) != 0 || !strings.Contains(s.text, `"path": "src/util.c",`) {
		t.Errorf("after the fix: got diagnostics %v and\n%s\nwant none, c1 on src/util.c", caCodes(ds), s.text)
	}

	// A comment made on the old image's line is on the path too.
	add := caFind(t, s.actions(s.at(`" #include \"util.h\""`), nil, nil), "Comment on LEFT 1")
	if got := s.applied(add); strings.Count(got, `"path": "src/util.c",`) != 2 {
		t.Errorf("got\n%s\nwant the new comment on src/util.c", got)
	}
}
