package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// The settings that choose what the server reads — sourceRoot and
// reviews — can come from the workspace itself (VS Code's
// .vscode/settings.json, a project's Neovim or Helix configuration), that
// is from whoever wrote the repository. So they are kept inside it: a
// source root outside every workspace folder (by name, and once its
// links are resolved) is refused, and so is a glob that is absolute,
// climbs with "..", is malformed, or is deeper than maxGlobSegments;
// each refusal is said to the person (window/showMessage) and the
// default stands instead. Without any workspace folder there are no
// workspace settings: an absolute source root is then the user's own.

// scopeSettings are the settings sourceRoot and reviews as checked.
type scopeSettings struct {
	// root is the source root the setting names, absolute; "" when it
	// is not set or was refused.
	root string
	// globs are the accepted review globs, compiled.
	globs []reviewGlob
}

// checkScope checks the settings against the workspace folders; the
// problems are sentences for the person.
func checkScope(set Settings, folders []string) (scopeSettings, []string) {
	var out scopeSettings
	var problems []string
	if root, problem := checkSourceRoot(set.SourceRoot, folders); problem != "" {
		problems = append(problems, problem)
	} else {
		out.root = root
	}
	globs := set.Reviews
	if len(globs) == 0 {
		globs = defaultReviewGlobs()
	}
	if len(globs) > maxGlobs {
		problems = append(problems, fmt.Sprintf("lreview.reviews: %d globs, the first %d are used", len(globs), maxGlobs))
		globs = globs[:maxGlobs]
	}
	for _, g := range globs {
		c, err := compileGlob(g)
		if err != nil {
			problems = append(problems, fmt.Sprintf("lreview.reviews: %q is ignored: %v", g, err))
			continue
		}
		out.globs = append(out.globs, c)
	}
	if len(out.globs) == 0 {
		c, _ := compileGlob(defaultReviewGlobs()[0])
		out.globs = []reviewGlob{c}
		if len(set.Reviews) > 0 {
			problems = append(problems, fmt.Sprintf("lreview.reviews: no glob is usable; %q is used", defaultReviewGlobs()[0]))
		}
	}
	return out, problems
}

// checkSourceRoot resolves the setting sourceRoot: relative to the first
// workspace folder, and inside one of them, its links resolved too. ""
// with no problem: not set.
func checkSourceRoot(setting string, folders []string) (root, problem string) {
	if setting == "" {
		return "", ""
	}
	refuse := func(why string) (string, string) {
		return "", fmt.Sprintf("lreview.sourceRoot %q is ignored: %s", setting, why)
	}
	if len(folders) == 0 {
		if !filepath.IsAbs(setting) {
			return refuse("a relative path needs a workspace folder")
		}
		return filepath.Clean(setting), ""
	}
	root = setting
	if !filepath.IsAbs(root) {
		root = filepath.Join(folders[0], root)
	}
	root = filepath.Clean(root)
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = "" // opening it fails and is said then
	}
	inside := slices.ContainsFunc(folders, func(f string) bool {
		if !worktree.Within(f, root) {
			return false
		}
		if real == "" {
			return true
		}
		fr, err := filepath.EvalSymlinks(f)
		return err == nil && worktree.Within(fr, real)
	})
	if !inside {
		where := root
		if real != "" && real != root {
			where = root + " (" + real + ")"
		}
		return refuse(fmt.Sprintf("%s is outside the workspace (%s); open the repository as a workspace folder instead", where, strings.Join(folders, ", ")))
	}
	return root, ""
}

// applyScopeSettings checks the current settings against the workspace
// and keeps the result for scopeRoots and treeFor; a refusal is shown to
// the person, once until the settings change.
func (s *Server) applyScopeSettings() {
	set := s.currentSettings()
	w := s.wt
	w.mu.Lock()
	checked, problems := checkScope(set, w.folders)
	w.scope = checked
	said := strings.Join(problems, "\n")
	repeat := said == w.scopeSaid
	w.scopeSaid = said
	w.mu.Unlock()
	if repeat || len(problems) == 0 {
		return
	}
	for _, p := range problems {
		s.showf(protocol.MessageTypeWarning, "%s", p)
	}
}

// showf sends window/showMessage: what the person must see.
func (s *Server) showf(typ protocol.MessageType, format string, args ...any) {
	if s.conn == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	_ = s.conn.Notify(s.bg, "window/showMessage", &protocol.ShowMessageParams{Type: typ, Message: "lreview: " + msg})
}

// scopeSetting returns the checked settings, for a settings change that
// has not been checked yet (tests that set them directly): checked now.
func (s *Server) scopeSetting() scopeSettings {
	set := s.currentSettings()
	w := s.wt
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.scope.globs == nil {
		w.scope, _ = checkScope(set, w.folders)
	}
	return w.scope
}
