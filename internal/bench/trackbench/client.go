package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/leanreview/lreview-lsp/internal/bench/lspframe"
)

// client speaks LSP to one server over a pair of streams (a process's
// stdio, or pipes to a server in the test's process), as an editor does:
// it answers the server's requests (registrations, configuration) with
// null and hands on its notifications and replies, decoded.
type client struct {
	out  io.Writer
	wmu  sync.Mutex // keeps frames whole
	msgs chan message
	seq  int
	// wait bounds every wait for the server.
	wait time.Duration
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	// at is when the message was read.
	at time.Time
}

func newClient(in io.Reader, out io.Writer) *client {
	c := &client{out: out, msgs: make(chan message, 256), wait: 2 * time.Minute}
	go c.read(bufio.NewReaderSize(in, 1<<20))
	return c
}

func (c *client) read(r *bufio.Reader) {
	defer close(c.msgs)
	lspframe.Read(r, func(body []byte) {
		var m message
		if json.Unmarshal(body, &m) != nil {
			return
		}
		m.at = time.Now()
		if m.Method != "" && len(m.ID) > 0 {
			c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
			return
		}
		c.msgs <- m
	})
}

func (c *client) write(msg any) {
	framed := lspframe.Frame(msg)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.out.Write(framed)
}

func (c *client) notify(method string, params any) {
	c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and returns its reply; the notifications that
// come before it go to onNote.
func (c *client) call(method string, params any, onNote func(message)) (message, error) {
	c.seq++
	id := strconv.Itoa(c.seq)
	c.write(map[string]any{"jsonrpc": "2.0", "id": c.seq, "method": method, "params": params})
	m, err := c.await(func(m message) bool {
		if m.Method == "" && string(m.ID) == id {
			return true
		}
		if onNote != nil && m.Method != "" {
			onNote(m)
		}
		return false
	})
	if err == nil && len(m.Error) > 0 && string(m.Error) != "null" {
		err = fmt.Errorf("%s: %s", method, m.Error)
	}
	return m, err
}

var errTimeout = errors.New("no answer in time")

func (c *client) await(match func(message) bool) (message, error) {
	timeout := time.After(c.wait)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return m, errors.New("the server closed its output")
			}
			if match(m) {
				return m, nil
			}
		case <-timeout:
			return message{}, errTimeout
		}
	}
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
func (c *client) awaitPublish(uri string, accept func(publish) bool) (publish, time.Time, error) {
	var got publish
	m, err := c.await(func(m message) bool {
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
	return got, m.at, err
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
