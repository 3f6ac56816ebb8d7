// Package visual is the visual axis: when the patch changes interface
// components (widget classes) of a Flutter repository that has a
// Widgetbook app, the use cases of those components are rendered before
// and after (golden images) and compared pixel by pixel. Snapshots
// changed or removed hold the gate until a person approves them, with a
// comment whose body's first line reads "visual: approved — <snapshot>"
// (as the contract's decisions are written); unchanged, added and
// approved ones lift it. When the axis cannot run it is unavailable for
// exactly one reason (Reason); when the patch changes no Flutter
// interface code it does not apply.
package visual

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/verdict"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Reason is why the axis could not run: exactly one of four.
type Reason string

const (
	NoWidgetbook Reason = "no Widgetbook app in the repository"
	NoUseCases   Reason = "no golden-testable use cases"
	NoFlutterSDK Reason = "no Flutter SDK on the host"
	HarnessError Reason = "the golden harness failed"
)

// Snapshot states: changed and removed hold the gate until approved.
const (
	Changed   = "changed"
	Removed   = "removed"
	Unchanged = "unchanged"
	Added     = "added"
	Approved  = "approved"
)

// UseCase is one Widgetbook use case: its name, the component it
// renders, the file it is declared in and the function the annotation
// marks (a WidgetBuilder).
type UseCase struct {
	Name, Component, File, Function string
}

// Renderer renders the use cases of a job on its base and head sides as
// PNG images by use-case name. ErrPending: the images are being
// rendered elsewhere (the editor's background), not yet known.
type Renderer interface {
	Render(ctx context.Context, job *Job) (base, head map[string][]byte, err error)
}

// ErrPending is a renderer's answer while the images are rendered in the
// background: the axis is partial until they are.
var ErrPending = errors.New("rendering the golden images (flutter test) in the background")

// Options are what the axis needs of the host.
type Options struct {
	// LookPath finds the flutter command (exec.LookPath); nil: no SDK.
	LookPath func(file string) (string, error)
	// Renderer renders with the SDK found; nil: the harness fails,
	// saying so.
	Renderer Renderer
}

// Snapshot is one use case's golden image compared.
type Snapshot struct {
	Name, State string
	// Pixels differing, for a changed snapshot of one size.
	Pixels int
}

// Result is the axis for one review.
type Result struct {
	// Components are the widget classes the patch changes; none: the axis
	// does not apply.
	Components []string
	Reason     Reason
	Detail     string // what the reason is about
	UseCases   []UseCase
	Snapshots  []Snapshot
	// Pending: the renderer is rendering in the background.
	Pending bool
}

// Applies reports whether the patch changes Flutter interface code.
func (r *Result) Applies() bool { return len(r.Components) > 0 }

var (
	widgetClass = regexp.MustCompile(`class\s+([A-Za-z_]\w*)\s+extends\s+\w*Widget\b`)
	// useCaseRe is an annotation and the function it marks.
	useCaseRe   = regexp.MustCompile(`@(?:widgetbook\.)?UseCase\(([^)]*)\)\s*(?:Widget\??\s+)?([A-Za-z_]\w*)\s*\(`)
	useCaseType = regexp.MustCompile(`type:\s*([A-Za-z_]\w*)`)
	useCaseName = regexp.MustCompile(`name:\s*['"]([^'"]*)['"]`)
	widgetbook  = regexp.MustCompile(`(?m)^\s+widgetbook:`)
)

// Limits of the repository walk: a hostile tree costs this much at most.
const (
	maxEntries = 20000
	maxDart    = 2000
	maxRead    = 1 << 20
)

// isUIFile reports whether name is a Dart source of a package's lib/, not
// generated.
func isUIFile(name string) bool {
	if !strings.HasSuffix(name, ".dart") || strings.HasSuffix(name, ".g.dart") || strings.HasSuffix(name, ".freezed.dart") {
		return false
	}
	return strings.HasPrefix(name, "lib/") || strings.Contains(name, "/lib/")
}

// Host is the options of this host: the flutter command on PATH and a
// Flutter renderer of its own, which renders synchronously (`check`, the
// agent) and keeps its renders: a caller keeps the options for as long
// as it wants them kept.
func Host() Options { return Options{LookPath: exec.LookPath, Renderer: NewFlutter()} }

// Touches reports whether the patch changes a Dart file of a package's
// lib/: the one check a review without one pays.
func Touches(ix *anchor.Index) bool {
	for _, fd := range ix.Files {
		if isUIFile(fd.NewName) || isUIFile(fd.OldName) {
			return true
		}
	}
	return false
}

