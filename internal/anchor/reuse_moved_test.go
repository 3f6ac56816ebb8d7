package anchor

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/internal/testreviews"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The reuse of a previous analysis when an edit before the patch moved it
// (reusable, moveComment): the report built on the previous one must be
// the report a fresh check gives, and the comments must really be reused.

// reuseReviews returns reviews to edit, by name: the repository's
// examples, editor fixtures and command testdata, one review around each
// diff of testdata/index with comments of every kind (anchorReview), and
// generated ones.
func reuseReviews(t *testing.T) map[string][]byte {
	t.Helper()
	out := testreviews.Golden(t)
	for name, patch := range ixTestdata(t) {
		out["testdata/index/"+name] = anchorReview(patch)
	}
	out["generated/drifted"] = reviewgen.Generate(reviewgen.Config{Files: 6, DiffLines: 1500, Comments: 150, DriftedFraction: 0.5, Seed: 21})
	out["generated/renamed"] = reviewgen.Generate(reviewgen.Config{Files: 71, DiffLines: 1500, Comments: 150, DriftedFraction: 0.3, Seed: 22})
	return out
}

// anchorReview wraps patch in a review, after a title and a summary, with
// comments that get every kind of anchoring diagnostic: per file, one on
// its first line of each side with its snippet, one drifted by two
// lines, one stale, one orphaned, one on a line the file does not show,
// one across its hunks, one by its path with a b/ prefix, one by its
// other name when renamed. Half of them are laid out on several lines
// without a state, so that their state fixes insert a member on a line
// of its own.
func anchorReview(patch []string) []byte {
	doc := exchange.Parse(reviewJSON(patch))
	ix := BuildIndex(&doc.Review.Patch)
	var cs []string
	add := func(path string, s Side, start, end int, snippet, state string) {
		fields := []string{
			`"id": "c` + strconv.Itoa(len(cs)+1) + `"`, `"path": ` + jsontext.Quote(path), `"side": "` + s.String() + `"`,
			`"start_line": ` + strconv.Itoa(start), `"end_line": ` + strconv.Itoa(end),
		}
		if snippet != "" {
			fields = append(fields, `"snippet": `+jsontext.Quote(snippet))
		}
		if state != "" {
			fields = append(fields, `"state": "`+state+`"`)
		}
		fields = append(fields, `"body": "b"`)
		sep := ", "
		if len(cs)%2 == 0 {
			sep = ",\n      "
			fields[0] = "\n      " + fields[0]
			fields[len(fields)-1] += "\n    "
		}
		cs = append(cs, "{"+strings.Join(fields, sep)+"}")
	}
	for _, f := range ix.Files {
		for _, s := range []Side{Left, Right} {
			var lines []ImageLine
			for h := range f.Hunks {
				lines = append(lines, imageLines(&f.Hunks[h], 0, len(f.Hunks[h].Lines)-1, s)...)
			}
			if len(lines) == 0 {
				add(f.Name(s)+"x", s, 1, 1, "", "")
				continue
			}
			l, last := lines[0], lines[len(lines)-1]
			n, text := l.Number(s), strings.TrimSpace(f.Content(ix.Patch, l.Patch))
			add(f.Name(s), s, n, n, text, "")
			add(f.Name(s), s, n+2, n+2, text, "")
			add(f.Name(s), s, n, n, text+"x", "stale")
			add(f.Name(s), s, n, n, "", "orphaned")
			add(f.Name(s), s, last.Number(s)+50, last.Number(s)+50, text, "")
			add(f.Name(s), s, n, last.Number(s), "", "active")
			add("b/"+f.Name(s), s, n, n, text, "")
			if f.Status == Renamed {
				add(f.Name(s.other()), s, n, n, text, "")
			}
		}
	}
	src := string(reviewJSON(patch, cs...))
	return []byte(strings.Replace(src, `"leanreview_review": 1,`, `"leanreview_review": 1,`+"\n  \"title\": \"t\",\n  \"summary\": \"a summary\",", 1))
}

