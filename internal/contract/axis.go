package contract

import (
	"context"
	"fmt"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Status is what the axis reports: only Pass and Warn lift its gate.
type Status string

const (
	Pass        Status = "pass"
	Warn        Status = "warn"
	Fail        Status = "fail"
	Partial     Status = "partial"     // ran, but could not compare every file
	Unavailable Status = "unavailable" // could not compare any file
)

// Verdict aggregates the axes; an axis only makes it stricter.
type Verdict string

const (
	Ship  Verdict = "Ship"
	Hold  Verdict = "Hold"
	Block Verdict = "Block"
)

// File is one specification file the patch changes, and how its
// comparison went.
type File struct {
	Diff *anchor.FileDiff
	// Path is its name (the new one, the old one for a deleted file).
	Path string
	// Compared is set when both sides were rebuilt and compared; Reason
	// says why not, otherwise, and Cut is set when the comparison was
	// cut short (its budget, a newer version, the exit).
	Compared bool
	Reason   string
	Cut      bool
	Derived  bool
	How      string
}

// Finding is one change of the contract placed in the patch.
type Finding struct {
	File *File
	Change
	// PatchLine is the patch line the change is about (a line of its
	// hunks), or -1: the file's header then carries it.
	PatchLine int
	// Decision is Approved, Rejected or "" (undecided); DecidedBy the
	// index of the comment that decides it, or -1, and Decider its
	// author, the person who decided.
	Decision  string
	DecidedBy int
	Decider   string
}

// Ignored is a decision that does not count (Counts): the comment, why,
// and the findings (indexes in Result.Findings) it names.
type Ignored struct {
	Comment  int
	Why      string
	Findings []int
}

// Result is the axis for one review.
type Result struct {
	// Files are the specification files; none means the axis does not
	// apply and says nothing.
	Files    []*File
	Findings []Finding
	// Stale are the comments deciding a change the specification no
	// longer makes; Ignored the decisions that do not count.
	Stale   []int
	Ignored []Ignored
	// Status and Derived: Derived is set when a comparison was made from
	// texts that might not be the reviewed ones; it never gates.
	Status  Status
	Derived bool
	Verdict Verdict
	// Breaking counts the breaking findings; Undecided, Approved and
	// Rejected split them.
	Breaking, Undecided, Approved, Rejected int
}

// Applies reports whether the review changes a specification file.
func (r *Result) Applies() bool { return len(r.Files) > 0 }

// HasSpec reports whether the index holds a specification file: the one
// check a review without one pays.
func HasSpec(ix *anchor.Index) bool {
	for _, f := range ix.Files {
		if SpecName(f) != "" {
			return true
		}
	}
	return false
}

// SpecName is the name the axis gives the file diff f when it is a
// specification file, else "": its new name, or its old one when it was
// deleted or renamed from a specification's name — renaming
// api/openapi.yaml to api/spec.yaml does not take it out of the axis,
// its new text is compared with its old name's.
func SpecName(f *anchor.FileDiff) string {
	switch {
	case f.NewName != "" && IsSpec(f.NewName):
		return f.NewName
	case f.NewName == "" && IsSpec(f.OldName):
		return f.OldName
	case f.Status == anchor.Renamed && IsSpec(f.OldName):
		return f.NewName
	}
	return ""
}

// Options are what the axis reads besides the review: the working tree
// (nil: the patch alone), the comparisons kept (nil: none), the budget
// (zero: the default).
type Options struct {
	Tree   *worktree.Tree
	Cache  *Cache
	Budget Budget
}

// Evaluate runs the axis on a review: each specification file of the
// index rebuilt (Rebuild) and compared within the budget, each breaking
// change matched with the comments deciding it. When ctx ends first, the
// files not compared yet are cut short (the result is partial).
func Evaluate(ctx context.Context, an *anchor.Analysis, o Options) *Result {
	r := &Result{}
	b := o.Budget.orDefault()
	ix := an.Index
	if !HasSpec(ix) {
		return r
	}
	for _, fd := range ix.Files {
		name := SpecName(fd)
		if name == "" {
			continue
		}
		f := &File{Diff: fd, Path: name}
		r.Files = append(r.Files, f)
		sides, err := Rebuild(ix.Patch, fd, o.Tree)
		if err != nil {
			f.Reason = err.Error()
			continue
		}
		changes, err := o.Cache.compare(ctx, name, sides.Old.Text, sides.New.Text, b)
		if err != nil {
			f.Reason, f.Cut = err.Error(), IsCut(err)
			continue
		}
		f.Compared, f.Derived, f.How = true, sides.Derived, sides.How
		for _, ch := range changes {
			at := sides.New.PatchLine(ch.NewLine)
			if at < 0 {
				at = sides.Old.PatchLine(ch.OldLine)
			}
			r.Findings = append(r.Findings, Finding{File: f, Change: ch, PatchLine: at, DecidedBy: -1})
		}
	}
	r.decide(an)
	r.judge()
	return r
}

// decide matches the decisions that count (Counts) with the breaking
// findings of the file they anchor to, by summary; the last decision in
// the document wins. A counting decision on a file the axis compared
// that matches no breaking finding is stale; one that does not count is
// kept, with why, for the findings it names (Ignored).
func (r *Result) decide(an *anchor.Analysis) {
	type key struct {
		file    *File
		summary string
	}
	byKey := map[key][]int{}
	for i := range r.Findings {
		if fd := &r.Findings[i]; fd.Severity == Breaking {
			k := key{fd.File, fd.Summary}
			byKey[k] = append(byKey[k], i)
		}
	}
	var resolutions []*anchor.Resolution
	if an.Anchors != nil {
		resolutions = an.Anchors.Resolutions
	}
	for ci, c := range an.Doc.Review.Comments {
		word, summary, ok := ParseDecision(c.Body)
		if !ok {
			continue
		}
		var res *anchor.Resolution
		if ci < len(resolutions) {
			res = resolutions[ci]
		}
		f := r.fileOf(c, res)
		if f == nil {
			continue // a decision on a file that is no description, or on none
		}
		found := byKey[key{f, summary}]
		if why := Counts(c, res, &an.Doc.Review.Patch); why != "" {
			if len(found) > 0 {
				r.Ignored = append(r.Ignored, Ignored{Comment: ci, Why: why, Findings: found})
			}
			continue
		}
		for _, i := range found {
			fd := &r.Findings[i]
			fd.Decision, fd.DecidedBy, fd.Decider = word, ci, c.Author
		}
		if len(found) == 0 && f.Compared {
			r.Stale = append(r.Stale, ci)
		}
	}
}

// fileOf is the description the decision c names: the file it resolves
// to, else (it does not resolve) the one its path names.
func (r *Result) fileOf(c *exchange.Comment, res *anchor.Resolution) *File {
	for _, f := range r.Files {
		if res != nil && res.Resolved && res.File == f.Diff || (res == nil || !res.Resolved) && names(f, c.Path) {
			return f
		}
	}
	return nil
}

func names(f *File, path string) bool {
	return path == f.Path || path == f.Diff.OldName || path == f.Diff.NewName
}

// judge sets the status and verdict: a rejected or undecided breaking
// change of an exact comparison fails (Block); a file not compared makes
// the axis partial (a comparison cut short, or other files compared) or
// unavailable (at least Hold); a derived comparison
// neither fails nor lifts the gate (Hold); approved breaking changes
// warn, and no breaking change passes (Ship).
func (r *Result) judge() {
	gatedFail, derivedFail, warned := false, false, false
	for _, f := range r.Findings {
		if f.Severity != Breaking {
			continue
		}
		r.Breaking++
		switch f.Decision {
		case Approved:
			r.Approved++
			warned = true
			continue
		case Rejected:
			r.Rejected++
		default:
			r.Undecided++
		}
		if f.File.Derived {
			derivedFail = true
		} else {
			gatedFail = true
		}
	}
	compared, cut := 0, false
	for _, f := range r.Files {
		if f.Compared {
			compared++
			r.Derived = r.Derived || f.Derived
		}
		cut = cut || f.Cut
	}
	switch {
	case gatedFail:
		r.Status, r.Verdict = Fail, Block
	case compared == 0 && !cut:
		r.Status, r.Verdict = Unavailable, Hold
	case compared < len(r.Files):
		r.Status, r.Verdict = Partial, Hold
	case derivedFail:
		r.Status, r.Verdict = Fail, Hold
	case warned:
		r.Status, r.Verdict = Warn, Ship
	default:
		r.Status, r.Verdict = Pass, Ship
	}
	if r.Derived && r.Verdict == Ship {
		r.Verdict = Hold
	}
}

// Summary is the axis and the verdict in one line:
// "contract: fail (2 breaking, undecided) · verdict: Block".
func (r *Result) Summary() string {
	return "contract: " + r.StatusWords() + " · verdict: " + string(r.Verdict)
}

// StatusWords is the axis's status with what makes it:
// "fail (2 breaking, undecided)", "unavailable (openapi.yaml: …)".
func (r *Result) StatusWords() string {
	status := string(r.Status)
	if r.Derived && r.Status != Unavailable {
		status += ", derived"
	}
	// Unavailable says why; otherwise the files not compared are counted
	// whatever the status (a failure found in the others does not make
	// them compared), their reasons on their headers.
	var parts []string
	compared := 0
	for _, f := range r.Files {
		if f.Compared {
			compared++
		} else if r.Status == Unavailable || f.Cut {
			parts = append(parts, f.Path+" not compared: "+f.Reason)
		}
	}
	count := fmt.Sprintf("%d of %d specifications compared", compared, len(r.Files))
	switch {
	case r.Status == Partial:
		parts = append(parts, count, r.breakingWords())
	case r.Status != Unavailable && compared < len(r.Files):
		parts = append(parts, r.breakingWords(), count)
	case r.Status != Unavailable:
		parts = append(parts, r.breakingWords())
	}
	if n := len(r.Stale); n > 0 {
		parts = append(parts, anchor.Plural(n, "stale decision", "stale decisions"))
	}
	return status + " (" + strings.Join(parts, "; ") + ")"
}

// breakingWords is "2 breaking, undecided", "3 breaking: 2 undecided, 1
// approved by hduran" or "no breaking change".
func (r *Result) breakingWords() string {
	if r.Breaking == 0 {
		return "no breaking change"
	}
	var split []string
	for _, w := range []struct {
		n    int
		word string
	}{{r.Rejected, Rejected}, {r.Undecided, "undecided"}, {r.Approved, Approved}} {
		if w.n > 0 {
			split = append(split, fmt.Sprintf("%d %s", w.n, w.word)+r.deciders(w.word))
		}
	}
	if len(split) == 1 {
		_, word, _ := strings.Cut(split[0], " ")
		return fmt.Sprintf("%d breaking, %s", r.Breaking, word)
	}
	return fmt.Sprintf("%d breaking: %s", r.Breaking, strings.Join(split, ", "))
}

// deciders is " by hduran, mlefèvre": who made the decisions word on
// breaking findings, in the findings' order, or "".
func (r *Result) deciders(word string) string {
	var names []string
	seen := map[string]bool{}
	for _, f := range r.Findings {
		if f.Severity == Breaking && f.Decision == word && !seen[f.Decider] {
			seen[f.Decider] = true
			names = append(names, f.Decider)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " by " + strings.Join(names, ", ")
}