// Evaluate runs the axis on a review: its changed components read from
// the working tree t (the new side) and the patch (the old side), then
// the Widgetbook app, its use cases, the SDK and the renderer, in that
// order: the first that is missing is the reason.
func Evaluate(ctx context.Context, an *anchor.Analysis, t *worktree.Tree, opts Options) *Result {
	r := &Result{}
	if !Touches(an.Index) {
		return r
	}
	r.Components = components(an, t)
	if !r.Applies() {
		return r
	}
	var w walked
	if t != nil {
		w = walk(t)
	}
	var app, pkg string
	for _, p := range w.pubspecs {
		if text, ok := read(t, p); ok && widgetbook.MatchString(text) {
			app, pkg = path.Dir(p), packageName(text)
			break
		}
	}
	if app == "" {
		r.Reason = NoWidgetbook
		return r
	}
	var files []string
	for _, d := range w.darts {
		if !within(app, d) {
			continue
		}
		if text, ok := read(t, d); ok {
			if ucs := useCases(text, d, r.Components); len(ucs) > 0 {
				r.UseCases = append(r.UseCases, ucs...)
				files = append(files, d)
			}
		}
	}
	if len(r.UseCases) == 0 {
		r.Reason, r.Detail = NoUseCases, fmt.Sprintf("the Widgetbook app in %s has no use case of %s", app, strings.Join(r.Components, ", "))
		return r
	}
	flutter := ""
	if opts.LookPath != nil {
		flutter, _ = opts.LookPath("flutter")
	}
	if flutter == "" {
		r.Reason = NoFlutterSDK
		return r
	}
	if opts.Renderer == nil {
		r.Reason, r.Detail = HarnessError, "no golden renderer is configured for this host"
		return r
	}
	job, err := newJob(an, t, w, app, pkg, flutter, files, r.Components)
	var before, after map[string][]byte
	if err == nil {
		before, after, err = opts.Renderer.Render(ctx, job)
	}
	if err == nil {
		r.Snapshots, err = Snapshots(before, after, Approvals(an.Doc.Review.Comments))
	}
	switch {
	case errors.Is(err, ErrPending):
		r.Pending = true
	case err != nil:
		r.Reason, r.Detail = HarnessError, err.Error()
	}
	return r
}

// within reports whether the tree's file p is in the directory dir.
func within(dir, p string) bool { return dir == "." || strings.HasPrefix(p, dir+"/") }

// useCases are the use cases of the components that text, the Dart file
// name, declares: each annotation with a type among components and the
// function it marks.
func useCases(text, name string, components []string) []UseCase {
	var out []UseCase
	for _, m := range useCaseRe.FindAllStringSubmatch(text, -1) {
		ty, label := useCaseType.FindStringSubmatch(m[1]), useCaseName.FindStringSubmatch(m[1])
		if ty == nil || !slices.Contains(components, ty[1]) {
			continue
		}
		uc := UseCase{Component: ty[1], File: name, Name: ty[1], Function: m[2]}
		if label != nil {
			uc.Name = ty[1] + "/" + label[1]
		}
		out = append(out, uc)
	}
	return out
}

var pubspecName = regexp.MustCompile(`(?m)^name:\s*['"]?([a-z_][a-z0-9_]*)['"]?\s*$`)

// packageName is a pubspec's package name, "" when it has none Dart
// would take.
func packageName(pubspec string) string {
	if m := pubspecName.FindStringSubmatch(pubspec); m != nil {
		return m[1]
	}
	return ""
}