// beforePatchEdit returns src after one random edit before its patch
// member, and says which: a character typed or deleted in a string
// member, a member added on lines of its own or deleted, blank lines, the
// first line ending turned into CRLF or back, any byte.
func beforePatchEdit(r *rand.Rand, src []byte) ([]byte, string) {
	doc := exchange.Parse(src)
	p := doc.Review.Patch.Node
	if doc.Root == nil || doc.Root.Kind != exchange.KindObject || p == nil {
		return nil, ""
	}
	end := p.KeyStart()
	var strs, members []*exchange.Node
	for _, m := range doc.Root.Members() {
		if m.End <= end {
			members = append(members, m)
			if m.Kind == exchange.KindString && m.End-m.Start >= 2 {
				strs = append(strs, m)
			}
		}
	}
	splice := func(start, stop int, text string) []byte {
		return slices.Concat(src[:start], []byte(text), src[stop:])
	}
	switch k := r.IntN(8); {
	case k == 0 && len(strs) > 0:
		s := strs[r.IntN(len(strs))]
		at := s.Start + 1 + r.IntN(s.End-s.Start-1)
		return splice(at, at, strings.Repeat("é", 1+r.IntN(3))), "type in " + s.Name
	case k == 1 && len(strs) > 0:
		s := strs[r.IntN(len(strs))]
		if s.End-s.Start < 3 {
			return nil, ""
		}
		at := s.Start + 1 + r.IntN(s.End-s.Start-2)
		return splice(at, at+1, ""), "delete in " + s.Name
	case k == 2:
		return splice(doc.Root.Start+1, doc.Root.Start+1, "\n  \"x-note\": \"added\\nline\",\n  \"x-more\": [1,\n 2],"), "add members"
	case k == 3 && len(members) > 0:
		i := r.IntN(len(members))
		stop := end
		if i+1 < len(members) {
			stop = members[i+1].KeyStart()
		}
		return splice(members[i].KeyStart(), stop, ""), "delete " + members[i].Name
	case k == 4:
		return splice(end, end, strings.Repeat("\n", 1+r.IntN(3))+"  "), "blank lines"
	case k == 5:
		nl := bytes.IndexByte(src, '\n')
		switch {
		case nl < 0 || nl >= end:
			return nil, ""
		case nl > 0 && src[nl-1] == '\r':
			return splice(nl-1, nl, ""), "first line ending LF"
		}
		return splice(nl, nl, "\r"), "first line ending CRLF"
	case k == 6 && end > 1:
		at := 1 + r.IntN(end-1)
		return splice(at, at, string(rune(' '+r.IntN(95)))), "any byte"
	case k == 7:
		return splice(end, end, `"title": "moved`+strings.Repeat("!", r.IntN(30))+`", `), "add a title"
	}
	return nil, ""
}

// TestReuseAfterEditBeforePatch edits the reviews before their patch, a
// dozen times each in a row, each version checked on the report of the
// one before, and compares every report with a fresh check of the same
// text: resolutions and diagnostics (ranges, related information, fixes)
// must be the same.
func TestReuseAfterEditBeforePatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	moved := 0
	reviews := reuseReviews(t)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range reviews {
			if !yield(n) {
				return
			}
		}
	})
	for _, name := range names {
		src := reviews[name]
		prev := CheckDocument(exchange.Parse(src), nil)
		for step := 0; step < 12; step++ {
			next, what := beforePatchEdit(r, src)
			if next == nil {
				continue
			}
			doc := parseAfter(next, prev.Doc)
			if delta, carried := patchCarried(doc, prev.Doc); carried && delta != 0 {
				moved++
			}
			got := CheckDocument(doc, prev)
			want := CheckDocument(exchange.Parse(next), nil)
			if err := sameReports(got, want); err != nil {
				t.Fatalf("%s, step %d (%s): the report built on the previous one differs from a fresh check: %v", name, step, what, err)
			}
			src, prev = next, got
		}
	}
	if moved < 200 {
		t.Errorf("the patch was carried over moved %d times, want at least 200: the edits do not test the reuse", moved)
	}
}

