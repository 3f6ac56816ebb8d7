package features

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// TestCompletionCommaNeverMeetsTheMainEdit: the comma an item needs goes
// in its own text when it belongs where the replaced range starts, and
// stays an extra edit elsewhere; either way the extra edits neither
// overlap the main edit nor touch its ends, so the document reads the same
// whatever order a client applies them in.
func TestCompletionCommaNeverMeetsTheMainEdit(t *testing.T) {
	for _, tc := range []struct {
		name, src, item string
		want            string // in the document once the item is accepted
		extra           int    // extra edits the item keeps
	}{
		{"a new comment right after the last one", cpDoc(`{"id": "c1", "path": "a", "side": "LEFT", "start_line": 1, "body": "b"}`+cpCursor, false), "new comment",
			`"body": "b"},{`, 0},
		{"a new comment a space after the last one", cpDoc(`{"id": "c1", "path": "a", "side": "LEFT", "start_line": 1, "body": "b"} `+cpCursor, false), "new comment",
			`"body": "b"}, {`, 1},
		{"a member name typed right after a value", cpDoc(`{"id": "c1", "side": "LEFT""bo`+cpCursor+`}`, false), "body",
			`"side": "LEFT","body": `, 0},
		{"a member on the next line", cpDoc("{\"id\": \"c1\", \"side\": \"LEFT\"\n      "+cpCursor+"}", false), "body",
			"\"side\": \"LEFT\",\n      \"body\": ", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, c := cpComplete(t, tc.src)
			it, ok := cpItem(c, tc.item)
			if !ok {
				t.Fatalf("no item %q among %q", tc.item, cpLabels(c))
			}
			if len(it.Extra) != tc.extra {
				t.Errorf("got %d extra edits %+v, want %d", len(it.Extra), it.Extra, tc.extra)
			}
			main := exchange.Edit{Start: c.Range.Start, End: c.Range.End, NewText: it.Text}
			for _, e := range it.Extra {
				if e.Start <= main.End && main.Start <= e.End {
					t.Errorf("extra edit %+v meets the main edit %+v", e, main)
				}
			}
			first := applyAll(src, append([]exchange.Edit{main}, it.Extra...))
			last := applyAll(src, append(append([]exchange.Edit{}, it.Extra...), main))
			if first != last {
				t.Errorf("the order of application matters:\n%s\nversus\n%s", first, last)
			}
			if !strings.Contains(first, tc.want) {
				t.Errorf("accepted, the document reads\n%s\nwant it to hold %q", first, tc.want)
			}
		})
	}
}

// applyAll applies edits one after another, as a client that applies
// them in list order does: each one's offsets are moved by those before.
func applyAll(src string, edits []exchange.Edit) string {
	type applied struct{ at, delta int }
	var done []applied
	for _, e := range edits {
		start, end := e.Start, e.End
		for _, d := range done {
			if d.at <= e.Start {
				start += d.delta
				end += d.delta
			}
		}
		src = src[:start] + e.NewText + src[end:]
		done = append(done, applied{at: e.Start, delta: len(e.NewText) - (e.End - e.Start)})
	}
	return src
}
