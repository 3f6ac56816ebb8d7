package lsp

import (
	"context"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/codegraph"
	"github.com/leanreview/lreview-lsp/internal/cohort"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The review's shape (internal/cohort) in the editor. The code graph of a
// working tree is built in the background, the first time a review of it
// asks, and again after a watched file changes; until it is ready the
// review has no shape and its other features go on without it: nothing
// waits for the graph. Each review's shape is kept for the analysis and
// graph it was computed from.

// CommandMarkCohort marks a cohort reviewed, or not: its arguments are the
// review's URI, the cohort's key and true or false. The edit of the review
// goes to the client as workspace/applyEdit.
const CommandMarkCohort = "lreview.markCohort"

// CommandNextCohort answers the Location of the first file header of the
// next cohort not reviewed, in rank order after the cohort key ("" from
// the top): arguments the review's URI and the key; null when every
// cohort is reviewed.
const CommandNextCohort = "lreview.nextCohort"

type shapeState struct {
	mu     sync.Mutex
	graphs map[string]*graphEntry // by working tree root
	shapes map[protocol.DocumentURI]*shapeEntry
}

type graphEntry struct {
	cache    codegraph.Cache
	g        *codegraph.Graph
	building bool
	stale    bool
}

type shapeEntry struct {
	an *anchor.Analysis
	g  *codegraph.Graph
	s  *cohort.Shape
	in cohort.Input
}

// graphsChanged marks the graphs of the trees holding a changed file
// stale: the next ask builds them again (from their caches).
func (s *Server) graphsChanged(paths []string) {
	st := &s.shapes
	st.mu.Lock()
	defer st.mu.Unlock()
	for root, e := range st.graphs {
		for _, p := range paths {
			if worktree.Within(root, p) {
				e.stale = true
			}
		}
	}
}

// shapeOf returns the shape of the review at uri analysed as an, or nil
// while its tree's graph is being built (or when it has no tree).
func (s *Server) shapeOf(uri protocol.DocumentURI, an *anchor.Analysis) (*cohort.Shape, *codegraph.Graph, cohort.Input) {
	t := s.treeFor(uri)
	if t == nil || an == nil || an.Index == nil {
		return nil, nil, cohort.Input{}
	}
	st := &s.shapes
	st.mu.Lock()
	e := st.graphs[t.Root()]
	if e == nil {
		e = &graphEntry{}
		st.graphs[t.Root()] = e
	}
	if (e.g == nil || e.stale) && !e.building {
		e.building, e.stale = true, false
		files := t.Files()
		s.spawn(func() {
			g, _ := codegraph.Build(s.bg, files, codegraph.Limits{}, &e.cache) // a truncated graph still serves
			st.mu.Lock()
			e.g, e.building = g, false
			st.mu.Unlock()
			s.refreshLenses()
		})
	}
	g := e.g
	if g == nil {
		st.mu.Unlock()
		return nil, nil, cohort.Input{}
	}
	if se := st.shapes[uri]; se != nil && se.an == an && se.g == g {
		st.mu.Unlock()
		return se.s, se.g, se.in
	}
	st.mu.Unlock()
	sh, in := cohort.Of(an, g, linesIn(t))
	st.mu.Lock()
	st.shapes[uri] = &shapeEntry{an: an, g: g, s: sh, in: in}
	st.mu.Unlock()
	return sh, g, in
}

// refreshLenses asks a client that takes it to ask for its code lenses
// again: a graph just built brings the cohort lenses, which the client
// asked for before they were there (and a graph built again after a
// file changed may change their blast radius). A client without
// refreshSupport sees them at its next ask.
func (s *Server) refreshLenses() {
	if !s.clientCaps().lensRefresh {
		return
	}
	if _, err := s.conn.Call(s.bg, "workspace/codeLens/refresh", nil, nil); err != nil && s.bg.Err() == nil {
		s.logf(protocol.MessageTypeWarning, "workspace/codeLens/refresh: %v", err)
	}
}

// cohortLenses converts features.CohortLenses: the cohort's line, whose
// command goes to the next cohort not reviewed, and a lens to mark it
// reviewed (or to take the mark back).
func cohortLenses(v *requestView, uri protocol.DocumentURI, conv Converter, an *anchor.Analysis) []protocol.CodeLens {
	sh, _, _ := v.shapeOf(uri, an)
	var out []protocol.CodeLens
	for _, l := range features.CohortLenses(an, sh) {
		rng := conv.Range(l.Range)
		out = append(out, protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: l.Title, Command: CommandNextCohort, Arguments: []any{uri, l.Key}}})
		mark, title := true, "mark reviewed"
		if l.Reviewed == "reviewed" {
			mark, title = false, "unmark reviewed"
		} else if l.Reviewed == "changed" {
			title = "mark reviewed again"
		}
		out = append(out, protocol.CodeLens{Range: rng, Command: &protocol.Command{Title: title, Command: CommandMarkCohort, Arguments: []any{uri, l.Key, mark}}})
	}
	return out
}

