package main

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/bench/lspframe"
)

// newClient plays the editor to the server reading in and writing out.
func newClient(in io.Reader, out io.Writer) *lspframe.Client {
	c := lspframe.NewClient(in, out, lspframe.Decode)
	c.Wait = 2 * time.Minute
	return c
}

// publish is a textDocument/publishDiagnostics, the members read here.
type publish struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type diagnostic struct {
	Range struct {
		Start, End struct{ Line, Character int }
	} `json:"range"`
	Message string `json:"message"`
	Data    struct {
		Review   string `json:"review"`
		Comment  string `json:"comment"`
		Outdated bool   `json:"outdated"`
	} `json:"data"`
}

// lines is the diagnostic's first and last line, from 1 (a comment's
// range ends at its last line's end).
func (d diagnostic) lines() (int, int) {
	return d.Range.Start.Line + 1, d.Range.End.Line + 1
}

// awaitPublish waits for a publish on uri that accept takes.
func awaitPublish(c *lspframe.Client, uri string, accept func(publish) bool) (publish, time.Time, error) {
	var got publish
	m, err := c.Await(func(m lspframe.Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p publish
		if json.Unmarshal(m.Params, &p) != nil || p.URI != uri {
			return false
		}
		got = p
		return accept(p)
	})
	return got, m.At, err
}

// fromMessage fills a diagnostic's data from its message when the server
// sent none: servers before source diagnostics carried threads as data
// (issue 45's "before") wrote "<id> (<author>): <body> · outdated: …".
// Measuring them is the one use of this; no plugin reads a message.
func (d *diagnostic) fromMessage(review string) {
	if d.Data.Comment != "" {
		return
	}
	id, _, _ := strings.Cut(d.Message, " ")
	d.Data.Review, d.Data.Comment = review, strings.TrimSuffix(id, ":")
	d.Data.Outdated = strings.Contains(d.Message, " · outdated")
}
