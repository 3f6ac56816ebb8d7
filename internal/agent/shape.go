package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review's shape for agents: lreview_cohorts (the cohorts riskiest
// first, paged) and lreview_blast_radius (one file's or one definition's
// uses in the working tree, paged), from the code graph of the review's
// working tree (internal/codegraph, internal/cohort: what `cohorts`
// prints).

// CohortsInput is lreview_cohorts' input.
type CohortsInput struct {
	ReviewFile
	Page
}

// CohortItem is one cohort.
type CohortItem struct {
	Key         string   `json:"key" jsonschema:"stable across a rebase and more commits while its principal file is in it"`
	Name        string   `json:"name"`
	Rank        int      `json:"rank" jsonschema:"1 is the riskiest"`
	Level       string   `json:"level" jsonschema:"high, medium or low"`
	Files       []string `json:"files"`
	Reasons     []string `json:"reasons"`
	UsesOutside int      `json:"uses_outside" jsonschema:"uses of its changed definitions in files outside it"`
	Changed     []string `json:"changed_definitions" jsonschema:"the definitions its change touches (lreview_blast_radius lists their uses)"`
	Comments    int      `json:"active_comments"`
	Reviewed    string   `json:"reviewed" jsonschema:"empty, reviewed, or changed (marked reviewed, but its files changed since)"`
}

// CohortsOutput is lreview_cohorts' output.
type CohortsOutput struct {
	File       string               `json:"file"`
	Root       string               `json:"root" jsonschema:"the working tree, relative to the server's root"`
	Total      int                  `json:"total"`
	Cohorts    []CohortItem         `json:"cohorts" jsonschema:"this page of them, riskiest first"`
	Coverage   []codegraph.Coverage `json:"coverage" jsonschema:"how the code graph covers each language of the patch"`
	Deps       []cohort.DepChange   `json:"dependency_changes"`
	NextCursor string               `json:"next_cursor,omitempty"`
}

// BlastInput is lreview_blast_radius' input.
type BlastInput struct {
	ReviewFile
	Path       string `json:"path,omitempty" jsonschema:"a file of the working tree: the uses of the definitions the patch changes in it (of all its definitions when the patch does not change it)"`
	Definition string `json:"definition,omitempty" jsonschema:"a definition's name: Name, Type.Method, or qualified pkg/path.Name (for TS/JS and Python the file's path.Name)"`
	Page
}

