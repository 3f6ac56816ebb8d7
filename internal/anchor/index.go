// Package anchor resolves review comments against the patch embedded in a
// review exchange document: it indexes the patch, resolves each comment's
// (path, side, start_line, end_line), detects drift, and builds the fixes.
package anchor

import (
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// Side is a patch image: LEFT is the old file, RIGHT the new one.
type Side uint8

const (
	Left Side = iota
	Right
)

func (s Side) String() string {
	if s == Left {
		return "LEFT"
	}
	return "RIGHT"
}

// ParseSide reads a side case-insensitively, as the spec allows.
func ParseSide(s string) (Side, bool) {
	switch {
	case len(s) == 4 && (s[0]|0x20) == 'l' && (s[1]|0x20) == 'e' && (s[2]|0x20) == 'f' && (s[3]|0x20) == 't':
		return Left, true
	case len(s) == 5 && (s[0]|0x20) == 'r' && (s[1]|0x20) == 'i' && (s[2]|0x20) == 'g' && (s[3]|0x20) == 'h' && (s[4]|0x20) == 't':
		return Right, true
	}
	return Right, false
}

// LineKind is what a diff line is.
type LineKind uint8

const (
	Context   LineKind = iota // " text": in both images
	Added                     // "+text": RIGHT image only
	Removed                   // "-text": LEFT image only
	NoNewline                 // "\ No newline at end of file": in neither image
)

// DiffLine is one body line of a hunk. A large review holds one per patch
// line for as long as it is open, so it is 8 bytes: numbers are 32 bits
// (the header parser refuses larger ones), its kind is derived from them
// (Kind), its patch line from its place in its hunk (Hunk.PatchLine), and
// its text is read from that patch line (FileDiff.Content).
type DiffLine struct {
	// Old and New are the line's numbers in the LEFT and RIGHT images; 0
	// when the line is not part of that image.
	Old, New int32
}

// ImageLine is a body line with its patch line, as a run of one image
// lists them (Resolution.Lines): the run may skip lines of its hunk.
type ImageLine struct {
	DiffLine
	Patch int
}

// Kind is what the line's numbers say it is: a Context line has both, an
// Added line only New, a Removed line only Old, a NoNewline line neither.
// It is not stored, as a large review holds one DiffLine per patch line.
// The zero DiffLine is NoNewline.
func (l DiffLine) Kind() LineKind {
	switch {
	case l.Old > 0 && l.New > 0:
		return Context
	case l.New > 0:
		return Added
	case l.Old > 0:
		return Removed
	}
	return NoNewline
}

// In reports whether the line belongs to the image of side.
func (l DiffLine) In(s Side) bool {
	if s == Left {
		return l.Old > 0
	}
	return l.New > 0
}

// Number returns the line's number in the image of side (0 if absent).
func (l DiffLine) Number(s Side) int {
	if s == Left {
		return int(l.Old)
	}
	return int(l.New)
}

// Hunk is one @@ section of a file diff.
type Hunk struct {
	// Header is the index among exchange.Patch's lines of the "@@ ... @@" line.
	Header                                 int
	OldStart, OldCount, NewStart, NewCount int
	// Section is the text after the closing "@@", often a function name.
	Section string
	Lines   []DiffLine
}

// PatchLine is the index among exchange.Patch's lines of body line j: a
// hunk's body lines are consecutive patch lines after its header, so a
// line's place is not stored (a large review holds one DiffLine per line).
// For a file's text outside any patch (Text) the header is -1 and it is
// the line's index in the text.
func (h *Hunk) PatchLine(j int) int { return h.Header + 1 + j }

// FileStatus describes what a file diff does to its file.
type FileStatus uint8

const (
	Modified FileStatus = iota
	NewFile
	DeletedFile
	Renamed
	Copied
)

// FileDiff is the diff of one file.
type FileDiff struct {
	// OldName and NewName are the paths without the a/ and b/ prefixes; the
	// absent side of a new or deleted file is "".
	OldName, NewName string
	// Written holds, for a plain (non-git) diff, the old and new names as
	// its "---"/"+++" lines write them (a/x, old/x, x.orig), where they
	// differ from OldName and NewName: a comment may name the file by them
	// too, on either side, with a header-path hint.
	Written [2]string
	Status  FileStatus
	Binary  bool
	// ModeOnly is set for a diff that changes only the file mode.
	ModeOnly bool
	// First and Last are the indexes among exchange.Patch's lines of the file
	// diff's first and last lines (headers included).
	First, Last int
	Hunks       []Hunk
	// spans holds, per side, each hunk's first and last image line numbers
	// and ordered whether they ascend without overlap (so that Find may
	// binary-search them); both are set by BuildIndex.
	spans   [2][]imageSpan
	ordered [2]bool
	// lines is the body lines of every hunk, hunk after hunk: the one
	// array the hunks' Lines are slices of (set by BuildIndex).
	lines []DiffLine
	// texts identifies the patch the file diff was read from (Content
	// reads its lines from the version's patch); plain holds the lines'
	// texts instead for a file's text outside any patch (text.go), where
	// a line's patch line (Hunk.PatchLine) is its index in plain.
	texts *patchTexts
	plain []string
}

// patchTexts identifies the patch text an index was built from: the
// versions it is shared with (reuseIndex) spell the patch alike, and each
// reads the lines' texts from its own patch, so that the index holds no
// version's text.
type patchTexts struct{ _ byte }

// Content returns the text of f's body line at patch line i
// (Hunk.PatchLine) without its diff marker (nor the "\r" the index drops
// from a CRLF line), read from p, the patch of a version whose index
// holds f (Index.Patch); p is not read for a file's text outside any
// patch (Text).
func (f *FileDiff) Content(p *exchange.Patch, i int) string {
	if f.plain != nil {
		return f.plain[i]
	}
	return content(p.LineText(i))
}

// content is a line's text without its diff marker and carriage return.
func content[T string | []byte](t T) T {
	if n := len(t); n > 0 && t[n-1] == '\r' {
		t = t[:n-1]
	}
	if len(t) == 0 {
		return t
	}
	return t[1:]
}

// Index is the patch of one document, parsed into files, hunks and
// numbered lines. It is built once per patch text and read by every
// feature; it never changes after BuildIndex returns.
type Index struct {
	Patch *exchange.Patch
	Files []*FileDiff
	// Problems are the patch-level diagnostics: patch-parse,
	// hunk-count-mismatch (with its header-count fix) and patch-empty.
	Problems []exchange.Diagnostic
	// look is what BuildIndex precomputes for FileFor and Paths (nil in an
	// Index built by hand: the lookups then scan).
	look *lookup
	// texts is the one its file diffs share (nil in an Index built by
	// hand).
	texts *patchTexts
}
