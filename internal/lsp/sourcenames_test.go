package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/testreviews"
)

// TestSourceNamedAsTheClientNamesIt: a source file the client opened by
// a URI of its own spelling (here the dot of handler.go escaped, as
// clients escape what they like: VS Code writes file:///c%3A/… where
// Neovim writes file:///C:/…) gets its comments under that URI, in its
// version, not under one the server wrote from the path; what was
// published under the path's URI before the file was opened is cleared.
func TestSourceNamedAsTheClientNamesIt(t *testing.T) {
	s := newSrcSession(t, 0, "", nil)
	s.c.open("file:///elsewhere/other.review.json", `{"leanreview_review": 1, "patch": [], "comments": []}`)
	s.waitFor(s.source, "comments from the review on disk", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 2 })

	spelled := protocol.DocumentURI(strings.Replace(string(s.source), "handler.go", "handler%2Ego", 1))
	if spelled == s.source || fileOf(string(spelled)) != fileOf(string(s.source)) {
		t.Fatalf("%s and %s must name one file in two spellings", spelled, s.source)
	}
	s.openSource(spelled, testreviews.WorktreeSource(0, ""))
	// A publish from the file on disk that was under way when the buffer
	// came may be sent under the client's URI first: the buffer's, in its
	// version, follows.
	s.waitFor(spelled, "the comments under the client's URI, in the buffer's version 1", func(p publishedDiagnostics) bool {
		return len(p.Diagnostics) == 2 && p.Version == 1
	})
	s.waitFor(s.source, "the path's URI cleared", func(p publishedDiagnostics) bool { return len(p.Diagnostics) == 0 })
}
