package anchor

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// trackLine is a line of a file under test: its text and the RIGHT line
// number it had in the review (0 for a line added since).
type trackLine struct {
	text string
	was  int
}

// goLike is a file of n lines most of which repeat, as Go's do: `}`,
// `if err != nil {`, `return err`, blank lines; one line in seven is
// unique.
func goLike(n int) []string {
	repeated := []string{"\tif err != nil {", "\t\treturn err", "\t}", "", "}", "\treturn nil"}
	out := make([]string, n)
	for i := range out {
		if i%7 == 0 {
			out[i] = fmt.Sprintf("\tv%d, err := step%d(ctx)", i, i)
		} else {
			out[i] = repeated[i%len(repeated)]
		}
	}
	return out
}

// trackIndex builds the index of a review of image (the RIGHT image)
// whose hunks are the lines of spans (first, last, from 1), each hunk
// adding its middle line.
func trackIndex(t testing.TB, image []string, spans [][2]int) (*exchange.Patch, *FileDiff) {
	t.Helper()
	var b strings.Builder
	b.WriteString("diff --git a/f.go b/f.go\n--- a/f.go\n+++ b/f.go\n")
	removed := 0
	for _, sp := range spans {
		n := sp[1] - sp[0] + 1
		mid := sp[0] + n/2
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", sp[0]-removed, n-1, sp[0], n)
		for k := sp[0]; k <= sp[1]; k++ {
			if k == mid {
				b.WriteString("+" + image[k-1] + "\n")
			} else {
				b.WriteString(" " + image[k-1] + "\n")
			}
		}
		removed++
	}
	doc := ixStringDoc(t, b.String())
	ix := BuildIndex(&doc.Review.Patch)
	if len(ix.Files) != 1 {
		t.Fatalf("%d file diffs, want 1", len(ix.Files))
	}
	return &doc.Review.Patch, ix.Files[0]
}

func reviewed(image []string) []trackLine {
	out := make([]trackLine, len(image))
	for i, s := range image {
		out[i] = trackLine{s, i + 1}
	}
	return out
}

func texts(ls []trackLine) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// startsOf are the offsets of lines joined by "\n".
func startsOf(lines []string) []int {
	out := make([]int, len(lines))
	at := 0
	for i, s := range lines {
		out[i] = at
		at += len(s) + 1
	}
	return out
}

// track is TrackLines of a file's lines.
func track(p *exchange.Patch, f *FileDiff, file []trackLine) *LineTrack {
	ls := texts(file)
	return TrackLines(p, f, ls, startsOf(ls))
}

// lineOp replaces del lines from at (from 0) by add.
type lineOp struct {
	at, del int
	add     []string
}

// lineEdits are the TextEdits of ops applied to file's lines (joined by
// "\n", each ended by one), one after the other.
func lineEdits(file []string, ops ...lineOp) []TextEdit {
	var out []TextEdit
	for _, op := range ops {
		starts := startsOf(file)
		at := len(strings.Join(file, "\n")) + 1
		if op.at < len(file) {
			at = starts[op.at]
		}
		end := at
		for k := range op.del {
			end += len(file[op.at+k]) + 1
		}
		n := 0
		for _, s := range op.add {
			n += len(s) + 1
		}
		out = append(out, TextEdit{Start: at, End: end, New: n})
		file = slices.Concat(file[:op.at], op.add, file[op.at+op.del:])
	}
	return out
}

// checkTrack checks every RIGHT line of f placed by tr in file: a line
// placed must be where it truly is (never another line); when all, each
// line still in the file must be placed. It returns how many were.
func checkTrack(t *testing.T, p *exchange.Patch, f *FileDiff, tr *LineTrack, file []trackLine, all bool) int {
	t.Helper()
	where := map[int]int{}
	for i, l := range file {
		if l.was > 0 {
			where[l.was] = i + 1
		}
	}
	lines := texts(file)
	starts := startsOf(lines)
	placed := 0
	for _, l := range rightImage(f) {
		got := tr.Place(p, f, []ImageLine{l}, lines, starts)
		want, kept := where[int(l.New)]
		switch {
		case got.OK && got.Start != want:
			t.Fatalf("line %d (%q): placed at %d, truly at %d", l.New, f.Content(p, l.Patch), got.Start, want)
		case got.OK:
			placed++
		case all && kept:
			t.Fatalf("line %d (%q): not placed, truly at %d", l.New, f.Content(p, l.Patch), want)
		}
	}
	return placed
}

