package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/features"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The working tree of a review (internal/worktree): its root is the
// setting sourceRoot, else the workspace folder holding the review (or
// rootUri), else the nearest ancestor of the review holding .git. The
// server only reads it: edits go to the client as workspace/applyEdit.

// CommandApplySuggestion applies a comment's ```suggestion block to the
// working tree, through workspace/applyEdit. Its arguments are the
// review's URI and the comment's index and name.
const CommandApplySuggestion = "lreview.applySuggestion"

// worktreeState is the session's knowledge of working trees.
type worktreeState struct {
	mu sync.Mutex
	// folders are the workspace folders' paths (rootUri's when none).
	folders []string
	// watch: the client registers didChangeWatchedFiles dynamically.
	watch bool
	trees map[string]*worktree.Tree
	// unopened are the roots that could not be opened, logged once.
	unopened map[string]bool
	// watched is, by review, the registration sent and its patterns;
	// warm the reviews whose files were read once (worktreeDiagnostics).
	watched map[protocol.DocumentURI]string
	warm    map[protocol.DocumentURI]bool
	// polled are, by review, the patch's files the server looks at
	// itself when the client does not watch them (watch.go).
	polled map[protocol.DocumentURI][]string
	// scope is the settings sourceRoot and reviews as checked against
	// the folders, and scopeSaid the refusals last shown
	// (scope_settings.go).
	scope     scopeSettings
	scopeSaid string
	// scan orders the walks of the roots and the re-reads of reviews
	// (scope.go); it has its own lock.
	scan *scanState
}

func newWorktreeState() *worktreeState {
	return &worktreeState{trees: map[string]*worktree.Tree{}, unopened: map[string]bool{}, watched: map[protocol.DocumentURI]string{}, warm: map[protocol.DocumentURI]bool{}, polled: map[protocol.DocumentURI][]string{}, scan: newScanState()}
}

