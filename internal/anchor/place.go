package anchor

import (
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Placing a new comment: the lines a comment about to be written will
// anchor to, found by numbers or by its snippet, or why there are none,
// with the valid places nearest to what was asked. It applies the rules
// comments are resolved by (resolve.go), so that a comment placed here
// always resolves.

// Place is a range of lines of one image of a file diff, all in one hunk.
type Place struct {
	File *FileDiff
	Side Side
	Hunk int
	// First and Last are indexes in File.Hunks[Hunk].Lines, inclusive.
	First, Last int
	// Start and End are the image line numbers of the range's ends.
	Start, End int
}

// Path is the file's name on the place's side.
func (p Place) Path() string { return p.File.Name(p.Side) }

// Lines returns the place's lines of its image.
func (p Place) Lines() []ImageLine {
	return imageLines(&p.File.Hunks[p.Hunk], p.First, p.Last, p.Side)
}

// String is the place as messages write it: "RIGHT 72–74".
func (p Place) String() string { return LineSpan(p.Side, p.Start, p.End) }

// PlaceError says why a comment cannot be placed: Member is the argument
// at fault (path, side, start_line, end_line or snippet), Msg what was
// wrong and where valid places are.
type PlaceError struct {
	Member, Msg string
}

func (e *PlaceError) Error() string { return e.Member + ": " + e.Msg }

// PlaceFile returns the file diff path names on side s. A renamed file's
// other name is accepted (the place's Path is then its name on s).
func PlaceFile(ix *Index, path string, s Side) (*FileDiff, error) {
	g := ix.FileEither(path, s)
	if g == nil {
		return nil, &PlaceError{"path", fmt.Sprintf("%q is not a file of the patch; its files are %s", path, quoteAll(ix.Paths()))}
	}
	if f, _ := ix.FileFor(path, s); f != nil && HasImage(f, s) {
		return f, nil
	}
	// Named on the other side only, or without an image of s.
	return nil, &PlaceError{"side", fmt.Sprintf("%q has no %s image in the patch (%s); use side %s", path, s, statusWord(g), s.other())}
}

func statusWord(f *FileDiff) string {
	switch {
	case f.Status == NewFile:
		return "a new file"
	case f.Status == DeletedFile:
		return "a deleted file"
	case f.Binary:
		return "a binary file"
	case len(f.Hunks) == 0:
		return "no hunk"
	}
	return "no such image"
}

// PlaceLines returns the place of lines start..end of f's image on side s,
// or a PlaceError naming the nearest valid lines.
func PlaceLines(f *FileDiff, s Side, start, end int) (Place, error) {
	if start < 1 {
		return Place{}, &PlaceError{"start_line", fmt.Sprintf("%d is not a line number: lines count from 1; %s", start, validPlaces(f, s, 1))}
	}
	if end < start {
		return Place{}, &PlaceError{"end_line", fmt.Sprintf("%d is before start_line %d: give end_line >= start_line, or leave it out for one line", end, start)}
	}
	h, i, ok := f.Find(s, start)
	if !ok {
		return Place{}, &PlaceError{"start_line", fmt.Sprintf("%s of %q is not in the patch; %s", LineSpan(s, start, start), f.Name(s), validPlaces(f, s, start))}
	}
	h2, i2, ok := f.Find(s, end)
	switch {
	case !ok:
		return Place{}, &PlaceError{"end_line", fmt.Sprintf("%s of %q is not in the patch; %s", LineSpan(s, end, end), f.Name(s), validPlaces(f, s, end))}
	case h2 != h:
		first, last := f.Hunks[h].Span(s)
		return Place{}, &PlaceError{"end_line", fmt.Sprintf("%s crosses hunks: a range must stay inside one hunk; the hunk of start_line holds %s", LineSpan(s, start, end), LineSpan(s, first, last))}
	}
	return Place{File: f, Side: s, Hunk: h, First: i, Last: i2, Start: start, End: end}, nil
}

// validPlaces says which lines of f's image on side s are in the patch,
// the hunk nearest to line first.
func validPlaces(f *FileDiff, s Side, line int) string {
	_, first, last, ok := NearestHunk(f, s, line)
	if !ok {
		return fmt.Sprintf("the patch shows no %s line of %q", s, f.Name(s))
	}
	msg := fmt.Sprintf("the nearest lines in the patch are %s", LineSpan(s, first, last))
	if spans := hunkSpans(f, s); len(spans) > 1 {
		msg += " (its hunks hold " + strings.Join(spans, ", ") + ")"
	}
	return msg
}

// hunkSpans lists the image spans of f's hunks on side s, at most eight.
func hunkSpans(f *FileDiff, s Side) []string {
	var out []string
	for i := range f.Hunks {
		first, last := f.Hunks[i].Span(s)
		if last < first {
			continue
		}
		if len(out) == 8 {
			return append(out, "…")
		}
		out = append(out, LineSpan(s, first, last))
	}
	return out
}

// FindSnippet returns every place of f's image on side s whose lines match
// snippet (SnippetMatches), as many lines as the snippet has, in patch
// order. A blank snippet, or one too weak to anchor by (no letter or
// digit: "}"), is a PlaceError.
func FindSnippet(patch *exchange.Patch, f *FileDiff, s Side, snippet string) ([]Place, error) {
	variants := snippetVariants(snippet, s)
	if len(variants) == 0 {
		return nil, &PlaceError{"snippet", "is blank: give the text of the line(s) to comment on, or start_line"}
	}
	if weakSnippet(variants[0]) {
		return nil, &PlaceError{"snippet", fmt.Sprintf("%q holds no letter or digit, which matches too many lines to anchor by: give start_line", Clip(snippet))}
	}
	k := len(variants[0])
	var out []Place
	for h := range f.Hunks {
		var idx []int // the hunk's lines of the image
		for i, l := range f.Hunks[h].Lines {
			if l.In(s) {
				idx = append(idx, i)
			}
		}
		for i := 0; i+k <= len(idx); i++ {
			lines := f.Hunks[h].Lines
			p := Place{File: f, Side: s, Hunk: h, First: idx[i], Last: idx[i+k-1],
				Start: lines[idx[i]].Number(s), End: lines[idx[i+k-1]].Number(s)}
			if SnippetMatches(snippet, s, patch, f, p.Lines()) {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// SnippetNotFound is the PlaceError of a snippet found nowhere in f's image on side s.
func SnippetNotFound(f *FileDiff, s Side, snippet string) error {
	msg := fmt.Sprintf("%q is not in the %s image of %q", Clip(snippet), s, f.Name(s))
	if spans := hunkSpans(f, s); len(spans) > 0 {
		msg += "; its lines in the patch are " + strings.Join(spans, ", ")
	}
	return &PlaceError{"snippet", msg + ": quote a line of the patch as it is, or give start_line"}
}

// SnippetAmbiguous is the PlaceError of a snippet found at several places.
func SnippetAmbiguous(snippet string, places []Place) error {
	names := make([]string, len(places))
	for i, p := range places {
		names[i] = p.String()
	}
	return &PlaceError{"snippet", fmt.Sprintf("%q is at %d places (%s): give start_line to choose one, or a longer snippet", Clip(snippet), len(places), strings.Join(names, ", "))}
}

// SnippetMismatch is the PlaceError of a snippet that is not what the
// lines of p hold: where the snippet is, if anywhere.
func SnippetMismatch(patch *exchange.Patch, p Place, snippet string, found []Place) error {
	msg := fmt.Sprintf("%q is not what %s of %q holds (%q)", Clip(snippet), p, p.Path(), Clip(SnippetOf(patch, p.File, p.Lines())))
	switch {
	case len(found) == 1:
		msg += fmt.Sprintf("; it is at %s: use start_line %d", found[0], found[0].Start)
	case len(found) > 1:
		names := make([]string, len(found))
		for i, q := range found {
			names[i] = q.String()
		}
		msg += "; it is at " + strings.Join(names, ", ")
	default:
		msg += "; it is nowhere in that image: leave snippet out to take the lines' text"
	}
	return &PlaceError{"snippet", msg}
}
