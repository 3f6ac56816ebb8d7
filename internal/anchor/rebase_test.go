package anchor

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"

	"github.com/leanreview/lreview-lsp/internal/jsontext"
)

// The old patch most cases rebase from. RIGHT: 10 ctx, 11 defer, 12 log,
// 13 result, 14 _ = err, 15 metrics, 16 audit, 17 return. LEFT: 10 ctx,
// 11 defer, 12 log, 13 result :=, 14 metrics, 15 audit, 16 return.
const rebaseCalcOld = `diff --git a/pkg/calc.go b/pkg/calc.go
index 1111111..2222222 100644
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -10,7 +10,8 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
 	defer cancel(ctx)
 	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(in)
+	_ = err
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// Two lines inserted above the commented ones.
const rebaseCalcInserted = `diff --git a/pkg/calc.go b/pkg/calc.go
index 1111111..3333333 100644
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -10,7 +10,10 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
+	start := time.Now()
+	defer observe(start)
 	defer cancel(ctx)
 	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(in)
+	_ = err
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// The log line removed above the commented ones.
const rebaseCalcRemoved = `diff --git a/pkg/calc.go b/pkg/calc.go
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -10,7 +10,7 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
 	defer cancel(ctx)
-	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(in)
+	_ = err
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// The commented line edited slightly, one line inserted above.
const rebaseCalcEdited = `diff --git a/pkg/calc.go b/pkg/calc.go
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -10,7 +10,9 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
+	ctx = withTrace(ctx)
 	defer cancel(ctx)
 	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(ctx, in)
+	_ = err
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// The commented line edited slightly, and everything around it too.
const rebaseCalcRewritten = `diff --git a/pkg/calc.go b/pkg/calc.go
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -10,7 +10,7 @@ func Calc(in Input) (Output, error) {
-	ctx := context.Background()
-	defer cancel(ctx)
-	log.Printf("calc %v", in)
-	result := calculate(in)
+	trace.Start("calc")
+	result, err := calculate(ctx, in)
+	check(err)
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// The same change on a base with three more lines above (a rebase onto a
// newer upstream): both images move down by 3.
const rebaseCalcShifted = `diff --git a/pkg/calc.go b/pkg/calc.go
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -13,7 +13,8 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
 	defer cancel(ctx)
 	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(in)