// rightImage is f's RIGHT lines as rightLines keeps them, with their
// patch lines.
func rightImage(f *FileDiff) []ImageLine {
	var out []ImageLine
	last := int32(0)
	for h := range f.Hunks {
		for j, l := range f.Hunks[h].Lines {
			if l.New > last {
				out = append(out, ImageLine{l, f.Hunks[h].PatchLine(j)})
				last = l.New
			}
		}
	}
	return out
}

func insertLines(file []trackLine, at int, added []string) []trackLine {
	ins := make([]trackLine, len(added))
	for i, s := range added {
		ins[i] = trackLine{text: s}
	}
	return slices.Insert(slices.Clone(file), at, ins...)
}

var trackSpans = [][2]int{{3, 12}, {40, 52}, {90, 96}, {150, 170}}

// TestTrackPaste: lines pasted above, between and inside the hunks,
// 1 to 3,000 of them, all repeating the file's own lines: a line diff
// places each RIGHT line where it truly is or not at all, and the
// editor's edits carried place every one.
func TestTrackPaste(t *testing.T) {
	image := goLike(200)
	p, f := trackIndex(t, image, trackSpans)
	base := track(p, f, reviewed(image))
	if n := checkTrack(t, p, f, base, reviewed(image), true); n != len(rightImage(f)) {
		t.Fatalf("as reviewed: %d placed, want all %d", n, len(rightImage(f)))
	}
	for _, n := range []int{1, 3, 8, 50, 3000} {
		for _, at := range []int{0, 20, 45, 97, 160, 200} {
			t.Run(fmt.Sprintf("%d-at-%d", n, at), func(t *testing.T) {
				file := insertLines(reviewed(image), at, pasted(n, 2))
				placed := checkTrack(t, p, f, track(p, f, file), file, false)
				// Pasted above them all, every line is placed.
				if at == 0 && placed != len(rightImage(f)) {
					t.Errorf("pasted at the top: %d of %d placed by the diff, want all", placed, len(rightImage(f)))
				}
				carried := base.Edited(lineEdits(image, lineOp{at, 0, pasted(n, 2)}))
				checkTrack(t, p, f, carried, file, true)
			})
		}
	}
}

// TestTrackTwinOutsideHunks: a line the review has once (line 160, in a
// hunk) has a twin outside the hunks (line 120). Once the reviewed line
// is deleted, or changed, on disk, the twin is the one line of its text
// on each side: the diff must not carry the comment to it (the Go tree's
// zip.go had `f, err := os.Open(zipFile)` twice; trackbench found it).
func TestTrackTwinOutsideHunks(t *testing.T) {
	image := goLike(200)
	image[119], image[159] = "\tf, err := os.Open(name)", "\tf, err := os.Open(name)"
	p, f := trackIndex(t, image, trackSpans)
	for name, file := range map[string][]trackLine{
		"deleted":                     slices.Delete(reviewed(image), 157, 160),
		"changed":                     slices.Replace(reviewed(image), 159, 160, trackLine{text: "\tf, err := os.Create(name)"}),
		"deleted, lines pasted above": insertLines(slices.Delete(reviewed(image), 157, 160), 0, pasted(50, 1)),
	} {
		t.Run(name, func(t *testing.T) {
			checkTrack(t, p, f, track(p, f, file), file, false)
		})
	}
}

// TestTrackRepeatedLinesTyped: lines typed one at a time above a `}`
// that a comment is on, each the same `}`: the track moves the comment's
// line with every edit.
func TestTrackRepeatedLinesTyped(t *testing.T) {
	image := goLike(200)
	p, f := trackIndex(t, image, trackSpans)
	tr := track(p, f, reviewed(image))
	file := reviewed(image)
	for range 8 {
		tr = tr.Edited(lineEdits(texts(file), lineOp{44, 0, []string{"\t}"}}))
		file = insertLines(file, 44, []string{"\t}"})
		checkTrack(t, p, f, tr, file, true)
		checkTrack(t, p, f, track(p, f, file), file, false)
	}
}

