package forge

import (
	"bytes"
	"encoding/json"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// exReview is the review exchange document an import makes, its members
// in the spec's order.
type exReview struct {
	Version  int          `json:"leanreview_review"`
	Title    string       `json:"title,omitempty"`
	Summary  string       `json:"summary,omitempty"`
	Patch    []string     `json:"patch"`
	Comments []*exComment `json:"comments"`
}

type exComment struct {
	ID        string    `json:"id"`
	Author    string    `json:"author,omitempty"`
	Path      string    `json:"path"`
	Side      string    `json:"side"`
	StartLine int       `json:"start_line"`
	EndLine   int       `json:"end_line,omitempty"`
	Body      string    `json:"body"`
	State     string    `json:"state"`
	Snippet   string    `json:"snippet,omitempty"`
	At        string    `json:"at,omitempty"`
	Replies   []exReply `json:"replies,omitempty"`
}

type exReply struct {
	Author string `json:"author,omitempty"`
	Body   string `json:"body"`
	At     string `json:"at,omitempty"`
}

// document encodes rv and parses it: the exchange reader is what the
// engine and the canonical writer work on.
func (rv *exReview) document() (*exchange.Document, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rv); err != nil {
		return nil, err
	}
	return exchange.Parse(buf.Bytes()), nil
}