+	_ = err
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// The file renamed, with the same change.
const rebaseCalcRenamed = `diff --git a/pkg/calc.go b/pkg/compute.go
similarity index 90%
rename from pkg/calc.go
rename to pkg/compute.go
--- a/pkg/calc.go
+++ b/pkg/compute.go
@@ -10,7 +10,9 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
+	ctx = withTrace(ctx)
 	defer cancel(ctx)
 	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(in)
+	_ = err
 	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// The metrics line (a context line before) now removed: only in LEFT.
const rebaseCalcMetricsGone = `diff --git a/pkg/calc.go b/pkg/calc.go
--- a/pkg/calc.go
+++ b/pkg/calc.go
@@ -10,7 +10,7 @@ func Calc(in Input) (Output, error) {
 	ctx := context.Background()
 	defer cancel(ctx)
 	log.Printf("calc %v", in)
-	result := calculate(in)
+	result, err := calculate(in)
+	_ = err
-	metrics.Inc("calc")
 	audit(ctx, in)
 	return result, nil
`

// Another file only: pkg/calc.go is gone from the new patch.
const rebaseOtherFile = `diff --git a/pkg/other.go b/pkg/other.go
--- a/pkg/other.go
+++ b/pkg/other.go
@@ -1,3 +1,4 @@
 package other
 
+// Doc.
 func Other() {}
`

// Two identical statements whose surroundings differ. RIGHT: 1 func A,
// 2 a, 3 if, 4 return use(a), 5 }, 6 blank, 7 func B, 8 b, 9 if, 10 return
// use(b), 11 }.
const rebaseDupOld = `diff --git a/pkg/dup.go b/pkg/dup.go
--- a/pkg/dup.go
+++ b/pkg/dup.go
@@ -1,11 +1,11 @@
 func A() error {
 	a, err := loadA()
-	if err != nil { return nil }
+	if err != nil { return err }
 	return use(a)
 }
 
 func B() error {
 	b, err := loadB()
-	if err != nil { return nil }
+	if err != nil { return err }
 	return use(b)
 }
`

// A doc comment above each function: B's statement is now RIGHT 11.
const rebaseDupNew = `diff --git a/pkg/dup.go b/pkg/dup.go
--- a/pkg/dup.go
+++ b/pkg/dup.go
@@ -1,11 +1,13 @@
+// A loads a.
 func A() error {
 	a, err := loadA()
-	if err != nil { return nil }
+	if err != nil { return err }
 	return use(a)
 }
 
+// B loads b.
 func B() error {
 	b, err := loadB()
-	if err != nil { return nil }
+	if err != nil { return err }
 	return use(b)
 }
`

// One added line whose context disappears in the new patch, where the
// same line is added twice: nothing tells the two places apart.
const rebaseTwiceOld = `diff --git a/pkg/twice.go b/pkg/twice.go
--- a/pkg/twice.go
+++ b/pkg/twice.go
@@ -20,4 +20,5 @@ func Run() {
 	first()
 	second()
+	mu.Lock()
 	third()
 	fourth()
`

const rebaseTwiceNew = `diff --git a/pkg/twice.go b/pkg/twice.go
--- a/pkg/twice.go
+++ b/pkg/twice.go
@@ -20,4 +20,6 @@ func Run() {
 	alpha()
+	mu.Lock()
 	beta()
 	gamma()
+	mu.Lock()
 	delta()
`

// rebaseTwiceTie has the line twice, as near to where the old one maps.
const rebaseTwiceTie = `diff --git a/pkg/twice.go b/pkg/twice.go
--- a/pkg/twice.go
+++ b/pkg/twice.go
@@ -20,5 +20,7 @@ func Run() {
 	alpha()
+	mu.Lock()
 	beta()
 	gamma()
 	delta()
+	mu.Lock()
 	epsilon()
`

// A closing brace: a snippet too weak alone, but its context is known.
const rebaseBraceOld = `diff --git a/pkg/brace.go b/pkg/brace.go
--- a/pkg/brace.go
+++ b/pkg/brace.go
@@ -1,6 +1,7 @@
 func F() {
 	if ok {
 		run()
+		done()
 	}
 }
 
`

const rebaseBraceNew = `diff --git a/pkg/brace.go b/pkg/brace.go
--- a/pkg/brace.go
+++ b/pkg/brace.go
@@ -1,6 +1,9 @@
+// F runs.
 func F() {
+	prepare()
 	if ok {
 		run()
+		done()
 	}
 }
 
`

// Nine identical lines: only the hunk offsets tell which one a comment
// was on. Two lines are added above them in the new patch.
const rebaseRepeatOld = `diff --git a/pkg/rep.go b/pkg/rep.go
--- a/pkg/rep.go
+++ b/pkg/rep.go
@@ -1,9 +1,10 @@
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
+	done()
`

const rebaseRepeatNew = `diff --git a/pkg/rep.go b/pkg/rep.go
--- a/pkg/rep.go
+++ b/pkg/rep.go
@@ -1,9 +1,12 @@
+	begin()
+	ready()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
 	step()
+	done()
`

// A single closing brace, at RIGHT 3.
const rebaseOneBrace = `diff --git a/pkg/w.go b/pkg/w.go
--- a/pkg/w.go
+++ b/pkg/w.go
@@ -1,2 +1,3 @@
 func W() {
+	w()
 }
`

// rebaseComment is a comment of a test document. Each one carries an unknown
// member, which must survive.
type rebaseComment struct {
	id, path, side string
	start, end     int
	snippet, state string
}

func (c rebaseComment) json(indent string) string {
	in := indent + "  "
	var b strings.Builder
	b.WriteString("{\n")
	fmt.Fprintf(&b, "%s\"id\": %q,\n%s\"author\": \"assistant\",\n", in, c.id, in)
	fmt.Fprintf(&b, "%s\"path\": %q,\n%s\"side\": %q,\n%s\"start_line\": %d,\n", in, c.path, in, c.side, in, c.start)
	if c.end != 0 {
		fmt.Fprintf(&b, "%s\"end_line\": %d,\n", in, c.end)
	}
	fmt.Fprintf(&b, "%s\"body\": %q,\n", in, "body of "+c.id)
	if c.state != "" {
		fmt.Fprintf(&b, "%s\"state\": %q,\n", in, c.state)
	}
	if c.snippet != "" {
		fmt.Fprintf(&b, "%s\"snippet\": %s,\n", in, jsontext.Quote(c.snippet))
	}
	fmt.Fprintf(&b, "%s\"x-keep\": {\"n\": [1, 2]}\n%s}", in, indent)
	return b.String()
}

func rebaseBuildDoc(patch []string, comments ...rebaseComment) string {
	var b strings.Builder
	b.WriteString("{\n  \"leanreview_review\": 1,\n  \"title\": \"t\",\n  \"patch\": [\n")
	for i, l := range patch {
		b.WriteString("    " + jsontext.Quote(l))
		if i < len(patch)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ],\n  \"comments\": [")
	for i, c := range comments {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    " + c.json("    "))
	}
	b.WriteString("\n  ],\n  \"x-top\": true\n}\n")
	return b.String()
}

// rebaseWant is what a case expects of its comment.
type rebaseWant struct {
	side       string
	start, end int
	state      string // the stored value; "" when the member is absent
	path       string // the stored path afterwards; "" when it must not change
	orphaned   bool
	unchanged  bool
	why        string // a part of Move.Why
}

// rebaseCheckDoc applies edits to src and checks the result: it parses, holds
// every comment with its id, body and unknown member, and, when patch is
// not nil, the patch is exactly patch.
func rebaseCheckDoc(t *testing.T, src string, edits []exchange.Edit, patch []string) *exchange.Document {
	t.Helper()
	out, err := exchange.ApplyEdits([]byte(src), edits)
	if err != nil {
		t.Fatalf("ApplyEdits: %v", err)
	}
	before, after := exchange.Parse([]byte(src)), exchange.Parse(out)
	if len(after.Syntax) > 0 {
		t.Fatalf("result has syntax errors %v:\n%s", after.Syntax, out)
	}
	if got, want := len(after.Review.Comments), len(before.Review.Comments); got != want {
		t.Fatalf("got %d comments, want %d:\n%s", got, want, out)
	}
	for i, c := range after.Review.Comments {
		b := before.Review.Comments[i]
		if c.ID != b.ID || c.Body != b.Body || c.Author != b.Author || c.Snippet != b.Snippet {
			t.Errorf("comment %d: got id/body/author/snippet %q/%q/%q/%q, want %q/%q/%q/%q",
				i, c.ID, c.Body, c.Author, c.Snippet, b.ID, b.Body, b.Author, b.Snippet)
		}
		if got, want := rebaseText(after.Text.Bytes(), c.Member("x-keep")), rebaseText(before.Text.Bytes(), b.Member("x-keep")); got != want {
			t.Errorf("comment %s: got x-keep %s, want %s", c.ID, got, want)
		}
	}
	if got := rebaseText(after.Text.Bytes(), after.Root.Member("x-top")); got != "true" {
		t.Errorf("got x-top %s, want true", got)
	}
	if patch != nil {
		if after.Review.Patch.Form != exchange.PatchArray {
			t.Errorf("got patch form %d, want the array form", after.Review.Patch.Form)
		}
		var got []string
		for i := range after.Review.Patch.LineCount() {
			got = append(got, after.Review.Patch.LineText(i))
		}
		if !reflect.DeepEqual(got, patch) {
			t.Errorf("got patch\n%q\nwant\n%q", got, patch)
		}
	}
	return after
}

func rebaseText(src []byte, n *exchange.Node) string {
	if n == nil {
		return "<absent>"
	}
	return string(src[n.Start:n.End])
}

// rebaseCheckComment compares comment i of the rewritten document with w;
// oldPath is the comment's path before.
func rebaseCheckComment(t *testing.T, doc *exchange.Document, i int, oldPath string, w rebaseWant) {
	t.Helper()
	c := doc.Review.Comments[i]
	if want := cmp.Or(w.path, oldPath); c.Path != want {
		t.Errorf("comment %s: got path %q, want %q", c.ID, c.Path, want)
	}
	if c.Side != w.side || c.StartLine != w.start || c.EndLine != w.end || c.State != w.state {
		t.Errorf("comment %s: got %s %d–%d state %q, want %s %d–%d state %q", c.ID, c.Side, c.StartLine, c.EndLine, c.State, w.side, w.start, w.end, w.state)
	}
}

func rebaseCheckMove(t *testing.T, m Move, w rebaseWant) {
	t.Helper()
	if m.Orphaned != w.orphaned || m.Unchanged != w.unchanged {
		t.Errorf("got orphaned=%v unchanged=%v, want orphaned=%v unchanged=%v (why %q)", m.Orphaned, m.Unchanged, w.orphaned, w.unchanged, m.Why)
	}
	if !w.orphaned && (!strings.EqualFold(m.ToSide.String(), w.side) || m.ToStart != w.start || m.ToEnd != w.end) {
		t.Errorf("got move to %s %d–%d, want %s %d–%d (why %q)", m.ToSide, m.ToStart, m.ToEnd, w.side, w.start, w.end, m.Why)
	}
	if !strings.Contains(m.Why, w.why) {
		t.Errorf("got why %q, want it to contain %q", m.Why, w.why)
	}
	if want := cmp.Or(w.path, m.Comment.Path); m.FromPath != m.Comment.Path || m.ToPath != want {
		t.Errorf("got move from path %q to %q, want from %q to %q", m.FromPath, m.ToPath, m.Comment.Path, want)
	}
}

func TestRebase(t *testing.T) {
	result := rebaseComment{id: "c1", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "result, err := calculate(in)"}
	with := func(c rebaseComment, f func(*rebaseComment)) rebaseComment { f(&c); return c }
	tests := []struct {
		name     string
		old, new string
		c        rebaseComment
		want     rebaseWant
	}{
		{"lines inserted above", rebaseCalcOld, rebaseCalcInserted, result,
			rebaseWant{side: "RIGHT", start: 15, end: 15, why: "snippet found 2 lines lower"}},
		{"line removed above", rebaseCalcOld, rebaseCalcRemoved, result,
			rebaseWant{side: "RIGHT", start: 12, end: 12, why: "snippet found 1 line higher"}},
		{"same patch", rebaseCalcOld, rebaseCalcOld, result,
			rebaseWant{side: "RIGHT", start: 13, end: 13, unchanged: true, why: "found at the same place"}},
		{"snippet with its diff marker", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.snippet = "+\tresult, err := calculate(in)" }),
			rebaseWant{side: "RIGHT", start: 15, end: 15, why: "snippet found 2 lines lower"}},
		{"snippet is a part of the line", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.snippet = "calculate(in)" }),
			rebaseWant{side: "RIGHT", start: 15, end: 15, why: "snippet found 2 lines lower"}},
		{"commented line changed slightly: context decides", rebaseCalcOld, rebaseCalcEdited, result,
			rebaseWant{side: "RIGHT", start: 14, end: 14, why: "its context (the line changed) found 1 line lower"}},
		{"commented line and its context changed: orphaned", rebaseCalcOld, rebaseCalcRewritten, result,
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "orphaned", orphaned: true, why: `not found: snippet is not in "pkg/calc.go"`}},
		{"file renamed", rebaseCalcOld, rebaseCalcRenamed, result,
			rebaseWant{side: "RIGHT", start: 14, end: 14, path: "pkg/compute.go", why: `snippet found 1 line lower in renamed file "pkg/compute.go"`}},
		{"file renamed, LEFT comment keeps the old name", rebaseCalcOld, rebaseCalcRenamed,
			rebaseComment{id: "l3", path: "pkg/calc.go", side: "LEFT", start: 13, snippet: "result := calculate(in)"},
			rebaseWant{side: "LEFT", start: 13, end: 13, unchanged: true, why: "found at the same place"}},
		{"file gone", rebaseCalcOld, rebaseOtherFile, with(result, func(c *rebaseComment) { c.state = "active" }),
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "orphaned", orphaned: true, why: `"pkg/calc.go" is not in the new patch`}},
		{"two identical places: context decides", rebaseDupOld, rebaseDupNew,
			rebaseComment{id: "d1", path: "pkg/dup.go", side: "RIGHT", start: 9, snippet: "if err != nil { return err }"},
			rebaseWant{side: "RIGHT", start: 11, end: 11, why: "snippet found 2 lines lower"}},
		{"two identical places: the nearest to the mapped line wins", rebaseTwiceOld, rebaseTwiceNew,
			rebaseComment{id: "t1", path: "pkg/twice.go", side: "RIGHT", start: 22, snippet: "mu.Lock()"},
			rebaseWant{side: "RIGHT", start: 24, end: 24, why: "snippet found 2 lines lower"}},
		{"two identical places as near: a tie, orphaned", rebaseTwiceOld, rebaseTwiceTie,
			rebaseComment{id: "t1", path: "pkg/twice.go", side: "RIGHT", start: 22, snippet: "mu.Lock()"},
			rebaseWant{side: "RIGHT", start: 23, end: 23, state: "orphaned", orphaned: true, why: "2 equally good places: RIGHT 21, RIGHT 25; kept where RIGHT 22 lands in the new patch, RIGHT 23"}},
		{"multi-line range moves as a block", rebaseCalcOld, rebaseCalcInserted,
			with(result, func(c *rebaseComment) { c.end = 14; c.snippet = "result, err := calculate(in)\n_ = err" }),
			rebaseWant{side: "RIGHT", start: 15, end: 16, why: "snippet found 2 lines lower"}},
		{"multi-line range quoting its first line", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.end = 15 }),
			rebaseWant{side: "RIGHT", start: 15, end: 17, why: "snippet found 2 lines lower"}},
		{"LEFT comment on a shifted base", rebaseCalcOld, rebaseCalcShifted,
			rebaseComment{id: "l1", path: "pkg/calc.go", side: "LEFT", start: 13, snippet: "result := calculate(in)"},
			rebaseWant{side: "LEFT", start: 16, end: 16, why: "snippet found 3 lines lower"}},
		{"LEFT comment, RIGHT lines inserted", rebaseCalcOld, rebaseCalcInserted,
			rebaseComment{id: "l2", path: "pkg/calc.go", side: "left", start: 14, snippet: `metrics.Inc("calc")`},
			rebaseWant{side: "left", start: 14, end: 14, unchanged: true, why: "found at the same place"}},
		{"context line became a removed one: other side", rebaseCalcOld, rebaseCalcMetricsGone,
			rebaseComment{id: "m1", path: "pkg/calc.go", side: "RIGHT", start: 15, snippet: `metrics.Inc("calc")`},
			rebaseWant{side: "LEFT", start: 14, end: 14, why: "found on the LEFT side at line 14"}},
		{"dismissed comment moves and keeps its state", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.state = "dismissed" }),
			rebaseWant{side: "RIGHT", start: 15, end: 15, state: "dismissed", why: "snippet found 2 lines lower; kept dismissed"}},
		{"dismissed comment with no place keeps its state", rebaseCalcOld, rebaseOtherFile, with(result, func(c *rebaseComment) { c.state = "dismissed" }),
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "dismissed", orphaned: true, unchanged: true, why: "kept dismissed"}},
		{"comment without snippet", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.snippet = "" }),
			rebaseWant{side: "RIGHT", start: 15, end: 15, why: "its lines found 2 lines lower"}},
		{"comment without snippet on a range", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.snippet = ""; c.start = 12; c.end = 14 }),
			rebaseWant{side: "RIGHT", start: 14, end: 16, why: "its lines found 2 lines lower"}},
		{"comment without snippet that did not resolve", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.snippet = ""; c.start = 40 }),
			rebaseWant{side: "RIGHT", start: 40, end: 40, state: "orphaned", orphaned: true, why: "no snippet, and RIGHT 40 is not in the old patch"}},
		{"orphaned comment found by its snippet", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.start = 99; c.state = "orphaned" }),
			rebaseWant{side: "RIGHT", start: 15, end: 15, state: "active", why: "snippet found"}},
		{"stale comment is reactivated", rebaseCalcOld, rebaseCalcInserted, with(result, func(c *rebaseComment) { c.state = "stale" }),
			rebaseWant{side: "RIGHT", start: 15, end: 15, state: "active", why: "snippet found 2 lines lower"}},
		{"repeated lines: the hunk offsets decide", rebaseRepeatOld, rebaseRepeatNew,
			rebaseComment{id: "r1", path: "pkg/rep.go", side: "RIGHT", start: 5, snippet: "step()"},
			rebaseWant{side: "RIGHT", start: 7, end: 7, why: "snippet found 2 lines lower"}},
		{"repeated lines, added line: no exact mapping", rebaseRepeatOld, rebaseRepeatNew,
			rebaseComment{id: "r2", path: "pkg/rep.go", side: "RIGHT", start: 10, snippet: "done()"},
			rebaseWant{side: "RIGHT", start: 12, end: 12, why: "snippet found 2 lines lower"}},
		{"weak snippet confirmed by context", rebaseBraceOld, rebaseBraceNew,
			rebaseComment{id: "b1", path: "pkg/brace.go", side: "RIGHT", start: 5, snippet: "}"},
			rebaseWant{side: "RIGHT", start: 7, end: 7, why: "snippet found 2 lines lower"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := rebaseBuildDoc(SplitDiffFile([]byte(tt.old)), tt.c)
			doc := exchange.Parse([]byte(src))
			newPatch := SplitDiffFile([]byte(tt.new))
			edits, moves, err := Rebase(doc, newPatch)
			if err != nil {
				t.Fatalf("Rebase: %v", err)
			}
			if len(moves) != 1 {
				t.Fatalf("got %d moves, want 1", len(moves))
			}
			rebaseCheckMove(t, moves[0], tt.want)
			after := rebaseCheckDoc(t, src, edits, newPatch)
			rebaseCheckComment(t, after, 0, tt.c.path, tt.want)
			if tt.want.unchanged && len(edits) > 1 {
				t.Errorf("got %d edits for an unchanged comment, want only the patch's", len(edits))
			}
			if got, want := moves[0].State, exchange.StateActive; tt.want.state != "" && got != tt.want.state || tt.want.state == "" && got != want {
				t.Errorf("got Move.State %q, want %q", got, tt.want.state)
			}
		})
	}
}

// TestRebaseSeveralComments rebases a document holding comments of every
// kind at once: the edits must not collide.
func TestRebaseSeveralComments(t *testing.T) {
	cs := []rebaseComment{
		{id: "a", path: "pkg/calc.go", side: "RIGHT", start: 13, end: 14, snippet: "result, err := calculate(in)"},
		{id: "b", path: "pkg/calc.go", side: "LEFT", start: 13, snippet: "result := calculate(in)", state: "dismissed"},
		{id: "c", path: "pkg/calc.go", side: "RIGHT", start: 12},
		{id: "d", path: "pkg/gone.go", side: "RIGHT", start: 1, snippet: "x"},
		{id: "e", path: "pkg/calc.go", side: "RIGHT", start: 11, snippet: "zzz", state: "stale"},
	}
	src := rebaseBuildDoc(SplitDiffFile([]byte(rebaseCalcOld)), cs...)
	newPatch := SplitDiffFile([]byte(rebaseCalcInserted))
	edits, moves, err := Rebase(exchange.Parse([]byte(src)), newPatch)
	if err != nil {
		t.Fatalf("Rebase: %v", err)
	}
	after := rebaseCheckDoc(t, src, edits, newPatch)
	wants := []rebaseWant{
		{side: "RIGHT", start: 15, end: 16, why: "snippet found 2 lines lower"},
		{side: "LEFT", start: 13, end: 13, state: "dismissed", unchanged: true, why: "found at the same place; kept dismissed"},
		{side: "RIGHT", start: 14, end: 14, why: "its lines found 2 lines lower"},
		{side: "RIGHT", start: 1, end: 1, state: "orphaned", orphaned: true, why: "not in the new patch"},
		{side: "RIGHT", start: 11, end: 11, state: "orphaned", orphaned: true, why: "not found"},
	}
	if len(moves) != len(wants) {
		t.Fatalf("got %d moves, want %d", len(moves), len(wants))
	}
	for i, w := range wants {
		t.Run(cs[i].id, func(t *testing.T) {
			rebaseCheckMove(t, moves[i], w)
			rebaseCheckComment(t, after, i, cs[i].path, w)
		})
	}
}

func TestRebaseUnchangedPatchMakesNoEdits(t *testing.T) {
	src := rebaseBuildDoc(SplitDiffFile([]byte(rebaseCalcOld)),
		rebaseComment{id: "a", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "result, err := calculate(in)"},
		rebaseComment{id: "b", path: "pkg/calc.go", side: "LEFT", start: 13})
	edits, moves, err := Rebase(exchange.Parse([]byte(src)), SplitDiffFile([]byte(rebaseCalcOld)))
	if err != nil {
		t.Fatalf("Rebase: %v", err)
	}
	if len(edits) != 0 {
		t.Errorf("got %d edits, want none: %+v", len(edits), edits)
	}
	for _, m := range moves {
		if !m.Unchanged {
			t.Errorf("comment %s: got Unchanged=false, want true (why %q)", m.Comment.ID, m.Why)
		}
	}
}

func TestRebaseErrors(t *testing.T) {
	good := rebaseBuildDoc(SplitDiffFile([]byte(rebaseCalcOld)))
	tests := []struct {
		name, src string
		patch     []string
		want      string
	}{
		{"syntax error", `{"leanreview_review": 1, "patch": [}`, SplitDiffFile([]byte(rebaseCalcOld)), "syntax error"},
		{"not an object", `[1]`, SplitDiffFile([]byte(rebaseCalcOld)), "not an object"},
		{"empty new patch", good, nil, "no file diff"},
		{"not a diff", good, []string{"hello", "world"}, "no file diff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Rebase(exchange.Parse([]byte(tt.src)), tt.patch)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestRebasePatchLayout checks the exact text of the rewritten patch: the
// document's own indentation and line ends, escapes as leanreview writes
// them, and only the patch value replaced.
func TestRebasePatchLayout(t *testing.T) {
	newPatch := []string{"diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a\t<b>", `+"a" \ é`}
	tests := []struct {
		name, src, want string
	}{
		{"four-space array",
			"{\n    \"leanreview_review\": 1,\n    \"patch\": [\n        \"old\"\n    ],\n    \"comments\": []\n}\n",
			"{\n    \"leanreview_review\": 1,\n    \"patch\": [\n        \"diff --git a/x b/x\",\n        \"--- a/x\",\n        \"+++ b/x\",\n        \"@@ -1 +1 @@\",\n        \"-a\\t<b>\",\n        \"+\\\"a\\\" \\\\ é\"\n    ],\n    \"comments\": []\n}\n"},
		{"string form, CRLF document",
			"{\r\n  \"leanreview_review\": 1,\r\n  \"patch\": \"old\\n\",\r\n  \"comments\": []\r\n}\r\n",
			"{\r\n  \"leanreview_review\": 1,\r\n  \"patch\": [\r\n    \"diff --git a/x b/x\",\r\n    \"--- a/x\",\r\n    \"+++ b/x\",\r\n    \"@@ -1 +1 @@\",\r\n    \"-a\\t<b>\",\r\n    \"+\\\"a\\\" \\\\ é\"\r\n  ],\r\n  \"comments\": []\r\n}\r\n"},
		{"one-line document",
			`{"leanreview_review": 1, "patch": [], "comments": []}`,
			`{"leanreview_review": 1, "patch": ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a\t<b>", "+\"a\" \\ é"], "comments": []}`},
		{"missing patch",
			"{\n  \"leanreview_review\": 1,\n  \"title\": \"t\",\n  \"comments\": []\n}\n",
			"{\n  \"leanreview_review\": 1,\n  \"title\": \"t\",\n  \"patch\": [\n    \"diff --git a/x b/x\",\n    \"--- a/x\",\n    \"+++ b/x\",\n    \"@@ -1 +1 @@\",\n    \"-a\\t<b>\",\n    \"+\\\"a\\\" \\\\ é\"\n  ],\n  \"comments\": []\n}\n"},
		{"trailing empty element and tabs",
			"{\n\t\"leanreview_review\": 1,\n\t\"patch\": [\n\t\t\"old\",\n\t\t\"\"\n\t],\n\t\"comments\": []\n}\n",
			"{\n\t\"leanreview_review\": 1,\n\t\"patch\": [\n\t\t\"diff --git a/x b/x\",\n\t\t\"--- a/x\",\n\t\t\"+++ b/x\",\n\t\t\"@@ -1 +1 @@\",\n\t\t\"-a\\t<b>\",\n\t\t\"+\\\"a\\\" \\\\ é\"\n\t],\n\t\"comments\": []\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edits, _, err := Rebase(exchange.Parse([]byte(tt.src)), newPatch)
			if err != nil {
				t.Fatalf("Rebase: %v", err)
			}
			out, err := exchange.ApplyEdits([]byte(tt.src), edits)
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			if string(out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out, tt.want)
			}
		})
	}
}

// TestRebaseCommentEdits checks that a moved comment's own text changes
// only in its values, in its own layout, and that missing members are
// inserted in the spec's order.
func TestRebaseCommentEdits(t *testing.T) {
	patch := SplitDiffFile([]byte(rebaseCalcOld))
	quoted := make([]string, len(patch))
	for i, l := range patch {
		quoted[i] = jsontext.Quote(l)
	}
	head := `{"leanreview_review": 1, "patch": [` + strings.Join(quoted, ", ") + `], "comments": [`
	tests := []struct {
		name, comment, want string
	}{
		{"one-line comment quoting two lines covers its snippet: end_line inserted",
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 13, "body": "b", "snippet": "result, err := calculate(in)\n_ = err", "zz": 1}`,
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 15, "end_line": 16, "body": "b", "snippet": "result, err := calculate(in)\n_ = err", "zz": 1}`},
		{"unresolved comment takes its snippet's width: end_line inserted",
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 99, "body": "b", "snippet": "result, err := calculate(in)\n_ = err", "zz": 1}`,
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 15, "end_line": 16, "body": "b", "snippet": "result, err := calculate(in)\n_ = err", "zz": 1}`},
		{"invalid side replaced, missing start_line inserted in order",
			`{"id": "a", "path": "pkg/calc.go", "side": "middle", "body": "b", "snippet": "result, err := calculate(in)"}`,
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 15, "body": "b", "snippet": "result, err := calculate(in)"}`},
		{"state inserted after body",
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 13, "body": "b", "snippet": "gone()"}`,
			`{"id": "a", "path": "pkg/calc.go", "side": "RIGHT", "start_line": 13, "body": "b", "state": "orphaned", "snippet": "gone()"}`},
		{"side spelt in lower case is left alone",
			"{\n  \"id\": \"a\",\n  \"path\": \"pkg/calc.go\",\n  \"side\": \"right\",\n  \"start_line\": 13,\n  \"end_line\": 13,\n  \"body\": \"b\",\n  \"state\": \"stale\"\n}",
			"{\n  \"id\": \"a\",\n  \"path\": \"pkg/calc.go\",\n  \"side\": \"right\",\n  \"start_line\": 15,\n  \"end_line\": 15,\n  \"body\": \"b\",\n  \"state\": \"active\"\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + tt.comment + "]}"
			edits, _, err := Rebase(exchange.Parse([]byte(src)), SplitDiffFile([]byte(rebaseCalcInserted)))
			if err != nil {
				t.Fatalf("Rebase: %v", err)
			}
			out, err := exchange.ApplyEdits([]byte(src), edits)
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			doc := exchange.Parse(out)
			if len(doc.Syntax) > 0 || len(doc.Review.Comments) != 1 {
				t.Fatalf("got %d syntax errors and %d comments, want none and 1:\n%s", len(doc.Syntax), len(doc.Review.Comments), out)
			}
			if got := rebaseText(out, doc.Review.Comments[0].Node); got != tt.want {
				t.Errorf("got comment\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestReanchor(t *testing.T) {
	patch := SplitDiffFile([]byte(rebaseCalcOld))
	tests := []struct {
		name  string
		c     rebaseComment
		which func(*exchange.Comment) bool
		want  rebaseWant
		moved bool   // whether a Move is expected
		patch string // rebaseCalcOld when empty
	}{
		{"stale comment finds its snippet",
			rebaseComment{id: "s1", path: "pkg/calc.go", side: "RIGHT", start: 11, snippet: "result, err := calculate(in)", state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "active", why: "snippet found 2 lines lower"}, true, ""},
		{"stale comment already in place",
			rebaseComment{id: "s2", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "result, err := calculate(in)", state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "active", why: "found at the same place"}, true, ""},
		{"stale comment on a removed line",
			rebaseComment{id: "s3", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "result := calculate(in)", state: "stale"}, nil,
			rebaseWant{side: "LEFT", start: 13, end: 13, state: "active", why: "found on the LEFT side at line 13"}, true, ""},
		{"stale comment, snippet nowhere",
			rebaseComment{id: "s4", path: "pkg/calc.go", side: "RIGHT", start: 13, snippet: "nothing like it", state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "orphaned", orphaned: true, why: "not found"}, true, ""},
		{"stale comment with a weak snippet away from its place",
			rebaseComment{id: "s5", path: "pkg/w.go", side: "RIGHT", start: 1, snippet: "}", state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 1, end: 1, state: "orphaned", orphaned: true, why: "snippet is too weak to re-anchor by"}, true, rebaseOneBrace},
		{"stale comment with a weak snippet in place",
			rebaseComment{id: "s5b", path: "pkg/w.go", side: "RIGHT", start: 3, snippet: "}", state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 3, end: 3, state: "active", why: "snippet found at the same place"}, true, rebaseOneBrace},
		{"weak snippet is not a part of a line",
			rebaseComment{id: "s5c", path: "pkg/calc.go", side: "RIGHT", start: 12, snippet: ")", state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 12, end: 12, state: "orphaned", orphaned: true, why: "not found"}, true, ""},
		{"stale dismissed? no: a dismissed comment is not stale and is skipped",
			rebaseComment{id: "s6", path: "pkg/calc.go", side: "RIGHT", start: 11, snippet: "result, err := calculate(in)", state: "dismissed"}, nil,
			rebaseWant{side: "RIGHT", start: 11, end: 11, state: "dismissed"}, false, ""},
		{"dismissed comment selected: moves, keeps its state",
			rebaseComment{id: "s7", path: "pkg/calc.go", side: "RIGHT", start: 11, snippet: "result, err := calculate(in)", state: "dismissed"},
			func(*exchange.Comment) bool { return true },
			rebaseWant{side: "RIGHT", start: 13, end: 13, state: "dismissed", why: "snippet found 2 lines lower; kept dismissed"}, true, ""},
		{"stale comment without snippet keeps its resolving lines",
			rebaseComment{id: "s8", path: "pkg/calc.go", side: "RIGHT", start: 14, state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 14, end: 14, state: "active", why: "its lines found at the same place"}, true, ""},
		{"stale comment without snippet that does not resolve",
			rebaseComment{id: "s9", path: "pkg/calc.go", side: "RIGHT", start: 30, state: "stale"}, nil,
			rebaseWant{side: "RIGHT", start: 30, end: 30, state: "orphaned", orphaned: true, why: "no snippet"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			patch := patch
			if tt.patch != "" {
				patch = SplitDiffFile([]byte(tt.patch))
			}
			src := rebaseBuildDoc(patch, tt.c)
			edits, moves := Reanchor(exchange.Parse([]byte(src)), tt.which)
			if got := len(moves) == 1; got != tt.moved {
				t.Fatalf("got %d moves, want moved=%v", len(moves), tt.moved)
			}
			if tt.moved {
				rebaseCheckMove(t, moves[0], tt.want)
			} else if len(edits) != 0 {
				t.Errorf("got %d edits for a comment not selected, want none", len(edits))
			}
			after := rebaseCheckDoc(t, src, edits, patch)
			rebaseCheckComment(t, after, 0, tt.c.path, tt.want)
		})
	}
}

// TestReanchorIdenticalPlaces: a comment on one of two identical lines
// stays where it is; a comment on neither goes to the nearer one; a
// comment as near to both cannot choose and is orphaned.
func TestReanchorIdenticalPlaces(t *testing.T) {
	patch := SplitDiffFile([]byte(rebaseTwiceTie))
	tests := []struct {
		start int
		want  rebaseWant
	}{
		{21, rebaseWant{side: "RIGHT", start: 21, end: 21, state: "active", why: "found at the same place"}},
		{25, rebaseWant{side: "RIGHT", start: 25, end: 25, state: "active", why: "found at the same place"}},
		{22, rebaseWant{side: "RIGHT", start: 21, end: 21, state: "active", why: "snippet found 1 line higher"}},
		{23, rebaseWant{side: "RIGHT", start: 23, end: 23, state: "orphaned", orphaned: true, why: "2 equally good places: RIGHT 21, RIGHT 25"}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.start), func(t *testing.T) {
			src := rebaseBuildDoc(patch, rebaseComment{id: "x", path: "pkg/twice.go", side: "RIGHT", start: tt.start, snippet: "mu.Lock()", state: "stale"})
			edits, moves := Reanchor(exchange.Parse([]byte(src)), nil)
			if len(moves) != 1 {
				t.Fatalf("got %d moves, want 1", len(moves))
			}
			rebaseCheckMove(t, moves[0], tt.want)
			rebaseCheckComment(t, rebaseCheckDoc(t, src, edits, patch), 0, "pkg/twice.go", tt.want)
		})
	}
}

func TestSplitDiffFile(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\nb", []string{"a", "b"}},
		{"a\n\n", []string{"a", ""}},
		{"\n", []string{""}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\r\nb", []string{"a", "b"}},
		{"a\r\nb\n", []string{"a\r", "b"}},
		{"a\rb\n", []string{"a\rb"}},
		{"\ufeffdiff\n", []string{"diff"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := SplitDiffFile([]byte(tt.in)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitDiffFile(%q): got %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// BenchmarkRebase rebases 300 comments of a 20,000-line file diff onto a
// revision that inserts lines in every hunk.
func BenchmarkRebase(b *testing.B) {
	build := func(extra bool) []string {
		lines := []string{"diff --git a/big.go b/big.go", "--- a/big.go", "+++ b/big.go"}
		oldN, newN := 1, 1
		for h := 0; h < 100; h++ {
			body := []string{}
			nOld, nNew := 0, 0
			for i := 0; i < 200; i++ {
				text := fmt.Sprintf("\tcall%d(x, %d)", h, i)
				switch {
				case i%50 == 10:
					body = append(body, "+"+text)
					nNew++
				case extra && i%50 == 20:
					body = append(body, "+\tinserted()", " "+text)
					nNew += 2
					nOld++
				default:
					body = append(body, " "+text)
					nOld++
					nNew++
				}
			}
			lines = append(lines, fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldN, nOld, newN, nNew))
			lines = append(lines, body...)
			oldN += nOld + 10
			newN += nNew + 10
		}
		return lines
	}
	old, revised := build(false), build(true)
	var cs []rebaseComment
	for i := 0; i < 300; i++ {
		h, l := i/3, (i%3)*60+30
		cs = append(cs, rebaseComment{id: fmt.Sprint(i), path: "big.go", side: "RIGHT", start: 1 + h*210 + l, snippet: fmt.Sprintf("call%d(x, %d)", h, l)})
	}
	doc := exchange.Parse([]byte(rebaseBuildDoc(old, cs...)))
	b.ResetTimer()
	for range b.N {
		if _, _, err := Rebase(doc, revised); err != nil {
			b.Fatal(err)
		}
	}
}

// rebaseMapByWalk is mapLine as a walk of every line of every hunk, the
// reference the per-file hunk sums must agree with.
func rebaseMapByWalk(f *FileDiff, from Side, n int) (int, bool) {
	to := from.other()
	offset := 0
	for i := range f.Hunks {
		h := &f.Hunks[i]
		fromStart, toStart := h.OldStart, h.NewStart
		if from == Right {
			fromStart, toStart = toStart, fromStart
		}
		if n < fromStart {
			return n + toStart - fromStart, true
		}
		fromCount, toCount := 0, 0
		prevTo := toStart - 1
		for _, l := range h.Lines {
			if l.Number(from) == n {
				if l.In(to) {
					return l.Number(to), true
				}
				return prevTo + 1, false
			}
			if l.In(from) {
				fromCount++
			}
			if l.In(to) {
				toCount++
				prevTo = l.Number(to)
			}
		}
		if n < fromStart+fromCount {
			return n + toStart - fromStart, false
		}
		offset = (toStart + toCount) - (fromStart + fromCount)
	}
	return n + offset, true
}

func TestMapLineAgreesWithAWalk(t *testing.T) {
	patches := [][]string{
		SplitDiffFile([]byte(rebaseCalcOld)), SplitDiffFile([]byte(rebaseCalcInserted)), SplitDiffFile([]byte(rebaseCalcRenamed)),
		// A truncated hunk: its header promises more lines than it holds.
		{"--- a/t.go", "+++ b/t.go", "@@ -5,6 +5,7 @@", " a", "-b", "+c", "+d", "@@ -40,2 +41,1 @@", " x", "-y"},
	}
	src := exchange.Parse(reviewgen.Generate(reviewgen.Config{Files: 3, DiffLines: 600, Comments: 1, Seed: 4}))
	var gen []string
	for i := range src.Review.Patch.LineCount() {
		gen = append(gen, src.Review.Patch.LineText(i))
	}
	patches = append(patches, gen)
	for pi, lines := range patches {
		doc := exchange.Parse(reviewJSON(lines))
		ix := BuildIndex(&doc.Review.Patch)
		rb := newRebaser(doc.Text, ix, ix, true)
		for _, f := range ix.Files {
			for _, from := range []Side{Left, Right} {
				for n := 1; n < 800; n++ {
					got, gotOK := rb.oldS.side(f, from, ix.Patch).mapLine(n)
					want, wantOK := rebaseMapByWalk(f, from, n)
					if got != want || gotOK != wantOK {
						t.Fatalf("patch %d, %s, mapLine(%s %d): got %d %v, want %d %v", pi, f.NewName, from, n, got, gotOK, want, wantOK)
					}
				}
			}
		}
	}
}

// A generated review rebased onto a revision that inserts a line in every
// hunk: most comments move, few are orphaned.
func TestRebaseGeneratedRevision(t *testing.T) {
	src := reviewgen.Generate(reviewgen.Config{Files: 6, DiffLines: 3000, Comments: 300, DriftedFraction: 0.3, Seed: 11})
	doc := exchange.Parse(src)
	var revised []string
	for i := range doc.Review.Patch.LineCount() {
		l := doc.Review.Patch.LineText(i)
		if strings.HasPrefix(l, "@@ ") {
			// Shift the new image by one and insert a line after the header.
			hh, _, ok := parseHunkHeader(l)
			if !ok {
				t.Fatalf("generated hunk header %q does not parse", l)
			}
			revised = append(revised, fmt.Sprintf("@@ -%d,%d +%d,%d @@%s", hh.old.start, hh.old.count, hh.new.start, hh.new.count+1, " "+hh.section), "+\tinserted()")
			continue
		}
		revised = append(revised, l)
	}
	_, slowMoves, err := Rebase(doc, revised)
	if err != nil {
		t.Fatal(err)
	}
	moved, orphaned := 0, 0
	for _, s := range slowMoves {
		if s.Orphaned {
			orphaned++
		} else if !s.Unchanged {
			moved++
		}
	}
	if moved < 100 || orphaned > 100 {
		t.Errorf("got %d moved and %d orphaned of %d comments, want most moved: the case tests too little", moved, orphaned, len(slowMoves))
	}
}

// TestRebaseTieAgreesWithCheck is the reproduction: rebase refuses
// a tie and marks the comment orphaned; check on the result finds the same
// places and prefers neither, and fix neither moves it nor changes its
// state, and says why.
func TestRebaseTieAgreesWithCheck(t *testing.T) {
	src := rebaseBuildDoc(SplitDiffFile([]byte(rebaseTwiceOld)), rebaseComment{id: "t1", path: "pkg/twice.go", side: "RIGHT", start: 22, snippet: "mu.Lock()"})
	edits, moves, err := Rebase(exchange.Parse([]byte(src)), SplitDiffFile([]byte(rebaseTwiceTie)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exchange.ApplyEdits([]byte(src), edits)
	if err != nil {
		t.Fatal(err)
	}
	if !moves[0].Orphaned || !strings.HasPrefix(moves[0].Why, "2 equally good places: RIGHT 21, RIGHT 25") {
		t.Fatalf("rebase: got %+v, want t1 orphaned on a tie", moves[0])
	}
	_, a := analyze(t, out, Options{})
	r := a.Resolutions[0]
	if r.Tie != "2 equally good places: RIGHT 21, RIGHT 25" || len(r.Candidates) != 2 || hasPreferred(r.Candidates) {
		t.Errorf("check: got tie %q, candidates %v; want rebase's two places, none preferred", r.Tie, r.Candidates)
	}
	f, err := FixDocument(out)
	if err != nil {
		t.Fatal(err)
	}
	fixed, applied := f.Src, f.Applied
	if !bytes.Equal(fixed, out) || len(applied) != 1 || !applied[0].Declined {
		t.Errorf("fix: got %+v and a changed document: %v; want t1 left alone, declined", applied, !bytes.Equal(fixed, out))
	}
}
