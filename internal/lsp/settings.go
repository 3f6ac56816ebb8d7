package lsp

import (
	"context"
	"encoding/json"
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
}

// parseSettings reads raw settings; absent or malformed ones leave the
// current value.
func parseSettings(raw json.RawMessage, cur Settings) Settings {
	if len(raw) == 0 || string(raw) == "null" {
		return cur
	}
	var wrapped struct {
		Lreview *json.RawMessage `json:"lreview"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && wrapped.Lreview != nil {
		raw = *wrapped.Lreview
	}
	next := cur
	if err := json.Unmarshal(raw, &next); err != nil {
		return cur
	}
	return next
}

func init() {
	notifications["workspace/didChangeConfiguration"] = notification(didChangeConfiguration)
}

type configParams struct {
	Settings json.RawMessage `json:"settings"`
}

func didChangeConfiguration(ctx context.Context, s *Server, p *configParams) error {
	s.mu.Lock()
	s.settings = parseSettings(p.Settings, s.settings)
	var files []*file
	for _, f := range s.files {
		files = append(files, f)
	}
	s.mu.Unlock()
	for _, f := range files {
		s.schedule(f, 0) // republish with the new filter
	}
	return nil
}
