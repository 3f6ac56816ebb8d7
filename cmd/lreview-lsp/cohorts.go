package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/diagram"
	"github.com/leanreview/lreview-lsp/internal/forge"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// `cohorts`: the review's shape against its working tree — cohorts
// riskiest first, or (--deps) the dependency changes.

// cohortsOutput is `cohorts --format json` (documented in the README).
type cohortsOutput struct {
	Review   string               `json:"review"`
	Graph    graphSummary         `json:"graph"`
	Coverage []codegraph.Coverage `json:"coverage"`
	Cohorts  []*cohort.Cohort     `json:"cohorts"`
	Deps     []cohort.DepChange   `json:"dependency_changes"`
}

type graphSummary struct {
	Files     int    `json:"files"`
	Defs      int    `json:"definitions"`
	Truncated string `json:"truncated,omitempty"`
}

func runCohorts(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cohorts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "the working tree's directory (default: the nearest ancestor of FILE holding .git)")
	format := fs.String("format", "text", "text or json")
	deps := fs.Bool("deps", false, "print the dependency changes only")
	if fs.Parse(args) != nil || fs.NArg() != 1 || *format != "text" && *format != "json" {
		fmt.Fprintln(stderr, "lreview-lsp cohorts: usage: lreview-lsp cohorts [--format text|json] [--root DIR] [--deps] FILE")
		return 2
	}
	in, err := openWorktree(fs.Arg(0), *root, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp cohorts: %v\n", err)
		return 2
	}
	files := in.tree.Files()
	g, err := codegraph.Build(context.Background(), files, codegraph.Limits{}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "lreview-lsp cohorts: %v (the graph read so far is used)\n", err)
	}
	shape, _ := cohort.Of(in.an, g, func(p string) []string {
		data, err := files.ReadFile(p)
		if err != nil || len(data) > int(codegraph.DefaultLimits.FileBytes) {
			return nil
		}
		return strings.Split(string(data), "\n")
	})
	if *format == "json" {
		var v any = cohortsOutput{Review: displayName(fs.Arg(0)), Coverage: shape.Coverage, Cohorts: shape.Cohorts, Deps: shape.Deps,
			Graph: graphSummary{Files: len(g.Paths()), Defs: len(g.Defs), Truncated: g.Truncated}}
		if *deps {
			v = struct {
				Deps []cohort.DepChange `json:"dependency_changes"`
			}{shape.Deps}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			return 2
		}
		return 0
	}
	if *deps {
		for _, d := range shape.Deps {
			fmt.Fprintf(stdout, "%s:%d: %s\n", d.Manifest, d.Line, d.Message())
		}
		return 0
	}
	writeCohortsText(stdout, shape)
	return 0
}

func writeCohortsText(w io.Writer, s *cohort.Shape) {
	for _, c := range s.Cohorts {
		fmt.Fprintf(w, "cohort %d of %d · %s · %s [%s]", c.Rank, len(s.Cohorts), c.Name, c.Level, c.Key)
		if c.Reviewed != "" {
			fmt.Fprintf(w, " · %s", map[string]string{"reviewed": "reviewed", "changed": "reviewed, changed since"}[c.Reviewed])
		}
		fmt.Fprintf(w, "\n  %s\n", strings.Join(c.Reasons, "; "))
		for _, f := range c.Files {
			fmt.Fprintf(w, "  %s\n", f)
		}
		for _, b := range c.BlastRadius {
			if len(b.Uses) == 0 {
				continue
			}
			fmt.Fprintf(w, "  %s (%s:%d): %d uses, %d outside", b.Definition, b.Path, b.Line, len(b.Uses), b.Outside)
			if b.Possible > 0 {
				fmt.Fprintf(w, ", %d possible", b.Possible)
			}
			fmt.Fprintln(w)
		}
	}
	for _, c := range s.Coverage {
		if c.Level == "paths" {
			fmt.Fprintf(w, "%s (%d files)\n", c.Note, c.Files)
		}
	}
	if len(s.Deps) > 0 {
		fmt.Fprintln(w, "dependency changes:")
		for _, d := range s.Deps {
			fmt.Fprintf(w, "  %s:%d: %s\n", d.Manifest, d.Line, d.Message())
		}
	}
}

// exportCohorts is the cohorts section of an export's summary body: each
// cohort in order with its level and reasons, from the working tree above
// the review (by path alone when there is none), and under it the
// cohort's summary and diagrams when the review keeps notes for its key
// (edges checked against that tree's code graph; notes of a key no cohort
// has any more come last, by key).
func exportCohorts(name string, an *anchor.Analysis, notes map[string]diagram.Note, order bool) string {
	var g *codegraph.Graph
	if root := worktree.FindRoot(name); root != "" && name != "-" {
		if t, err := worktree.Open(root); err == nil {
			g, _ = codegraph.Build(context.Background(), t.Files(), codegraph.Limits{}, nil)
		}
	}
	var cg diagram.Graph
	if g != nil {
		cg = diagram.CodeGraph{G: g}
	}
	noted := func(item, key string) string {
		n, ok := notes[key]
		if !ok {
			return item
		}
		delete(notes, key)
		// Indented to continue the list item ("10. " is 4 wide).
		lines := strings.Split(n.Markdown(cg), "\n")
		for i, l := range lines {
			if l != "" {
				lines[i] = "    " + l
			}
		}
		return item + "\n\n" + strings.Join(lines, "\n")
	}
	shape, _ := cohort.Of(an, g, nil)
	var items []string
	for _, c := range shape.Cohorts {
		// One cohort has no order to tell: listed only for its notes.
		if _, ok := notes[c.Key]; !ok && (!order || len(shape.Cohorts) < 2) {
			continue
		}
		items = append(items, noted(fmt.Sprintf("**%s** (%s): %s", c.Name, c.Level, strings.Join(c.Reasons, "; ")), c.Key))
	}
	for _, key := range slices.Sorted(maps.Keys(notes)) {
		items = append(items, noted(fmt.Sprintf("**%s**: notes of a cohort this review no longer has", key), key))
	}
	return forge.CohortsSection(items)
}
