package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

// fiftyMBReview is a review of about 50 MB with 40,000 comments: the size at
// which handling each keystroke on its own fell behind the keyboard.
var fiftyMBReview = sync.OnceValue(func() []byte {
	return reviewgen.Generate(reviewgen.Config{Files: 400, DiffLines: 500_000, Comments: 40_000, Seed: 3})
})

// timedConn is a client that reads the server's messages on a goroutine
// of its own and records when each reply and each publish of a version
// arrived, so that a benchmark can send while it waits.
type timedConn struct {
	in      io.WriteCloser
	mu      sync.Mutex
	cond    *sync.Cond
	replies map[int]time.Time
	publish map[int]time.Time
	err     error
}

func newTimedServer(b *testing.B) *timedConn {
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- NewServer(Options{}).Serve(context.Background(), pipeRWC{serverRead, serverWrite})
	}()
	c := &timedConn{in: clientWrite, replies: map[int]time.Time{}, publish: map[int]time.Time{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(bufio.NewReaderSize(clientRead, 1<<20))
	b.Cleanup(func() {
		clientWrite.Close()
		serverWrite.Close()
		<-done
	})
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`)
	c.waitReply(b, 0)
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	return c
}

func (c *timedConn) send(msg string) {
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
}

// read records every message: a reply by its id (jsonrpc2 writes it
// last), a publish by the version in its first bytes.
func (c *timedConn) read(r *bufio.Reader) {
	var buf []byte
	for {
		h, err := textproto.NewReader(r).ReadMIMEHeader()
		var n int
		if err == nil {
			n, err = strconv.Atoi(h.Get("Content-Length"))
		}
		if err == nil {
			buf = slices.Grow(buf[:0], n)[:n]
			_, err = io.ReadFull(r, buf)
		}
		now := time.Now()
		c.mu.Lock()
		if err != nil {
			c.err = err
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		head, tail := buf[:min(n, 300)], buf[max(0, n-40):]
		if bytes.Contains(head, []byte(`"textDocument/publishDiagnostics"`)) {
			if i := bytes.Index(head, []byte(`"version":`)); i >= 0 {
				v, _ := strconv.Atoi(string(bytes.TrimRight(head[i+10:i+10+bytes.IndexAny(head[i+10:], ",}")], " ")))
				c.publish[v] = now
			}
		} else if id, ok := replyID(buf[:min(n, 40)], tail); ok {
			c.replies[id] = now
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// replyID finds a reply's id where a writer puts it: first or last.
func replyID(head, tail []byte) (int, bool) {
	for _, part := range [][]byte{tail, head} {
		if i := bytes.LastIndex(part, []byte(`"id":`)); i >= 0 {
			if end := bytes.IndexAny(part[i+5:], ",}"); end >= 0 {
				id, err := strconv.Atoi(string(part[i+5 : i+5+end]))
				return id, err == nil
			}
		}
	}
	return 0, false
}

func (c *timedConn) waitReply(b *testing.B, id int) time.Time {
	return c.wait(b, c.replies, id)
}

func (c *timedConn) waitPublish(b *testing.B, version int) time.Time {
	return c.wait(b, c.publish, version)
}

func (c *timedConn) wait(b *testing.B, m map[int]time.Time, k int) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if t, ok := m[k]; ok {
			return t
		}
		if c.err != nil {
			b.Fatalf("waiting for %d: %v", k, c.err)
		}
		c.cond.Wait()
	}
}

// BenchmarkBigReviewKeyboard opens the 50 MB review and reports, beside
// `check` on it in the same run: one keystroke's analysis (typed alone,
// waited for), the hover latency while typing 20 keys a second, and how
// long a hover sent after a burst of 1,000 keystrokes and the burst's
// last publish take.
func BenchmarkBigReviewKeyboard(b *testing.B) {
	src := fiftyMBReview()
	checkStart := time.Now()
	checkOnce(src)
	check := time.Since(checkStart)

	c := newTimedServer(b)
	uri := "file:///bench/big.review.json"
	open, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "lreview", "version": 1, "text": string(src)}}})
	c.send(string(open))
	c.waitPublish(b, 1)

	m := exchange.NewMapper(src)
	at := m.Position(bytes.LastIndex(src, []byte(`"body": "`))+len(`"body": "`), exchange.UTF16)
	hoverAt := m.Position(bytes.Index(src, []byte(`"path": "`))+len(`"path": "`), exchange.UTF16)
	version, id := 1, 0
	keystroke := func() int {
		version++
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":%d},`+
			`"contentChanges":[{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":"x"}]}}`,
			uri, version, at.Line, at.Character, at.Line, at.Character))
		at.Character++
		return version
	}
	hover := func() int {
		id++
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}}}`,
			id, uri, hoverAt.Line, hoverAt.Character))
		return id
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }

	progress := func(what string, v float64) {
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "%s: %.2f\n", what, v)
		}
	}
	progress("check-ms", ms(check))
	for b.Loop() {
		// One keystroke alone, ten times.
		var edits []time.Duration
		for range 10 {
			t0 := time.Now()
			edits = append(edits, c.waitPublish(b, keystroke()).Sub(t0))
		}
		slices.Sort(edits)
		b.ReportMetric(float64(edits[len(edits)/2])/float64(check), "edit/check")
		progress("edit/check", float64(edits[len(edits)/2])/float64(check))

		// Typing at 20 keys a second for three seconds, a hover every 100 ms.
		var hovers []time.Duration
		tick := time.NewTicker(50 * time.Millisecond)
		for k := range 60 {
			<-tick.C
			keystroke()
			if k%2 == 1 {
				t0 := time.Now()
				hovers = append(hovers, c.waitReply(b, hover()).Sub(t0))
			}
		}
		tick.Stop()
		c.waitPublish(b, version)
		slices.Sort(hovers)
		b.ReportMetric(ms(hovers[len(hovers)/2]), "hover-p50-ms")
		b.ReportMetric(ms(hovers[len(hovers)-1]), "hover-max-ms")
		progress("hover-max-ms", ms(hovers[len(hovers)-1]))

		// A burst of 1,000 keystrokes, then a hover.
		t0 := time.Now()
		for range 1000 {
			keystroke()
		}
		h := hover()
		b.ReportMetric(ms(c.waitReply(b, h).Sub(t0)), "burst-hover-ms")
		b.ReportMetric(ms(c.waitPublish(b, version).Sub(t0)), "burst-publish-ms")
	}
	b.ReportMetric(ms(check), "check-ms")
	b.ReportMetric(float64(len(src))/1e6, "MB")
}