func markCohort(ctx context.Context, v *requestView, args []any) (any, error) {
	var uri protocol.DocumentURI
	var key string
	var reviewed bool
	if len(args) != 3 || remarshal(args[0], &uri) != nil || remarshal(args[1], &key) != nil || remarshal(args[2], &reviewed) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandMarkCohort+" takes three arguments: the review's URI, the cohort's key and true or false")
	}
	if !v.clientCaps().applyEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, CommandMarkCohort+" needs a client that supports workspace/applyEdit")
	}
	conv, an, err := v.fileAnalysis(ctx, uri)
	if err != nil {
		return nil, err
	}
	sh, _, in := v.shapeOf(uri, an)
	if sh == nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, string(uri)+": the review's cohorts are not ready yet (its working tree's code graph is being built)")
	}
	e, err := features.MarkCohort(an, sh, in, key, reviewed)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, string(uri)+": cohort "+key+": "+err.Error())
	}
	edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{uri: conv.TextEdits([]exchange.Edit{e})}}
	return applyEdit(ctx, v, []any{edit})
}

func nextCohort(ctx context.Context, v *requestView, args []any) (any, error) {
	var uri protocol.DocumentURI
	var key string
	if len(args) != 2 || remarshal(args[0], &uri) != nil || remarshal(args[1], &key) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandNextCohort+" takes two arguments: the review's URI and a cohort's key (\"\": from the top)")
	}
	conv, an, err := v.fileAnalysis(ctx, uri)
	if err != nil {
		return nil, err
	}
	sh, _, _ := v.shapeOf(uri, an)
	if sh == nil {
		return nil, nil
	}
	r, ok := features.NextCohort(an, sh, key)
	if !ok {
		return nil, nil
	}
	return protocol.Location{URI: uri, Range: conv.Range(r)}, nil
}

// definitionUses are the uses in the working tree of the definitions the
// patch line at off changes, as locations in the tree's files.
func definitionUses(v *requestView, uri protocol.DocumentURI, conv Converter, an *anchor.Analysis, off int) []protocol.Location {
	_, g, _ := v.shapeOf(uri, an)
	uses := features.DefinitionUsesAt(an, g, off)
	if len(uses) == 0 {
		return nil
	}
	t := v.treeFor(uri)
	if t == nil {
		return nil
	}
	var out []protocol.Location
	for _, u := range uses {
		f, err := t.Read(u.Path)
		if err != nil || u.Line > f.Lines() {
			continue
		}
		out = append(out, sourceLocation(worktree.Location{File: f, Start: u.Line, End: u.Line}, conv.Enc))
	}
	return out
}

// dependencyDiagnostics are the dependency changes of the review's
// manifests, on their lines (features.DependencyDiagnostics); the tree
// tells the section a hunk starts in.
func dependencyDiagnostics(an *anchor.Analysis, t *worktree.Tree) []exchange.Diagnostic {
	return features.DependencyDiagnostics(an, cohort.DependenciesOf(an.Index, linesIn(t)))
}

// linesIn reads a file of t as lines, none when it cannot be read.
func linesIn(t *worktree.Tree) func(p string) []string {
	return func(p string) []string {
		f, err := t.Read(p)
		if err != nil {
			return nil
		}
		return strings.Split(f.Text, "\n")
	}
}
