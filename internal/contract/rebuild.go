package contract

import (
	"fmt"
	"path"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// IsSpec reports whether a changed file is an explicit specification file
// the axis compares: openapi.{yaml,yml,json}, swagger.{yaml,yml,json}, or
// any .yaml, .yml or .json whose name holds "openapi" or "swagger".
// Contracts inferred from code and GraphQL schemas are out of scope.
func IsSpec(name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	ext := path.Ext(base)
	if ext != ".yaml" && ext != ".yml" && ext != ".json" {
		return false
	}
	return strings.Contains(base, "openapi") || strings.Contains(base, "swagger")
}

// Image is one side of a specification file, rebuilt: its text, and for
// each of its lines the index of the patch line it came from (-1 for a
// line the patch does not show).
type Image struct {
	Text []byte
	At   []int32
}

// PatchLine is the patch line of line n (from 1) of the image, or -1.
func (m Image) PatchLine(n int) int {
	if n < 1 || n > len(m.At) {
		return -1
	}
	return int(m.At[n-1])
}

// Sides are both sides of a specification file as the review changes it.
type Sides struct {
	Old, New Image
	// Derived is set when a side might not be the reviewed text (the
	// working tree holds the patch's lines elsewhere than the patch says,
	// or the patch's one hunk might not reach the end of the file): the
	// comparison is indicative and never gates.
	Derived bool
	// How says where the texts came from, for the reader.
	How string
}

// Errors of Rebuild: why a file's sides could not be rebuilt.
var (
	errNoTree     = fmt.Errorf("the patch shows only hunks of it, and there is no working tree to read it from")
	errNotHeld    = fmt.Errorf("the working tree's file holds neither side of the patch's hunks")
	errBinary     = fmt.Errorf("the patch does not show its text (binary or mode change)")
	errMalformed  = fmt.Errorf("its hunks overlap or are out of order")
	maxShiftCheck = 1 << 22 // line comparisons a shifted search may make
)

// Rebuild returns both sides of the file diff f of the patch p: from the
// patch alone for a new or deleted file or a full-context diff, else from
// the working tree t (nil when there is none): the file on disk is the
// RIGHT image when it holds the patch's RIGHT lines (the LEFT image is
// then the file with the hunks reversed), or the LEFT image when it holds
// the LEFT lines. The error says why neither works.
func Rebuild(p *exchange.Patch, f *anchor.FileDiff, t *worktree.Tree) (Sides, error) {
	if f.Status == anchor.Renamed && !f.Binary && len(f.Hunks) == 0 {
		// Both sides are one text: nothing to read, nothing changed.
		return Sides{How: "the patch (renamed, its text unchanged)"}, nil
	}
	if f.Binary || len(f.Hunks) == 0 {
		return Sides{}, errBinary
	}
	if !ordered(f) {
		return Sides{}, errMalformed
	}
	switch {
	case f.Status == anchor.NewFile || len(f.Hunks) == 1 && f.Hunks[0].OldCount == 0 && f.Hunks[0].OldStart == 0:
		return Sides{New: hunkImage(p, f, anchor.Right), How: "the patch (a new file)"}, nil
	case f.Status == anchor.DeletedFile || len(f.Hunks) == 1 && f.Hunks[0].NewCount == 0 && f.Hunks[0].NewStart == 0:
		return Sides{Old: hunkImage(p, f, anchor.Left), How: "the patch (a deleted file)"}, nil
	}
	var treeErr error = errNoTree
	if t != nil {
		s, err := fromTree(p, f, t)
		if err == nil {
			return s, nil
		}
		treeErr = err
	}
	if full, sure := fullContext(p, f); full {
		return Sides{Old: hunkImage(p, f, anchor.Left), New: hunkImage(p, f, anchor.Right), Derived: !sure,
			How: "the patch (one hunk from the first line)"}, nil
	}
	return Sides{}, treeErr
}

// ordered reports whether f's hunks follow one another on both sides.
func ordered(f *anchor.FileDiff) bool {
	for i := 1; i < len(f.Hunks); i++ {
		a, b := &f.Hunks[i-1], &f.Hunks[i]
		if b.OldStart < a.OldStart+a.OldCount || b.NewStart < a.NewStart+a.NewCount {
			return false
		}
	}
	return true
}

// fullContext reports whether f is one hunk from the first line of both
// sides, and whether it surely reaches the end of the file: it ends with
// more context than git's default three lines (the diff was made with a
// larger context), or with a "\ No newline at end of file" marker.
func fullContext(p *exchange.Patch, f *anchor.FileDiff) (full, sure bool) {
	if len(f.Hunks) != 1 {
		return false, false
	}
	h := &f.Hunks[0]
	if h.OldStart > 1 || h.NewStart > 1 {
		return false, false
	}
	trailing := 0
	for i := len(h.Lines) - 1; i >= 0; i-- {
		switch h.Lines[i].Kind() {
		case anchor.NoNewline:
			return true, true
		case anchor.Context:
			trailing++
			continue
		}
		break
	}
	return true, trailing > 3
}

// hunkImage is the side s of f made of its hunks' lines alone.
func hunkImage(p *exchange.Patch, f *anchor.FileDiff, s anchor.Side) Image {
	var b imageBuilder
	for _, h := range f.Hunks {
		for j, l := range h.Lines {
			if l.In(s) {
				b.add(f.Content(p, h.PatchLine(j)), int32(h.PatchLine(j)))
			}
		}
	}
	return b.image()
}

type imageBuilder struct {
	text strings.Builder
	at   []int32
}

func (b *imageBuilder) add(line string, patchLine int32) {
	b.text.WriteString(line)
	b.text.WriteByte('\n')
	b.at = append(b.at, patchLine)
}

func (b *imageBuilder) image() Image { return Image{Text: []byte(b.text.String()), At: b.at} }

// fromTree rebuilds the sides from the working tree's file.
func fromTree(p *exchange.Patch, f *anchor.FileDiff, t *worktree.Tree) (Sides, error) {
	name := f.NewName
	file, err := t.Read(name)
	if err != nil {
		if f.OldName == "" || f.OldName == name {
			return Sides{}, err
		}
		name = f.OldName
		if file, err = t.Read(name); err != nil {
			return Sides{}, err
		}
	}
	disk := lines(file)
	for _, shifted := range []bool{false, true} {
		for _, s := range []anchor.Side{anchor.Right, anchor.Left} {
			if shifts, ok := holds(p, f, s, disk, shifted); ok {
				return sidesOf(p, f, s, disk, shifts, shifted, name), nil
			}
		}
	}
	return Sides{}, fmt.Errorf("%s: %w", name, errNotHeld)
}

func lines(f *worktree.File) []string {
	out := make([]string, f.Lines())
	for i := range out {
		out[i] = f.Line(i + 1)
	}
	return out
}

// holds reports whether disk holds the side s of every hunk of f: at the
// numbers the patch gives (shifted false), or, searching, each hunk in
// order somewhere after the previous one (shifted true). shifts are how
// far each hunk is from where the patch says.
func holds(p *exchange.Patch, f *anchor.FileDiff, s anchor.Side, disk []string, shifted bool) ([]int, bool) {
	shifts := make([]int, len(f.Hunks))
	from, budget := 1, maxShiftCheck
	for hi := range f.Hunks {
		h := &f.Hunks[hi]
		start := imageStart(h, s)
		if !shifted {
			if !holdsAt(p, f, h, s, disk, start, &budget) {
				return nil, false
			}
			continue
		}
		found := false
		for at := from; at <= len(disk)+1 && budget > 0; at++ {
			if holdsAt(p, f, h, s, disk, at, &budget) {
				shifts[hi], found = at-start, true
				from = at + imageCount(h, s)
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return shifts, true
}

// holdsAt reports whether disk's lines from at are h's side s.
func holdsAt(p *exchange.Patch, f *anchor.FileDiff, h *anchor.Hunk, s anchor.Side, disk []string, at int, budget *int) bool {
	n := at
	for j, l := range h.Lines {
		if !l.In(s) {
			continue
		}
		*budget--
		if n > len(disk) || disk[n-1] != f.Content(p, h.PatchLine(j)) {
			return false
		}
		n++
	}
	return true
}

// imageStart is the first line of side s a hunk covers (the line after
// the one its header names when it covers none).
func imageStart(h *anchor.Hunk, s anchor.Side) int {
	start, count := h.NewStart, h.NewCount
	if s == anchor.Left {
		start, count = h.OldStart, h.OldCount
	}
	if count == 0 {
		return start + 1
	}
	return start
}

func imageCount(h *anchor.Hunk, s anchor.Side) int {
	if s == anchor.Left {
		return h.OldCount
	}
	return h.NewCount
}

// sidesOf makes the sides when disk is the side s of the file: s is disk
// as it is, the other side disk with each hunk's s lines replaced by its
// other side's.
func sidesOf(p *exchange.Patch, f *anchor.FileDiff, s anchor.Side, disk []string, shifts []int, shifted bool, name string) Sides {
	other := anchor.Left
	if s == anchor.Left {
		other = anchor.Right
	}
	var same, swapped imageBuilder
	pos := 1
	for hi := range f.Hunks {
		h := &f.Hunks[hi]
		start := imageStart(h, s) + shifts[hi]
		for ; pos < start; pos++ {
			same.add(disk[pos-1], -1)
			swapped.add(disk[pos-1], -1)
		}
		for j, l := range h.Lines {
			if l.In(s) {
				same.add(disk[pos-1], int32(h.PatchLine(j)))
				pos++
			}
			if l.In(other) {
				swapped.add(f.Content(p, h.PatchLine(j)), int32(h.PatchLine(j)))
			}
		}
	}
	for ; pos <= len(disk); pos++ {
		same.add(disk[pos-1], -1)
		swapped.add(disk[pos-1], -1)
	}
	out := Sides{Derived: shifted}
	if s == anchor.Right {
		out.New, out.Old = same.image(), swapped.image()
		out.How = "the working tree's " + name + " (the patch's RIGHT side), its hunks reversed for the LEFT"
	} else {
		out.Old, out.New = same.image(), swapped.image()
		out.How = "the working tree's " + name + " (the patch's LEFT side), its hunks applied for the RIGHT"
	}
	if shifted {
		out.How += "; its hunks are not where the patch puts them, so the texts may not be the reviewed ones"
	}
	return out
}