// components are the widget classes declared in the patch's changed UI
// files: from the working tree's file when there is one, else from the
// patch's lines of that file (either side).
func components(an *anchor.Analysis, t *worktree.Tree) []string {
	var out []string
	patch := &an.Doc.Review.Patch
	for _, fd := range an.Index.Files {
		name := fd.NewName
		if name == "" {
			name = fd.OldName
		}
		if !isUIFile(name) {
			continue
		}
		var texts []string
		if text, ok := read(t, fd.NewName); ok {
			texts = append(texts, text)
		}
		for i := fd.First; i <= fd.Last && i < patch.LineCount(); i++ {
			texts = append(texts, patch.LineText(i))
		}
		for _, text := range texts {
			for _, m := range widgetClass.FindAllStringSubmatch(text, -1) {
				if !slices.Contains(out, m[1]) {
					out = append(out, m[1])
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// read is the tree's file name as text, bounded.
func read(t *worktree.Tree, name string) (string, bool) {
	if t == nil || name == "" {
		return "", false
	}
	f, err := t.Read(name)
	if err != nil || f == nil || len(f.Text) > maxRead {
		return "", false
	}
	return f.Text, true
}

// walked is what walk found: the pubspec.yaml and Dart files, and a
// sum of every file's path, size and modification time (the renderer's
// memo key: any file changed, the images are rendered again).
type walked struct {
	pubspecs, darts []string
	stat            [sha256.Size]byte
}

// walk lists the tree's pubspec.yaml and Dart files, bounded, through
// its root (nothing outside it), without the directories of tools and
// builds.
func walk(t *worktree.Tree) walked {
	var w walked
	h := sha256.New()
	entries := 0
	_ = fs.WalkDir(t.Files().FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if entries++; entries > maxEntries {
			return fs.SkipAll
		}
		if d.IsDir() {
			if skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		// A review saved is no change to render: its approvals are read
		// after the images.
		if fi, err := d.Info(); err == nil && !strings.HasSuffix(p, ".review.json") {
			fmt.Fprintf(h, "%q %d %d %v\n", p, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
		}
		switch {
		case d.Name() == "pubspec.yaml":
			w.pubspecs = append(w.pubspecs, p)
		case strings.HasSuffix(p, ".dart") && len(w.darts) < maxDart:
			w.darts = append(w.darts, p)
		}
		return nil
	})
	h.Sum(w.stat[:0])
	slices.Sort(w.pubspecs)
	return w
}

// skipDir reports whether a directory of this name holds tools' and
// builds' files, never read or copied.
func skipDir(name string) bool {
	switch name {
	case ".git", ".dart_tool", "build", "node_modules", ".pub-cache":
		return true
	}
	return false
}

// ApprovalPrefix begins the first line of an approval.
const ApprovalPrefix = "visual: approved"

// Approvals are the snapshots the review's active comments approve:
// those whose body's first line reads "visual: approved — <snapshot>".
func Approvals(comments []*exchange.Comment) []string {
	var out []string
	for _, c := range comments {
		if c.StateNorm() == exchange.StateDismissed {
			continue
		}
		line, _, _ := strings.Cut(c.Body, "\n")
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), ApprovalPrefix)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		for _, dash := range []string{"—", "--", "–", "-"} {
			if s, ok := strings.CutPrefix(rest, dash); ok {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
				break
			}
		}
	}
	return out
}

// Snapshots compares the images rendered before and after, by name.
func Snapshots(before, after map[string][]byte, approved []string) ([]Snapshot, error) {
	var names []string
	for n := range before {
		names = append(names, n)
	}
	for n := range after {
		if _, ok := before[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []Snapshot
	for _, n := range names {
		b, inBefore := before[n]
		f, inAfter := after[n]
		s := Snapshot{Name: n}
		switch {
		case !inBefore:
			s.State = Added
		case !inAfter:
			s.State = Removed
		default:
			d, err := Compare(b, f)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", n, err)
			}
			s.State, s.Pixels = Unchanged, d
			if d != 0 {
				s.State = Changed
			}
		}
		if (s.State == Changed || s.State == Removed) && slices.Contains(approved, n) {
			s.State = Approved
		}
		out = append(out, s)
	}
	return out, nil
}

// Axis is the result as the verdict reads it.
func (r *Result) Axis() verdict.Axis {
	a := verdict.Axis{Name: verdict.Visual}
	if !r.Applies() {
		return a
	}
	a.Applies = true
	if r.Pending {
		a.Status, a.Detail = verdict.Partial, "rendering the golden images"
		a.Reason = ErrPending.Error()
		return a
	}
	if r.Reason != "" {
		a.Status, a.Detail = verdict.Unavailable, string(r.Reason)
		if r.Detail != "" {
			a.Reason = r.Detail
		}
		return a
	}
	count := map[string]int{}
	for _, s := range r.Snapshots {
		count[s.State]++
	}
	var parts []string
	for _, st := range []string{Changed, Removed, Approved, Added, Unchanged} {
		if count[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[st], st))
		}
	}
	a.Detail = strings.Join(parts, ", ")
	switch {
	case count[Changed]+count[Removed] > 0:
		a.Status = verdict.Fail
		a.Detail += ": approve them (visual: approved — <snapshot>) or fix"
	case count[Approved] > 0:
		a.Status = verdict.Warn
	default:
		a.Status = verdict.Pass
	}
	return a
}
