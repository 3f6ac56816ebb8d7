package lsp

import (
	"context"
	"encoding/json"
	"slices"
)

// Settings are the user's options, from initializationOptions and
// workspace/didChangeConfiguration. Both accept the bare object or one
// wrapped in {"lreview": ...}, as editors send either.
type Settings struct {
	// Author signs new comments and replies.
	Author      string `json:"author"`
	Diagnostics struct {
		// Disabled lists diagnostic codes not to publish.
		Disabled []string `json:"disabled"`
	} `json:"diagnostics"`
	// SourceRoot is the working tree's root (the reviewed repository),
	// relative to the first workspace folder when not absolute; "" finds
	// it (worktree.go).
	SourceRoot string `json:"sourceRoot"`
	// WorkingTree false turns the working-tree features off.
	WorkingTree *bool `json:"workingTree"`
	// Reviews are the globs of the review files in scope under the
	// source root, besides the open ones (scope.go); none: the default,
	// "**/*.review.json".
	Reviews []string `json:"reviews"`
	// Comments shape the comments published on the source files:
	// Severity is "information" unless "error", "warning" or "hint";
	// Outdated false hides the comments whose lines the file no longer
	// holds.
	Comments struct {
		Severity string `json:"severity"`
		Outdated *bool  `json:"outdated"`
	} `json:"comments"`
}

// parseSettings reads raw settings. Clients send their whole current
// settings each time (VS Code its "lreview" section, Neovim its setup()
// table), so the result replaces cur: a member left out is back to its
// default, as the user who removed it expects. Settings that are not
// ours (no "lreview", "author" or "diagnostics" member: another server's,
// or none at all) and malformed ones leave cur as it is.
func parseSettings(raw json.RawMessage, cur Settings) Settings {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return cur
	}
	if wrapped, ok := members["lreview"]; ok {
		raw = wrapped
	} else if !slices.ContainsFunc([]string{"author", "diagnostics", "sourceRoot", "workingTree", "reviews", "comments"}, func(k string) bool { _, ok := members[k]; return ok }) {
		return cur
	}
	// A fresh value: Unmarshal writes into the slices it is given, and
	// cur's are being read by publishers.
	var next Settings
	if err := json.Unmarshal(raw, &next); err != nil {
		return cur
	}
	return next
}

// currentSettings returns the settings now. Their slices are never
// written once set (parseSettings makes new ones), so callers read them
// unlocked.
func (s *Server) currentSettings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

type configParams struct {
	Settings json.RawMessage `json:"settings"`
}

func didChangeConfiguration(ctx context.Context, s *Server, p *configParams) error {
	s.mu.Lock()
	s.settings = parseSettings(p.Settings, s.settings)
	s.mu.Unlock()
	s.applyScopeSettings()
	s.republishAll() // with the new filter
	s.sourcesChanged(true)
	return nil
}