// BlastUse is one use of a definition.
type BlastUse struct {
	Definition string `json:"definition"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
	From       string `json:"from,omitempty" jsonschema:"the using definition; absent at file level"`
	Possible   bool   `json:"possible,omitempty" jsonschema:"a method call whose receiver's type only a type checker would tell"`
}

// BlastOutput is lreview_blast_radius' output.
type BlastOutput struct {
	File        string     `json:"file"`
	Definitions []string   `json:"definitions" jsonschema:"the definitions whose uses are listed"`
	Total       int        `json:"total"`
	Uses        []BlastUse `json:"uses" jsonschema:"this page of them"`
	NextCursor  string     `json:"next_cursor,omitempty"`
}

// graphs keeps a code graph cache per working tree, so that a second call
// re-reads only the files changed since.
type graphs struct {
	mu sync.Mutex
	m  map[string]*codegraph.Cache
}

func (c *graphs) build(ctx context.Context, t *worktree.Tree) *codegraph.Graph {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxTrees {
		c.m = map[string]*codegraph.Cache{}
	}
	cache := c.m[t.Root()]
	if cache == nil {
		cache = &codegraph.Cache{}
		c.m[t.Root()] = cache
	}
	c.mu.Unlock()
	g, _ := codegraph.Build(ctx, t.Files(), codegraph.Limits{}, cache) // a truncated graph still serves
	return g
}

func (s *server) registerShape(srv *mcp.Server, tool func(name, title, desc string, readOnly, destructive, idempotent bool) *mcp.Tool) {
	addTool(srv, tool("lreview_cohorts", "The review's cohorts, riskiest first",
		"Group the review's changed files into cohorts (files the code ties together, a test with its subject, a folder), riskiest first, each with its reasons (uses outside it, public API changed, sensitive places, test gap, size, comments), its changed definitions and whether it was marked reviewed; and the dependency changes of the patch's manifests. A page at a time (limit, cursor). Read the riskiest cohort first.",
		true, false, true), nil, s.cohorts)
	addTool(srv, tool("lreview_blast_radius", "Where a change is used",
		"The uses in the working tree of one definition, or of the definitions the patch changes in one file: path, line, the using definition, and whether the use is only possible (a method on a value whose type only types would tell). A page at a time (limit, cursor).",
		true, false, true), nil, s.blastRadius)
}

// shape computes the shape of the review r against its working tree.
func (s *server) shape(ctx context.Context, r *review) (*cohort.Shape, *codegraph.Graph, *worktree.Tree, *anchor.Analysis, error) {
	t, err := s.tree(r.path)
	if err != nil {
		return nil, nil, nil, nil, argError("file", "%v", err)
	}
	an := r.analysis()
	g := s.graphs.build(ctx, t)
	sh, _ := cohort.Of(an, g, func(p string) []string {
		f, err := t.Read(p)
		if err != nil {
			return nil
		}
		return strings.Split(f.Text, "\n")
	})
	return sh, g, t, an, nil
}

func (s *server) cohorts(ctx context.Context, _ *mcp.CallToolRequest, in CohortsInput) (*mcp.CallToolResult, CohortsOutput, error) {
	r, err := s.readCached("file", in.File, true)
	if err != nil {
		return nil, CohortsOutput{}, err
	}
	pg, err := newPager(in.Page, r.checksum(), "cohorts")
	if err != nil {
		return nil, CohortsOutput{}, err
	}
	sh, _, t, _, err := s.shape(ctx, r)
	if err != nil {
		return nil, CohortsOutput{}, err
	}
	root, _ := s.relative(t.Root())
	out := CohortsOutput{File: r.name, Root: s.display(root), Total: len(sh.Cohorts), Cohorts: []CohortItem{}, Coverage: sh.Coverage, Deps: sh.Deps}
	var b strings.Builder
	n, err := pg.fill(len(sh.Cohorts), &b, func(i int) string {
		c := sh.Cohorts[i]
		item := CohortItem{Key: c.Key, Name: c.Name, Rank: c.Rank, Level: c.Level, Files: c.Files, Reasons: c.Reasons,
			UsesOutside: c.UsesOutside, Comments: c.Comments, Reviewed: c.Reviewed, Changed: []string{}}
		for _, bl := range c.BlastRadius {
			item.Changed = append(item.Changed, bl.Definition)
		}
		out.Cohorts = append(out.Cohorts, item)
		text := fmt.Sprintf("\n%d. %s · %s [%s]: %s\n   %s\n", c.Rank, c.Name, c.Level, c.Key, strings.Join(c.Reasons, "; "), strings.Join(c.Files, ", "))
		if c.Reviewed != "" {
			text += "   " + c.Reviewed + "\n"
		}
		return text
	})
	if err != nil {
		return nil, CohortsOutput{}, err
	}
	out.Cohorts = out.Cohorts[:n]
	out.NextCursor = pg.next(n, len(sh.Cohorts))
	head := fmt.Sprintf("%s: %s, riskiest first", r.name, anchor.Plural(out.Total, "cohort", "cohorts"))
	for _, c := range sh.Coverage {
		if c.Level == "paths" {
			head += "; " + c.Note
		}
	}
	for _, d := range sh.Deps {
		head += fmt.Sprintf("\n%s:%d: %s", d.Manifest, d.Line, d.Message())
	}
	return textResult(head + pageNote("cohorts", pg, n, out.Total, out.NextCursor) + b.String()), out, nil
}

func (s *server) blastRadius(ctx context.Context, _ *mcp.CallToolRequest, in BlastInput) (*mcp.CallToolResult, BlastOutput, error) {
	if (in.Path == "") == (in.Definition == "") {
		return nil, BlastOutput{}, argError("path", "give path or definition, one of them")
	}
	r, err := s.readCached("file", in.File, true)
	if err != nil {
		return nil, BlastOutput{}, err
	}
	pg, err := newPager(in.Page, r.checksum(), "blast", in.Path, in.Definition)
	if err != nil {
		return nil, BlastOutput{}, err
	}
	sh, g, _, _, err := s.shape(ctx, r)
	if err != nil {
		return nil, BlastOutput{}, err
	}
	var ids []codegraph.DefID
	switch {
	case in.Definition != "":
		if ids = g.Lookup(in.Definition); len(ids) == 0 {
			return nil, BlastOutput{}, argError("definition", "%q: no definition of that name in the working tree's code graph", in.Definition)
		}
	case g.File(in.Path) == nil:
		return nil, BlastOutput{}, argError("path", "%q: not a file of the working tree's code graph (%s)", in.Path, g.CoverageOf(in.Path).Note)
	default:
		if c := sh.Of(in.Path); c != nil {
			for _, b := range c.BlastRadius {
				if b.Path == in.Path {
					ids = append(ids, g.Lookup(b.Definition)...)
				}
			}
		}
		if len(ids) == 0 {
			ids = g.DefsIn(in.Path)
		}
	}
	out := BlastOutput{File: r.name, Definitions: []string{}, Uses: []BlastUse{}}
	var all []BlastUse
	for _, id := range ids {
		d := g.Def(id)
		out.Definitions = append(out.Definitions, d.QualifiedName())
		for _, u := range g.Uses(id) {
			all = append(all, BlastUse{Definition: d.QualifiedName(), Path: u.Path, Line: u.Line, From: u.From, Possible: u.Possible})
		}
	}
	out.Total = len(all)
	var b strings.Builder
	n, err := pg.fill(len(all), &b, func(i int) string {
		u := all[i]
		out.Uses = append(out.Uses, u)
		text := fmt.Sprintf("\n%s:%d", u.Path, u.Line)
		if u.From != "" {
			text += " in " + u.From
		}
		if u.Possible {
			text += " (possible)"
		}
		return text + " uses " + u.Definition
	})
	if err != nil {
		return nil, BlastOutput{}, err
	}
	out.Uses = out.Uses[:n]
	out.NextCursor = pg.next(n, len(all))
	head := fmt.Sprintf("%s: %s of %s", r.name, anchor.Plural(out.Total, "use", "uses"), strings.Join(out.Definitions, ", "))
	return textResult(head + pageNote("uses", pg, n, out.Total, out.NextCursor) + b.String()), out, nil
}