// sameReports compares what two reports of the same text say: their
// diagnostics, each comment's diagnostics and resolution.
func sameReports(got, want *Analysis) error {
	if err := sameDiagnostics(got.Diagnostics, want.Diagnostics); err != nil {
		return err
	}
	g, w := got.Anchors, want.Anchors
	if len(g.Resolutions) != len(w.Resolutions) {
		return fmt.Errorf("%d resolutions, want %d", len(g.Resolutions), len(w.Resolutions))
	}
	for i := range w.Resolutions {
		if err := sameDiagnostics(g.byComment[i], w.byComment[i]); err != nil {
			return fmt.Errorf("comment %d: %v", i, err)
		}
		if gr, wr := resolutionShape(g, i), resolutionShape(w, i); !reflect.DeepEqual(gr, wr) {
			return fmt.Errorf("comment %d: resolution %+v, want %+v", i, gr, wr)
		}
	}
	return nil
}

func sameDiagnostics(got, want []exchange.Diagnostic) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d diagnostics, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			return fmt.Errorf("diagnostic %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	return nil
}

// resolutionShape is comment i's resolution with its pointers made
// comparable between two analyses: the comment by its place, the file by
// its index.
func resolutionShape(a *Anchoring, i int) any {
	r := *a.Resolutions[i]
	c, f := r.Comment, slices.Index(a.Index.Files, r.File)
	r.Comment, r.File = nil, nil
	return struct {
		Resolution
		Comment exchange.Range
		File    int
	}{r, exchange.NodeRange(c.Node), f}
}

// TestEditBeforePatchReusesComments types in the summary of a generated
// review: the patch moves, spelt alike, and no comment is resolved
// again. A reused resolution shares its candidates with the previous
// one; a resolved one searches them anew.
func TestEditBeforePatchReusesComments(t *testing.T) {
	src := withRenamedComment(t, reviewgen.Generate(reviewgen.Config{Files: 70, DiffLines: 3000, Comments: 300, DriftedFraction: 0.5, Seed: 9}))
	prev := CheckDocument(exchange.Parse(src), nil)
	at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
	next := slices.Concat(src[:at], []byte("typed"), src[at:])
	doc := parseAfter(next, prev.Doc)
	if delta, carried := patchCarried(doc, prev.Doc); !carried || delta != 5 {
		t.Fatalf("patch carried over %v, moved by %d; want carried over, moved by 5", carried, delta)
	}
	got := CheckDocument(doc, prev)
	searched, hinted := 0, 0
	for i, r := range got.Anchors.Resolutions {
		old := prev.Anchors.Resolutions[i]
		if len(old.Candidates) > 0 {
			searched++
			if &r.Candidates[0] != &old.Candidates[0] {
				t.Fatalf("comment %d: resolved again, want its resolution reused", i)
			}
		}
		if old.Hint != nil {
			hinted++
			if want := (exchange.Range{Start: old.Hint.Range.Start + 5, End: old.Hint.Range.End + 5}); r.Hint.Range != want {
				t.Errorf("comment %d: hint at %v, want %v", i, r.Hint.Range, want)
			}
		}
	}
	if searched < 50 || hinted == 0 {
		t.Fatalf("%d comments with candidates and %d renamed, want at least 50 and 1: the review tests too little", searched, hinted)
	}
	if err := sameReports(got, CheckDocument(exchange.Parse(next), nil)); err != nil {
		t.Fatal(err)
	}
}

// withRenamedComment adds to a generated review a comment that names a
// renamed file by its old name on its RIGHT side: its resolution has a
// Hint.
func withRenamedComment(t *testing.T, src []byte) []byte {
	t.Helper()
	doc := exchange.Parse(src)
	for _, f := range BuildIndex(&doc.Review.Patch).Files {
		if f.Status != Renamed || len(f.Hunks) == 0 {
			continue
		}
		l := imageLines(&f.Hunks[0], 0, len(f.Hunks[0].Lines)-1, Right)[0]
		c := fmt.Sprintf(`{"path": %q, "side": "RIGHT", "start_line": %d, "body": "b"}, `, f.OldName, l.New)
		at := bytes.Index(src, []byte(`"comments": [`)) + len(`"comments": [`)
		return slices.Concat(src[:at], []byte(c), src[at:])
	}
	t.Fatal("no renamed file in the generated review")
	return nil
}

