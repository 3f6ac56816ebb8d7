package anchor

import (
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

func placeIndex(t *testing.T) *Index {
	t.Helper()
	lines, err := DiffLines([]byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,4 @@\n a := 1\n-b := 2\n+b := 3\n+c := b\n }\n@@ -20,2 +21,2 @@\n x := a\n-return b\n+return c\n"))
	if err != nil {
		t.Fatal(err)
	}
	doc := exchange.Parse([]byte(`{"patch": ` + renderPatch(exchange.Text{}, &exchange.Node{}, nil, lines) + `}`))
	return BuildIndex(&doc.Review.Patch)
}

func TestPlaceLines(t *testing.T) {
	f := placeIndex(t).Files[0]
	for _, tc := range []struct {
		side       Side
		start, end int
		want, err  string
	}{
		{Right, 2, 3, "RIGHT 2–3", ""},
		{Left, 2, 2, "LEFT 2", ""},
		{Right, 22, 22, "RIGHT 22", ""},
		{Right, 10, 10, "", `start_line: RIGHT 10 of "x.go" is not in the patch; the nearest lines in the patch are RIGHT 1–4 (its hunks hold RIGHT 1–4, RIGHT 21–22)`},
		{Right, 3, 21, "", "end_line: RIGHT 3–21 crosses hunks"},
		{Right, 3, 2, "", "end_line: 2 is before start_line 3"},
		{Left, 0, 0, "", "start_line: 0 is not a line number"},
	} {
		p, err := PlaceLines(f, tc.side, tc.start, tc.end)
		switch {
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("%s %d–%d: got %v, want error %q", tc.side, tc.start, tc.end, err, tc.err)
		case tc.err == "" && (err != nil || p.String() != tc.want):
			t.Errorf("%s %d–%d: got %v %v, want %s", tc.side, tc.start, tc.end, p, err, tc.want)
		}
	}
}

func TestFindSnippet(t *testing.T) {
	ix := placeIndex(t)
	f := ix.Files[0]
	for _, tc := range []struct {
		side    Side
		snippet string
		want    string
	}{
		{Right, "c := b", "RIGHT 3"},
		{Right, "+b := 3\n+c := b", "RIGHT 2–3"},
		{Left, "b := 2", "LEFT 2"},
		{Left, "b := 3", ""},
		{Right, "return", "RIGHT 22"},
		{Right, "b", "RIGHT 2, RIGHT 3"},
	} {
		ps, err := FindSnippet(ix.Patch, f, tc.side, tc.snippet)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.String())
		}
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("%s %q: got %v, want %s", tc.side, tc.snippet, got, tc.want)
		}
	}
	if _, err := FindSnippet(ix.Patch, f, Right, "}"); err == nil {
		t.Error(`"}": got no error, want too weak`)
	}
}