// workspaceParams is what initialize says about the workspace.
type workspaceParams struct {
	RootURI          string `json:"rootUri"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
}

// workspaceCapabilities is the client's workspace capabilities: whether
// it applies edits and takes code lens refreshes (read into clientCaps)
// and registers watchers.
type workspaceCapabilities struct {
	ApplyEdit bool `json:"applyEdit"`
	// CodeLens is LSP 3.16's workspace.codeLens. The protocol library
	// has the member, but the server decodes initialize itself (see
	// initializeParams), so it is declared here too.
	CodeLens struct {
		RefreshSupport bool `json:"refreshSupport"`
	} `json:"codeLens"`
	DidChangeWatchedFiles struct {
		DynamicRegistration bool `json:"dynamicRegistration"`
	} `json:"didChangeWatchedFiles"`
	WorkspaceEdit struct {
		DocumentChanges bool `json:"documentChanges"`
	} `json:"workspaceEdit"`
}

// initWorktree records initialize's workspace and capabilities.
func (s *Server) initWorktree(p workspaceParams, caps workspaceCapabilities) {
	// A client that watches no files has the server look (watch.go),
	// started once the lock below is released.
	watch := false
	defer func() {
		if !watch && s.opts.Poll >= 0 {
			s.startPolling()
		}
	}()
	w := s.wt
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, f := range p.WorkspaceFolders {
		if path := fileOf(f.URI); path != "" {
			w.folders = append(w.folders, path)
		}
	}
	if len(w.folders) == 0 && p.RootURI != "" {
		if path := fileOf(p.RootURI); path != "" {
			w.folders = append(w.folders, path)
		}
	}
	w.watch = caps.DidChangeWatchedFiles.DynamicRegistration
	s.src.mu.Lock()
	s.src.documentChanges = caps.WorkspaceEdit.DocumentChanges
	s.src.mu.Unlock()
	watch = w.watch
}

// fileOf is the path of a file: URI, or "".
func fileOf(u string) string {
	path, err := fileuri.ToPath(u)
	if err != nil {
		return ""
	}
	return path
}

// treeFor returns a snapshot of the working tree of the review at
// docURI, or nil when there is none or the settings turn it off.
func (s *Server) treeFor(docURI protocol.DocumentURI) *worktree.Tree {
	settings := s.currentSettings()
	if settings.WorkingTree != nil && !*settings.WorkingTree {
		return nil
	}
	review := fileOf(string(docURI))
	root := s.scopeSetting().root
	w := s.wt
	w.mu.Lock()
	folders := w.folders
	w.mu.Unlock()
	if root == "" && review != "" {
		for _, f := range folders {
			if worktree.Within(f, review) && len(f) > len(root) {
				root = f
			}
		}
		if root == "" {
			root = worktree.FindRoot(review)
		}
	}
	if root == "" && len(folders) == 1 {
		root = folders[0]
	}
	if root == "" {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.trees[root]
	if t == nil {
		var err error
		if t, err = worktree.Open(root); err != nil {
			if !w.unopened[root] {
				w.unopened[root] = true
				s.spawn(func() {
					s.logf(protocol.MessageTypeWarning, "%v: the working tree's features are off for %s", err, docURI)
				})
			}
			return nil
		}
		w.trees[root] = t
	}
	return t.Pinned()
}

// worktreeDiagnostics are the working tree's diagnostics of an analysis
// of the review at docURI (features.WorktreeDiagnostics), and
// it has the client watch the files they were read from.
//
// The first time for a review they are not waited for: reading a large
// review's files would delay its first diagnostics, so they come with
// warmUp, which the publish runs on the side once it has sent its own:
// it reads the files (the tree's cache keeps them) and publishes f
// again, reusing the encodings the first publish left rather than
// making them all a second time beside it. Later publishes find the
// files read, unless one changed, and include the diagnostics at once.
func (s *Server) worktreeDiagnostics(f *file, docURI protocol.DocumentURI, an *anchor.Analysis) (ds []exchange.Diagnostic, warmUp func()) {
	t := s.treeFor(docURI)
	if t == nil {
		return nil, nil
	}
	w := s.wt
	w.mu.Lock()
	warm := w.warm[docURI]
	w.warm[docURI] = true
	w.mu.Unlock()
	if !warm {
		return nil, func() {
			for _, fd := range an.Index.Files {
				if fd.NewName != "" {
					t.Read(fd.NewName) // an unreadable file is said by the publish
				}
			}
			s.schedule(f, 0, nil)
		}
	}
	ds = features.WorktreeDiagnostics(an, t)
	ds = append(ds, dependencyDiagnostics(an, t)...) // shape.go
	s.watchFiles(docURI, t, an)
	return ds, nil
}

// watchFiles registers workspace/didChangeWatchedFiles for the files the
// review's patch names, when the client registers it dynamically and
// they changed since the last registration for this review.
func (s *Server) watchFiles(docURI protocol.DocumentURI, t *worktree.Tree, an *anchor.Analysis) {
	var names, paths, patterns []string
	for _, f := range an.Index.Files {
		if file, err := t.Read(f.NewName); err == nil {
			names = append(names, file.Abs)
			paths = append(paths, file.Path)
			patterns = append(patterns, filepath.ToSlash(file.Abs))
		}
	}
	key := strings.Join(names, "\n")
	w := s.wt
	w.mu.Lock()
	if !w.watch {
		w.polled[docURI] = paths
	}
	old, had := w.watched[docURI]
	if !w.watch || len(patterns) == 0 || had && old == key {
		w.mu.Unlock()
		return
	}
	w.watched[docURI] = key
	w.mu.Unlock()
	s.spawn(func() {
		if err := s.registerWatchers(worktreeWatchID(docURI), had, patterns); err != nil {
			s.logf(protocol.MessageTypeWarning, "registering the working tree's files of %s: %v", docURI, err)
		}
	})
}

// worktreeWatchID names the watchers registered for a review's files.
func worktreeWatchID(docURI protocol.DocumentURI) string { return "lreview-worktree:" + string(docURI) }

// forgetReview drops what the session keeps for a review that closed,
// and withdraws its file watchers from the client.
func (s *Server) forgetReview(docURI protocol.DocumentURI) {
	w := s.wt
	w.mu.Lock()
	_, had := w.watched[docURI]
	delete(w.watched, docURI)
	delete(w.warm, docURI)
	delete(w.polled, docURI)
	w.mu.Unlock()
	if !had {
		return
	}
	s.spawn(func() {
		if err := s.withdrawWatchers(worktreeWatchID(docURI)); err != nil {
			s.logf(protocol.MessageTypeWarning, "withdrawing the working tree's watchers of %s: %v", docURI, err)
		}
	})
}

// didChangeWatchedFiles hears of files changed on disk.
func didChangeWatchedFiles(ctx context.Context, s *Server, p *protocol.DidChangeWatchedFilesParams) error {
	var changed []string
	for _, c := range p.Changes {
		if path := fileOf(string(c.URI)); path != "" {
			changed = append(changed, path)
		}
	}
	return s.modifyFiles(modification{action: fileOnDisk, paths: changed})
}

// sourceLocation converts a working-tree location to the protocol's: its
// lines, in the file's own positions.
func sourceLocation(loc worktree.Location, enc exchange.Encoding) protocol.Location {
	f := loc.File
	conv := Converter{M: f.Mapper(), Enc: enc}
	return protocol.Location{
		URI:   protocol.DocumentURI(fileuri.FromPath(f.Abs)),
		Range: conv.Range(exchange.Range{Start: f.LineStart(loc.Start), End: f.LineEnd(loc.End)}),
	}
}

// sourceRelated converts related information in a working-tree file.
func sourceRelated(r exchange.Related) protocol.DiagnosticRelatedInformation {
	return protocol.DiagnosticRelatedInformation{
		Location: protocol.Location{URI: protocol.DocumentURI(fileuri.FromPath(r.File)), Range: protocol.Range{
			Start: protocol.Position{Line: uint32(r.FileStart - 1)},
			End:   protocol.Position{Line: uint32(r.FileEnd)},
		}},
		Message: r.Message,
	}
}

// suggestionActions are the actions applying the suggestions of the
// comments the range touches.
func (s *Server) suggestionActions(docURI protocol.DocumentURI, an *anchor.Analysis, span exchange.Range, only []protocol.CodeActionKind) []protocol.CodeAction {
	if !wantsKind(only, protocol.RefactorRewrite) {
		return nil
	}
	if !s.clientCaps().applyEdit {
		return nil
	}
	t := s.treeFor(docURI)
	if t == nil {
		return nil
	}
	var out []protocol.CodeAction
	for _, sg := range features.SuggestionsIn(an, t, span.Start, span.End) {
		out = append(out, protocol.CodeAction{
			Title: sg.Title,
			Kind:  protocol.RefactorRewrite,
			Command: &protocol.Command{Title: sg.Title, Command: CommandApplySuggestion,
				Arguments: []any{docURI, sg.Comment, sg.Name}},
		})
	}
	return out
}

func wantsKind(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	return actionRequest{context: protocol.CodeActionContext{Only: only}}.wants(kind)
}

// applySuggestion runs CommandApplySuggestion: the suggestion is computed
// again from the files as they are now, refused when its lines moved on,
// and sent as workspace/applyEdit; the answer waits for the client's.
func applySuggestion(ctx context.Context, v *requestView, args []any) (any, error) {
	var docURI protocol.DocumentURI
	var ci int
	var name string
	if len(args) != 3 || remarshal(args[0], &docURI) != nil || remarshal(args[1], &ci) != nil || remarshal(args[2], &name) != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandApplySuggestion+" takes three arguments: the review's URI, the comment's index and its name")
	}
	if !v.clientCaps().applyEdit {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, CommandApplySuggestion+" needs a client that supports workspace/applyEdit")
	}
	_, an, err := v.fileAnalysis(ctx, docURI)
	if err != nil {
		return nil, err
	}
	t := v.treeFor(docURI)
	switch {
	case t == nil:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, string(docURI)+" has no working tree")
	case ci < 0 || ci >= len(an.Doc.Review.Comments) || an.Doc.Review.Comments[ci].Name() != name:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s has no comment %s at index %d", docURI, name, ci))
	}
	sg, err := features.SuggestionOf(an, t, ci)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf("%s's suggestion cannot be applied: %v", name, err))
	}
	conv := Converter{M: sg.File.Mapper(), Enc: v.encoding()}
	target := uriOfFile(v.clientNames(nil), sg.File.Abs)
	edit := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{target: conv.TextEdits([]exchange.Edit{sg.Edit})}}
	return nil, v.askApply(ctx, sg.Title, edit, jsonrpc2.InternalError, fmt.Sprintf("%s's suggestion to %s", name, sg.File.Path))
}
