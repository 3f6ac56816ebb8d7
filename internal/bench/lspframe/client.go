package lspframe

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// Message is a server's message as the harnesses read it.
type Message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
	// At is when the message was read.
	At time.Time `json:"-"`
}

// Decode decodes a message's body, the whole of it.
func Decode(body []byte) (Message, bool) {
	var m Message
	return m, json.Unmarshal(body, &m) == nil
}

// ErrTimeout is the error of a wait the server did not answer in time.
var ErrTimeout = errors.New("no answer in time")

// Client plays an editor to one server over a pair of streams (a
// process's standard streams, or pipes to a server in the test's
// process): it answers the server's requests with null (a harness offers
// no client feature) and hands on its notifications and replies.
type Client struct {
	out  io.Writer
	wmu  sync.Mutex // keeps frames whole: the reader answers requests while the harness writes
	msgs chan Message
	seq  int
	// Wait bounds every wait for the server.
	Wait time.Duration
}

// NewClient starts reading the server's messages from in, each decoded
// by decode (a message it cannot decode is dropped), and writes to out.
func NewClient(in io.Reader, out io.Writer, decode func([]byte) (Message, bool)) *Client {
	c := &Client{out: out, msgs: make(chan Message, 256), Wait: 5 * time.Minute}
	go c.read(bufio.NewReaderSize(in, 1<<20), decode)
	return c
}

func (c *Client) read(r *bufio.Reader, decode func([]byte) (Message, bool)) {
	defer close(c.msgs)
	Read(r, func(body []byte) {
		m, ok := decode(body)
		switch {
		case !ok:
		case m.Method != "" && len(m.ID) > 0:
			c.Write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		default:
			m.At = time.Now()
			c.msgs <- m
		}
	})
}

// Write sends msg, one of the harness's own values.
func (c *Client) Write(msg any) { c.Send(Frame(msg)) }

// Send sends a message framed before (see Frame), so that its encoding
// is not timed.
func (c *Client) Send(framed []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.out.Write(framed)
}

// Notification is a notification's message.
func Notification(method string, params any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) { c.Write(Notification(method, params)) }

// Call sends a request and returns its reply, an error when the reply is
// one; the notifications that come before it go to onNote, if not nil.
func (c *Client) Call(method string, params any, onNote func(Message)) (Message, error) {
	c.seq++
	id := strconv.Itoa(c.seq)
	c.Write(map[string]any{"jsonrpc": "2.0", "id": c.seq, "method": method, "params": params})
	m, err := c.Await(func(m Message) bool {
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

// Await returns the first message match takes, passing over the others.
func (c *Client) Await(match func(Message) bool) (Message, error) {
	timeout := time.After(c.Wait)
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
			return Message{}, fmt.Errorf("%w (%v)", ErrTimeout, c.Wait)
		}
	}
}

// Quiet passes over the messages until none has come for d.
func (c *Client) Quiet(d time.Duration) error {
	for {
		select {
		case _, ok := <-c.msgs:
			if !ok {
				return errors.New("the server closed its output")
			}
		case <-time.After(d):
			return nil
		}
	}
}
