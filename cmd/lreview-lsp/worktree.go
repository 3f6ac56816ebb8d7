package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// `locate` and `apply`: the review against its working tree, the
// reviewed repository (the nearest ancestor of the review holding .git,
// or --root).

// worktreeInput is a review analyzed, with its working tree.
type worktreeInput struct {
	name string
	an   *anchor.Analysis
	tree *worktree.Tree
}

// openWorktree reads the review name and opens its working tree.
func openWorktree(name, root string, stdin io.Reader) (*worktreeInput, error) {
	v, err := reviewInput(name, stdin)
	if err != nil {
		return nil, err
	}
	if err := v.Document().SyntaxRefusal("read it against the working tree"); err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(name), err)
	}
	if root == "" && name != "-" {
		root = worktree.FindRoot(name)
	}
	if root == "" {
		return nil, fmt.Errorf("%s: no working tree: no directory above it holds .git; name one with --root DIR", displayName(name))
	}
	tree, err := worktree.Open(root)
	if err != nil {
		return nil, err
	}
	an, err := v.Analysis(context.Background())
	if err != nil {
		return nil, err
	}
	return &worktreeInput{name: name, an: an, tree: tree}, nil
}

// located is one comment's line of `locate --format json`.
type located struct {
	ID      string `json:"id"`
	Index   int    `json:"index"`
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	EndLine int    `json:"end_line,omitempty"`
	Moved   int    `json:"moved"`
	Found   bool   `json:"found"`
	Reason  string `json:"reason,omitempty"`
}

func runLocate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("locate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "the working tree's directory (default: the nearest ancestor of FILE holding .git)")
	format := fs.String("format", "text", "text or json")
	if fs.Parse(args) != nil || fs.NArg() != 1 || *format != "text" && *format != "json" {
		fmt.Fprintln(stderr, "lreview-lsp locate: usage: lreview-lsp locate [--root DIR] [--format text|json] FILE")
		return 2
	}
	in, err := openWorktree(fs.Arg(0), *root, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp locate: %v\n", err)
		return 2
	}
	out := []located{}
	for ci, c := range in.an.Doc.Review.Comments {
		loc := in.tree.LocateComment(&in.an.Doc.Review.Patch, in.an.Anchors.Resolutions[ci])
		l := located{ID: c.Name(), Index: ci, Path: loc.Path, Found: loc.Found()}
		if loc.Found() {
			l.Line, l.EndLine, l.Moved = loc.Start, loc.End, loc.Moved()
		} else {
			l.Reason = reason(loc.Err)
		}
		out = append(out, l)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			return 2
		}
		return 0
	}
	for _, l := range out {
		if l.Found {
			fmt.Fprintf(stdout, "%s %s:%d\n", l.ID, l.Path, l.Line)
		} else {
			fmt.Fprintf(stdout, "%s not found: %s\n", l.ID, l.Reason)
		}
	}
	return 0
}

// reason words a location's error for a line of output.
func reason(err error) string {
	if errors.Is(err, worktree.ErrChanged) {
		return "the code changed since the review: " + err.Error()
	}
	return err.Error()
}

func runApply(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dry := fs.Bool("dry-run", false, "print the changes as a unified diff; write nothing")
	root := fs.String("root", "", "the working tree's directory (default: the nearest ancestor of FILE holding .git)")
	if fs.Parse(args) != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "lreview-lsp apply: usage: lreview-lsp apply [--dry-run] [--root DIR] FILE")
		return 2
	}
	in, err := openWorktree(fs.Arg(0), *root, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp apply: %v\n", err)
		return 2
	}
	status, applied := 0, 0
	byFile := map[*worktree.File][]features.Suggestion{}
	var files []*worktree.File
	for ci := range in.an.Doc.Review.Comments {
		sg, err := features.SuggestionOf(in.an, in.tree, ci)
		if features.IsApplied(err) {
			// The tree holds what was asked for: done, not a failure.
			fmt.Fprintf(stderr, "%s: already applied\n", (in.an.Doc.Review.Comments[ci]).Name())
			applied++
			continue
		}
		if err != nil {
			if !features.IsNoSuggestion(err) {
				fmt.Fprintf(stderr, "%s: skipped: %v\n", in.an.Doc.Review.Comments[ci].Name(), err)
				status = 1
			}
			continue
		}
		if other := overlapping(byFile[sg.File], sg); other != "" {
			fmt.Fprintf(stderr, "%s: skipped: its lines overlap %s's suggestion\n", sg.Name, other)
			status = 1
			continue
		}
		if byFile[sg.File] == nil {
			files = append(files, sg.File)
		}
		byFile[sg.File] = append(byFile[sg.File], sg)
	}
	if len(files) == 0 && status == 0 && applied == 0 {
		fmt.Fprintf(stderr, "lreview-lsp apply: %s: no comment holds a suggestion block; nothing to apply\n", displayName(fs.Arg(0)))
	}
	for _, f := range files {
		sgs := byFile[f]
		after := applySuggestions([]byte(f.Text), sgs)
		if *dry {
			fmt.Fprint(stdout, exchange.Unified(f.Path, []byte(f.Text), after))
			for _, sg := range sgs {
				fmt.Fprintf(stderr, "%s: would apply to %s\n", sg.Name, sg.Place)
			}
			continue
		}
		if err := writeSource(in.tree, f, after); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp apply: %v\n", err)
			status = 1
			continue
		}
		for _, sg := range sgs {
			fmt.Fprintf(stderr, "%s: applied to %s\n", sg.Name, sg.Place)
		}
	}
	return status
}

// overlapping names the suggestion of sgs whose lines sg's overlap, or "".
func overlapping(sgs []features.Suggestion, sg features.Suggestion) string {
	for _, o := range sgs {
		if sg.Start <= o.End && o.Start <= sg.End {
			return o.Name
		}
	}
	return ""
}

// applySuggestions applies the edits of sgs, which do not overlap, to data.
func applySuggestions(data []byte, sgs []features.Suggestion) []byte {
	sorted := slices.Clone(sgs)
	slices.SortFunc(sorted, func(a, b features.Suggestion) int { return b.Edit.Start - a.Edit.Start })
	out := slices.Clone(data)
	for _, sg := range sorted {
		out = slices.Concat(out[:sg.Edit.Start], []byte(sg.Edit.NewText), out[sg.Edit.End:])
	}
	return out
}

// writeSource writes after over f's file, through the tree's root (no
// path is resolved again by name: a directory swapped for a link meanwhile
// leads nowhere outside the tree), refused when the file is no longer what
// the suggestions were computed from.
func writeSource(tree *worktree.Tree, f *worktree.File, after []byte) error {
	o, err := filewrite.ReadIn(tree.Files(), f.Path)
	if err != nil {
		return err
	}
	if string(o.Data) != f.Text {
		return fmt.Errorf("%s changed since it was read; nothing written — run again", f.Path)
	}
	return o.Replace(after)
}
