package anchor

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestRebaseDocument drives the rebase the CLI and the agent share: the
// text it returns, the moves it reports (only the news) in words, and
// which input its errors blame.
func TestRebaseDocument(t *testing.T) {
	src := rebaseBuildDoc(SplitDiffFile([]byte(rebaseCalcOld)),
		rebaseComment{id: "a", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "result, err := calculate(in)"},
		rebaseComment{id: "gone", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "no such line anywhere"},
		rebaseComment{id: "stays", path: "pkg/calc.go", side: "LEFT", start: 13, snippet: "result := calculate(in)"})
	rb, err := RebaseDocument(exchange.Parse([]byte(src)), []byte(rebaseCalcInserted))
	if err != nil {
		t.Fatalf("RebaseDocument: %v", err)
	}
	var done []string
	for _, m := range rb.Moves {
		done = append(done, m.Done())
	}
	got := strings.Join(done, "\n")
	for _, want := range []string{"moved a from RIGHT 13 to RIGHT ", "marked gone orphaned: "} {
		if !strings.Contains(got, want) {
			t.Errorf("got moves\n%s\nwant one starting %q", got, want)
		}
	}
	if strings.Contains(got, "stays") {
		t.Errorf("got moves\n%s\nwant the comment that stays left out", got)
	}
	if after := exchange.Parse(rb.Src); len(after.Syntax) > 0 || after.Review.Patch.LineCount() != len(cleanLines(SplitDiffFile([]byte(rebaseCalcInserted)))) {
		t.Errorf("got a rebased document with %d syntax errors and %d patch lines", len(after.Syntax), after.Review.Patch.LineCount())
	}

	placed := rebaseBuildDoc(SplitDiffFile([]byte(rebaseCalcOld)),
		rebaseComment{id: "a", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "result, err := calculate(in)"})
	same, err := RebaseDocument(exchange.Parse([]byte(placed)), []byte(rebaseCalcOld))
	if err != nil || !bytes.Equal(same.Src, []byte(placed)) || len(same.Moves) != 0 {
		t.Errorf("rebased onto its own patch: got error %v and a changed text, want the text as it was", err)
	}

	_, err = RebaseDocument(exchange.Parse([]byte(src)), []byte("this is not a diff\n"))
	if de := (*DiffError)(nil); !errors.As(err, &de) || !strings.Contains(err.Error(), "line 1 is not a unified diff line") {
		t.Errorf("not a diff: got %v, want a DiffError naming line 1", err)
	}
	_, err = RebaseDocument(exchange.Parse([]byte(`{"patch": [}`)), []byte(rebaseCalcOld))
	if de := (*DiffError)(nil); errors.As(err, &de) || err == nil || !strings.Contains(err.Error(), "cannot rebase: syntax error at line 1, column 12") {
		t.Errorf("broken document: got %v, want the document's first syntax error, not the diff's", err)
	}
}
