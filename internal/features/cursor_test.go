package features

import (
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestActionsAnywhereOnAPatchLine: the line's indentation, the comma and
// the blanks after its element ask about that line too.
func TestActionsAnywhereOnAPatchLine(t *testing.T) {
	rep := analyze(exchange.Parse([]byte(actionReview)))
	line := `    "+var x = 2",`
	at := strings.Index(actionReview, line)
	for _, c := range []struct {
		what     string
		from, to int
		want     []string
	}{
		{"column 1", at, at, []string{"Comment on RIGHT 2"}},
		{"in the indentation", at + 2, at + 2, []string{"Comment on RIGHT 2"}},
		{"on the comma", at + len(line) - 1, at + len(line) - 1, []string{"Comment on RIGHT 2"}},
		{"at the end of the line", at + len(line), at + len(line), []string{"Comment on RIGHT 2"}},
		// A selection of whole lines ends at the next line's column 1,
		// which is not one of them.
		{"lines selected", at - len(`    "-var x = 1",`) - 1, at, []string{"Comment on LEFT 2"}},
	} {
		var got []string
		for _, a := range ActionsAt(rep, c.from, c.to, ActionOptions{Now: fixedNow}) {
			got = append(got, a.Title)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.what, got, c.want)
		}
	}
}

// TestBodyCursor: "Comment on" and "Reply to" say where the new empty
// body is once they are applied; other actions say nothing.
func TestBodyCursor(t *testing.T) {
	for _, src := range []string{actionReview, strings.ReplaceAll(actionReview, "\n", "\r\n")} {
		rep := analyze(exchange.Parse([]byte(src)))
		for _, at := range []string{`"+var x = 2"`, `"one"`} {
			start := strings.Index(src, at) + 1
			n := 0
			for _, a := range ActionsAt(rep, start, start, ActionOptions{Now: fixedNow}) {
				wants := strings.HasPrefix(a.Title, "Comment on") || strings.HasPrefix(a.Title, "Reply to")
				if a.Cursor == nil {
					if wants {
						t.Errorf("%s: no cursor", a.Title)
					}
					continue
				}
				if !wants {
					t.Errorf("%s: a cursor on an action that writes no body", a.Title)
				}
				n++
				after := applyChecked(t, src, a.Edits...)
				off, ok := BodyAt(exchange.Parse([]byte(after)), *a.Cursor)
				if !ok {
					t.Fatalf("%s: no body %+v in\n%s", a.Title, *a.Cursor, after)
				}
				if !strings.HasSuffix(after[:off], `"body": "`) || !strings.HasPrefix(after[off:], `"`) {
					t.Errorf("%s: the cursor is not inside the empty body: …%s|%s…", a.Title, after[max(0, off-20):off], after[off:off+10])
				}
			}
			if n == 0 {
				t.Errorf("at %s: no action with a cursor", at)
			}
		}
	}
}

func TestEmptyBody(t *testing.T) {
	for text, want := range map[string]bool{
		`{"body": ""}`:         true,
		"{\"body\" :\n  \"\"}": true,
		`{"body": "x"}`:        false,
		`{"bodyx": ""}`:        false,
	} {
		if got := emptyBody(text); got != want {
			t.Errorf("emptyBody(%q): got %v, want %v", text, got, want)
		}
	}
}

// TestBodyAtTyped: once the person typed, the cursor goes to the end of
// what they typed.
func TestBodyAtTyped(t *testing.T) {
	doc := exchange.Parse([]byte(actionReview))
	off, ok := BodyAt(doc, BodyCursor{Comment: "c1", Reply: -1})
	if !ok || actionReview[off-4:off+1] != `"one"` {
		t.Errorf("got %d, %v, want the end of \"one\"", off, ok)
	}
	if _, ok := BodyAt(doc, BodyCursor{Comment: "c1", Reply: 0}); ok {
		t.Errorf("c1 has no reply, yet one was found")
	}
}