// TestTrackDeleteAndMove: lines deleted are not placed; a block moved
// is placed where it went by the diff when it holds a line found once,
// and never elsewhere.
func TestTrackDeleteAndMove(t *testing.T) {
	image := goLike(200)
	p, f := trackIndex(t, image, trackSpans)
	base := track(p, f, reviewed(image))
	// Delete lines 44–47 (from 1) of hunk two.
	file := slices.Delete(reviewed(image), 43, 47)
	checkTrack(t, p, f, track(p, f, file), file, false)
	checkTrack(t, p, f, base.Edited(lineEdits(image, lineOp{43, 4, nil})), file, true)
	// Move lines 153–165 (from 1), which hold lines 155 and 162, found
	// once, to the top: the lines from 155 to 162 are placed there.
	file = reviewed(image)
	block := slices.Clone(file[152:165])
	file = slices.Delete(file, 152, 165)
	file = slices.Insert(file, 0, block...)
	placed := checkTrack(t, p, f, track(p, f, file), file, false)
	moved := 0
	tr := track(p, f, file)
	for _, l := range rightImage(f) {
		if l.New >= 155 && l.New <= 162 && tr.Place(p, f, []ImageLine{l}, texts(file), startsOf(texts(file))).OK {
			moved++
		}
	}
	if moved != 8 {
		t.Errorf("moved block: %d of lines 155–162 placed where they went, want 8 (%d placed in all)", moved, placed)
	}
	checkTrack(t, p, f, base.Edited(lineEdits(image, lineOp{152, 13, nil}, lineOp{0, 0, texts(block)})), file, false)
}

// TestTrackRandomEdits: random pastes of repeated lines, deletions and
// moves of blocks, each of the reviewed file (600 runs; run 818 of this
// seed moves a block whose last line is blank next to a hunk's blank
// first line, both edits in the lines the review does not describe: no
// text tells that line from the blank it lands on, and the diff, reading
// no edit there, places it on that one): the diff never places a line
// elsewhere than where it is, and the carried edits place every line
// that was not deleted or moved.
func TestTrackRandomEdits(t *testing.T) {
	image := goLike(300)
	p, f := trackIndex(t, image, [][2]int{{1, 9}, {30, 45}, {100, 130}, {200, 230}, {290, 300}})
	base := track(p, f, reviewed(image))
	rng := rand.New(rand.NewSource(45))
	for run := range 600 {
		file := reviewed(image)
		at := rng.Intn(len(file) + 1)
		var edits []TextEdit
		op := run % 3
		switch op {
		case 0:
			n := 1 + rng.Intn(20)
			// Repeated lines, indented as none of the file's: a paste
			// whose first line is the text of the line it goes above
			// leaves a text where that line may as well be the pasted.
			added := pasted(n, rng.Intn(6))
			for i := range added {
				added[i] = "\t\t\t" + added[i]
			}
			file = insertLines(file, at, added)
			edits = lineEdits(image, lineOp{at, 0, added})
		case 1:
			n := min(1+rng.Intn(5), len(file)-at)
			file = slices.Delete(file, at, at+n)
			edits = lineEdits(image, lineOp{at, n, nil})
		default:
			// A block of 7 lines or more, holding a line found once: a
			// block of repeated lines only, moved among more of them,
			// leaves a text where its lines may as well not have moved.
			at = min(at, len(file)-7)
			n := min(7+rng.Intn(8), len(file)-at)
			block := slices.Clone(file[at : at+n])
			file = slices.Delete(file, at, at+n)
			to := rng.Intn(len(file) + 1)
			file = slices.Insert(file, to, block...)
			edits = lineEdits(image, lineOp{at, n, nil}, lineOp{to, 0, texts(block)})
		}
		t.Logf("run %d: op %d at %d: %v", run, op, at, edits)
		checkTrack(t, p, f, track(p, f, file), file, false)
		checkTrack(t, p, f, base.Edited(edits), file, op == 0)
		if t.Failed() {
			t.Fatalf("run %d: op %d at %d", run, op, at)
		}
	}
}

// pasted is n lines of code as a person pastes it: repeated lines (`}`,
// `return err`) from the k-th on, and lines of its own.
func pasted(n, k int) []string {
	repeated := []string{"	if err != nil {", "		return err", "	}", "", "}", "	return nil"}
	out := make([]string, n)
	for i := range out {
		if i%5 == 4 {
			out[i] = fmt.Sprintf("	pasted%d()", i)
		} else {
			out[i] = repeated[(i+k)%len(repeated)]
		}
	}
	return out
}
