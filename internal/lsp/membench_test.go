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
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/leanreview/lreview-lsp/internal/bench/procmem"
	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// serveChildEnv makes TestServeChild serve the protocol on its standard
// streams: the memory benchmark runs the server alone in a process, so
// that its peak resident memory is the server's, not the client's too.
const serveChildEnv = "LREVIEW_SERVE_CHILD"

func TestServeChild(t *testing.T) {
	var opts Options
	switch os.Getenv(serveChildEnv) {
	case "1":
	case "shipped":
		opts.Debounce = DefaultDebounce // as the command serves
	default:
		t.Skip("run by BenchmarkMemoryOpenAndEdits")
	}
	code := NewServer(opts).Serve(context.Background(), stdio{})
	os.Exit(code)
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

// BenchmarkMemoryOpenAndEdits opens the 8 MB review in a server process
// of its own, then types 40 characters in a comment, each as soon as the
// diagnostics of the one before came, with no debounce: as fast as the
// server goes. It reports the server's peak resident memory (VmHWM) once
// initialized, after the open and after the edits, in MB and as a
// multiple of the file's size: the first is the floor no document moves
// (the binary's mapped pages, the runtime), the part of the budget spent
// before the review is read.
func BenchmarkMemoryOpenAndEdits(b *testing.B) { memoryOpenAndEdits(b, typing{}) }

// BenchmarkMemoryTyping is BenchmarkMemoryOpenAndEdits as a person types,
// to the server as shipped: a character every 80 ms, whatever the server
// published, with the command's debounce; then the diagnostics of the
// last.
func BenchmarkMemoryTyping(b *testing.B) {
	memoryOpenAndEdits(b, typing{gap: 80 * time.Millisecond, shipped: true})
}

// BenchmarkMemoryBackToBack is BenchmarkMemoryOpenAndEdits to the server
// as shipped: each character as soon as the head of the diagnostics of
// the one before came, the rest read after it at 64 KB a millisecond, as
// an editor busy with a large message reads; each analyzed after the
// command's debounce. The server writes the rest of a publish while the
// next version waits out its debounce.
func BenchmarkMemoryBackToBack(b *testing.B) {
	memoryOpenAndEdits(b, typing{shipped: true, waitEach: true})
}

// typing is how the memory benchmarks type: gap between the characters;
// when shipped, to a server with the command's debounce, and not waiting
// for each character's diagnostics unless waitEach.
type typing struct {
	gap      time.Duration
	shipped  bool
	waitEach bool
}

func memoryOpenAndEdits(b *testing.B, how typing) {
	src := generatedReview()
	open, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/mem.review.json", "languageId": "lreview", "version": 1, "text": string(src)}}})
	if err != nil {
		b.Fatal(err)
	}
	at := bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	pos := exchange.NewMapper(src).Position(at, exchange.UTF16)
	var idleMB, openMB, editsMB float64
	for b.Loop() {
		child := startServeChild(b, how.shipped)
		child.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
		child.waitFor(`"id":1`)
		idleMB = child.peakMB()
		child.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
		child.send(string(open))
		child.waitFor(`"version":1,`)
		openMB = child.peakMB()
		last := make(chan error, 1)
		waitEach := !how.shipped || how.waitEach
		if !waitEach {
			// Read all the while, as an editor does: a server whose
			// client stops reading holds what it cannot write.
			go func() {
				_, err := child.find(`"version":41,`)
				last <- err
			}()
		}
		for v := 2; v <= 41; v++ {
			time.Sleep(how.gap)
			child.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///bench/mem.review.json","version":%d},`+
				`"contentChanges":[{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":"x"}]}}`,
				v, pos.Line, pos.Character, pos.Line, pos.Character))
			switch {
			case how.waitEach:
				child.waitForHead(fmt.Sprintf(`"version":%d,`, v))
			case waitEach:
				child.waitFor(fmt.Sprintf(`"version":%d,`, v))
			}
		}
		if !waitEach {
			if err := <-last; err != nil {
				b.Fatal(err)
			}
		}
		editsMB = child.peakMB()
		child.stop()
	}
	fileMB := float64(len(src)) / (1 << 20)
	b.ReportMetric(fileMB, "file-MB")
	b.ReportMetric(idleMB, "idle-HWM-MB")
	b.ReportMetric(idleMB/fileMB, "idle-HWM/file")
	b.ReportMetric(openMB, "open-HWM-MB")
	b.ReportMetric(openMB/fileMB, "open-HWM/file")
	b.ReportMetric(editsMB, "40edits-HWM-MB")
	b.ReportMetric(editsMB/fileMB, "40edits-HWM/file")
}