// TestFirstLineEndingIsNotReused turns the first line of a review into a
// CRLF line, before the patch: the state fixes that insert a member on a
// line of its own now use CRLF, so no comment that has one is reused.
func TestFirstLineEndingIsNotReused(t *testing.T) {
	src := anchorReview(ixTestdata(t)["plain-multi.diff"])
	prev := CheckDocument(exchange.Parse(src), nil)
	nl := bytes.IndexByte(src, '\n')
	next := slices.Concat(src[:nl], []byte("\r"), src[nl:])
	got := CheckDocument(parseAfter(next, prev.Doc), prev)
	want := CheckDocument(exchange.Parse(next), nil)
	crlf := 0
	for _, d := range want.Diagnostics {
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				if strings.Contains(e.NewText, "\r\n") {
					crlf++
				}
			}
		}
	}
	if crlf == 0 {
		t.Fatal("no fix inserts a CRLF line: the review tests nothing")
	}
	if err := sameReports(got, want); err != nil {
		t.Fatal(err)
	}
}

// TestRangeElsewhereIsResolvedAgain gives a comment of the previous
// analysis a diagnostic pointing neither into it nor into the patch
// (none does today): where an edit before the patch moved that place is
// not known, so the comment is resolved again rather than reused.
func TestRangeElsewhereIsResolvedAgain(t *testing.T) {
	src := anchorReview(ixTestdata(t)["plain-multi.diff"])
	prev := CheckDocument(exchange.Parse(src), nil)
	i := slices.IndexFunc(prev.Anchors.byComment, func(ds []exchange.Diagnostic) bool { return len(ds) > 0 })
	if i < 0 {
		t.Fatal("no comment has a diagnostic")
	}
	prev.Anchors.byComment[i] = append(slices.Clip(prev.Anchors.byComment[i]), exchange.Diagnostic{Range: exchange.Range{Start: 0, End: 1}, Code: "elsewhere"})
	at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
	next := slices.Concat(src[:at], []byte("typed"), src[at:])
	got := CheckDocument(parseAfter(next, prev.Doc), prev)
	if err := sameReports(got, CheckDocument(exchange.Parse(next), nil)); err != nil {
		t.Fatalf("comment %d: %v", i, err)
	}
}

// TestPatchWithoutFilesIsReused types before a patch that holds no file
// diff: its index, moved, shares its texts (it has no file diff to
// share), and the comments are reused: their messages are the very
// strings of the previous analysis, not spelt again.
func TestPatchWithoutFilesIsReused(t *testing.T) {
	src := reviewJSON([]string{"not a diff"}, cm(`"path": "a.go", "side": "RIGHT", "start_line": 1`), cm(`"path": "b.go", "side": "LEFT", "start_line": 2`))
	src = bytes.Replace(src, []byte(`"leanreview_review": 1,`), []byte(`"leanreview_review": 1, "summary": "s",`), 1)
	prev := CheckDocument(exchange.Parse(src), nil)
	at := bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
	next := slices.Concat(src[:at], []byte("typed"), src[at:])
	got := CheckDocument(parseAfter(next, prev.Doc), prev)
	if err := sameReports(got, CheckDocument(exchange.Parse(next), nil)); err != nil {
		t.Fatal(err)
	}
	for i, ds := range prev.Anchors.byComment {
		if len(ds) == 0 {
			t.Fatalf("comment %d: no diagnostic", i)
		}
		if g := got.Anchors.byComment[i][0].Message; unsafe.StringData(g) != unsafe.StringData(ds[0].Message) {
			t.Errorf("comment %d: resolved again, want it reused", i)
		}
	}
}