// rawConn is the client side of a server's stdio as bytes: benchmarks
// write framed messages and skim the replies for an id or a version
// without decoding them, so that they time the server, not a client.
type rawConn struct {
	b   *testing.B
	in  io.WriteCloser
	out *bufio.Reader
	buf []byte
	// unread is what waitForHead left of the message it stopped in.
	unread int64
	// stop ends the server of newRawServer.
	stop func()
}

func (c *rawConn) send(msg string) {
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
		c.b.Fatalf("writing to the server: %v", err)
	}
}

// waitFor reads messages until one holds marker: anywhere in a small one,
// in the first or last 200 bytes of a large one, where a publish has its
// version and a reply its id (jsonrpc2 writes the id last). It returns
// that message, valid until the next read.
func (c *rawConn) waitFor(marker string) []byte {
	body, err := c.find(marker)
	if err != nil {
		c.b.Fatal(err)
	}
	return body
}

// waitForHead reads messages until one holds marker in its first 200
// bytes, and leaves the rest of it to the next read.
func (c *rawConn) waitForHead(marker string) {
	for {
		n, err := c.next()
		if err != nil {
			c.b.Fatalf("waiting for %s: %v", marker, err)
		}
		head := c.buf[:min(n, 200)]
		if _, err := io.ReadFull(c.out, head); err != nil {
			c.b.Fatal(err)
		}
		c.unread = int64(n - len(head))
		if bytes.Contains(head, []byte(marker)) {
			return
		}
	}
}

// next skips what is left of the last message, 64 KB a millisecond, and
// reads the header of the next, and returns its length, with c.buf made
// that large.
func (c *rawConn) next() (int, error) {
	for ; c.unread > 0; c.unread -= min(c.unread, 64<<10) {
		time.Sleep(time.Millisecond)
		if _, err := io.CopyN(io.Discard, c.out, min(c.unread, 64<<10)); err != nil {
			return 0, err
		}
	}
	h, err := textproto.NewReader(c.out).ReadMIMEHeader()
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil {
		return 0, fmt.Errorf("bad Content-Length %q", h.Get("Content-Length"))
	}
	if cap(c.buf) < n {
		c.buf = make([]byte, n)
	}
	return n, nil
}

// find is waitFor returning its error, for a goroutine of the benchmark's
// own.
func (c *rawConn) find(marker string) ([]byte, error) {
	for {
		n, err := c.next()
		if err != nil {
			return nil, fmt.Errorf("waiting for %s: %v", marker, err)
		}
		body := c.buf[:n]
		if _, err := io.ReadFull(c.out, body); err != nil {
			return nil, err
		}
		head, tail := body, body[:0]
		if n > 64<<10 {
			head, tail = body[:200], body[n-200:]
		}
		if bytes.Contains(head, []byte(marker)) || bytes.Contains(tail, []byte(marker)) {
			return body, nil
		}
	}
}

// newRawServer serves a session in this process over pipes.
func newRawServer(b *testing.B) *rawConn {
	clientRead, serverWrite := io.Pipe()
	serverRead, clientWrite := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- NewServer(Options{Debounce: 1}).Serve(context.Background(), pipeRWC{serverRead, serverWrite})
	}()
	stop := sync.OnceFunc(func() {
		clientWrite.Close()
		serverWrite.Close()
		<-done
	})
	b.Cleanup(stop)
	c := &rawConn{b: b, in: clientWrite, out: bufio.NewReaderSize(clientRead, 1<<20), stop: stop}
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`)
	c.waitFor(`"id":0`)
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	return c
}

type serveChild struct {
	rawConn
	cmd *exec.Cmd
}

func startServeChild(b *testing.B, shipped bool) *serveChild {
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
	mode := "1"
	if shipped {
		mode = "shipped"
	}
	cmd.Env = append(os.Environ(), serveChildEnv+"="+mode)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return &serveChild{rawConn: rawConn{b: b, in: in, out: bufio.NewReaderSize(out, 1<<20)}, cmd: cmd}
}

// peakMB reads the server process's VmHWM.
func (c *serveChild) peakMB() float64 {
	mb, ok := procmem.PeakMB(strconv.Itoa(c.cmd.Process.Pid))
	if !ok {
		c.b.Skip("no peak resident memory in /proc")
	}
	return mb
}

func (c *serveChild) stop() {
	c.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	c.waitFor(`"id":2`)
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		c.b.Fatalf("server exit: %v", err)
	}
}
