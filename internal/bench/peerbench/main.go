// Command peerbench times lreview-lsp beside VS Code's JSON language
// server (vscode-langservers-extracted) on one generated review, through
// the same harness: each server in a process of its own, spoken to over
// stdio as an editor does, in interleaved rounds. It prints, per server,
// the median time from didOpen to the first diagnostics, from a one
// character edit in a comment body to the next diagnostics, and (ours
// alone: the peer has none) to the semantic tokens after it, and the peak
// resident memory after the open and after 40 edits, with `lreview-lsp
// check` on the same file as the yardstick. check against encoding/json
// in one process is the server's BenchmarkCheckVsJSONFloor. `make
// bench-peer` installs the peer and runs it; it is not part of CI.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leanreview/lreview-lsp/internal/bench/lspframe"
	"github.com/leanreview/lreview-lsp/internal/bench/procmem"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/filewrite"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
	"github.com/leanreview/lreview-lsp/schema"
)

func main() {
	ours := flag.String("ours", "bin/lreview-lsp", "the lreview-lsp binary")
	peer := flag.String("peer", "", "the vscode-json-language-server command")
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	lines := flag.Int("difflines", 100_000, "diff lines of the generated review")
	comments := flag.Int("comments", 2_000, "comments of the generated review")
	flag.Parse()
	if *peer == "" {
		fmt.Fprintln(os.Stderr, "peerbench: name the peer with -peer (make bench-peer installs it)")
		os.Exit(2)
	}
	if err := run(*ours, *peer, *rounds, reviewgen.Config{DiffLines: *lines, Comments: *comments}); err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}

// sample is one round of one server.
type sample struct {
	open, edit          time.Duration
	tokens              time.Duration // 0 for the peer, which has no tokens
	openRSS, afterEdits float64       // VmHWM, MB
}

// The edits after the timed one, as a person types: the peak resident
// memory is read once the server has settled after the last.
const (
	typedEdits = 40
	typingGap  = 80 * time.Millisecond
	// settled is how long no diagnostics must come, after some came
	// for the last edit: the peer's publish carries no version to wait
	// for.
	settled = time.Second
)

func run(ours, peer string, rounds int, cfg reviewgen.Config) error {
	src := reviewgen.Generate(cfg)
	dir, err := os.MkdirTemp("", "peerbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "bench.review.json")
	if err := filewrite.Create(path, src); err != nil {
		return err
	}
	servers := []struct {
		name string
		argv []string
		lang string
	}{
		{"lreview-lsp", []string{ours}, "lreview"},
		{"vscode-json-language-server", []string{peer, "--stdio"}, "json"},
	}
	results := make([][]sample, len(servers))
	var checks []time.Duration
	for r := range rounds {
		start := time.Now()
		if out, err := exec.Command(ours, "check", path).CombinedOutput(); err != nil && !isExit1(err) {
			return fmt.Errorf("check: %v\n%s", err, out)
		}
		checks = append(checks, time.Since(start))
		for k := range servers {
			i := (k + r) % len(servers) // alternate which goes first
			s, err := measure(servers[i].argv, servers[i].lang, path, src)
			if err != nil {
				return fmt.Errorf("%s, round %d: %w", servers[i].name, r+1, err)
			}
			results[i] = append(results[i], s)
		}
	}
	fmt.Printf("%.1f MB review (%d diff lines, %d comments), %d interleaved rounds, medians\n\n", float64(len(src))/(1<<20), cfg.DiffLines, cfg.Comments, rounds)
	check := median(checks)
	o, p := results[0], results[1]
	row := func(name string, get func(sample) time.Duration) {
		a, b := median(pick(o, get)), median(pick(p, get))
		fmt.Printf("| %-40s | %9s | %9s | %6.2f× | %5.2f× check |\n", name, ms(a), ms(b), float64(b)/float64(a), float64(a)/float64(check))
	}
	fmt.Printf("| %-40s | %9s | %9s | %7s | %12s |\n", "", "ours", "peer", "peer/ours", "ours/check")
	fmt.Printf("|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 42), strings.Repeat("-", 11), strings.Repeat("-", 11), strings.Repeat("-", 9), strings.Repeat("-", 14))
	fmt.Printf("| %-40s | %9s | %9s | %7s | %12s |\n", "lreview-lsp check (same file)", ms(check), "–", "", "")
	row("didOpen → diagnostics", func(s sample) time.Duration { return s.open })
	row("1-char edit in a comment → diagnostics", func(s sample) time.Duration { return s.edit })
	tokens := median(pick(o, func(s sample) time.Duration { return s.tokens }))
	fmt.Printf("| %-40s | %9s | %9s | %7s | %5.2f× check |\n", "semanticTokens/full after the edit", ms(tokens), "–", "", float64(tokens)/float64(check))
	mb := func(name string, get func(sample) float64) {
		a, b := medianF(pickF(o, get)), medianF(pickF(p, get))
		size := float64(len(src)) / (1 << 20)
		fmt.Printf("| %-40s | %6.0f MB | %6.0f MB | %6.2f× | %5.1f× file  |\n", name, a, b, b/a, a/size)
	}
	mb("peak RSS after open", func(s sample) float64 { return s.openRSS })
	mb(fmt.Sprintf("peak RSS after %d edits", typedEdits), func(s sample) float64 { return s.afterEdits })
	return nil
}

// measure runs one server: initialize, open the review, wait for its
// diagnostics, type one character in the last comment's body, wait again,
// then type the rest of typedEdits characters at a person's pace and wait
// for the server to settle.
func measure(argv []string, lang, path string, src []byte) (sample, error) {
	var s sample
	c, err := start(argv)
	if err != nil {
		return s, err
	}
	defer c.kill()
	uri := fileuri.FromPath(path)
	if _, err := c.Call("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": fileuri.FromPath(filepath.Dir(path)),
		"capabilities": map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}},
	}, nil); err != nil {
		return s, err
	}
	c.Notify("initialized", map[string]any{})
	var schemaDoc any
	if err := json.Unmarshal(schema.JSON, &schemaDoc); err != nil {
		return s, err
	}
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{
		"json": map[string]any{"validate": map[string]any{"enable": true}, "schemas": []any{
			map[string]any{"fileMatch": []string{"*.review.json"}, "uri": "file:///lreview/review-exchange.v1.schema.json", "schema": schemaDoc},
		}},
	}})
	// Encoded before the clock starts: the harness's encoding of the
	// whole review is not the server's time.
	open := lspframe.Frame(lspframe.Notification("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": string(src)}}))
	began := time.Now()
	c.Send(open)
	if err := c.waitDiagnostics(uri, 1); err != nil {
		return s, fmt.Errorf("after didOpen: %w", err)
	}
	s.open = time.Since(began)
	s.openRSS = c.peakMB()

	at := bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	p := exchange.NewMapper(src).Position(at, exchange.UTF16)
	typed := func(version int) []byte {
		pos := map[string]int{"line": p.Line, "character": p.Character + version - 2}
		return lspframe.Frame(lspframe.Notification("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": "x"}},
		}))
	}
	first := typed(2)
	began = time.Now()
	c.Send(first)
	if err := c.waitDiagnostics(uri, 2); err != nil {
		return s, fmt.Errorf("after didChange: %w", err)
	}
	s.edit = time.Since(began)
	if lang == "lreview" { // the peer has no semantic tokens
		began = time.Now()
		m, err := c.Call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
		if err != nil || len(m.Error) > 0 {
			return s, fmt.Errorf("semanticTokens/full: %v %s", err, m.Error)
		}
		s.tokens = time.Since(began)
	}
	for v := 3; v <= typedEdits+1; v++ {
		time.Sleep(typingGap)
		c.Send(typed(v))
	}
	if err := c.waitSettled(uri, typedEdits+1); err != nil {
		return s, fmt.Errorf("after %d edits: %w", typedEdits, err)
	}
	s.afterEdits = c.peakMB()
	_, _ = c.Call("shutdown", nil, nil)
	c.Notify("exit", nil)
	return s, nil
}

func isExit1(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 1
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + " ms" }

func pick(ss []sample, get func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = get(s)
	}
	return out
}

func pickF(ss []sample, get func(sample) float64) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = get(s)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func medianF(fs []float64) float64 {
	fs = slices.Clone(fs)
	slices.Sort(fs)
	return fs[len(fs)/2]
}

// client speaks LSP to one server process.
type client struct {
	*lspframe.Client
	cmd *exec.Cmd
	in  io.WriteCloser
}

func start(argv []string) (*client, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	return &client{Client: lspframe.NewClient(out, in, decodeMessage), cmd: cmd, in: in}, nil
}

// decodeMessage decodes a server's message. A publish of thousands of
// diagnostics, or the reply with a large review's tokens, is not decoded:
// decoding them would be the harness's time counted as the server's;
// a publish's method and uri are found among its first bytes, where both
// servers write them, and our reply's id is its first member.
func decodeMessage(body []byte) (lspframe.Message, bool) {
	const publish = `"method":"textDocument/publishDiagnostics"`
	if len(body) > 64<<10 && bytes.Contains(body[:4<<10], []byte(publish)) {
		return lspframe.Message{Method: "textDocument/publishDiagnostics", Params: body}, true
	}
	// A large reply of ours (semantic tokens) starts with its id.
	const reply = `{"jsonrpc":"2.0","id":`
	if len(body) > 64<<10 && bytes.HasPrefix(body, []byte(reply)) {
		if n := bytes.IndexByte(body[len(reply):], ','); n > 0 {
			return lspframe.Message{ID: json.RawMessage(body[len(reply) : len(reply)+n])}, true
		}
	}
	return lspframe.Decode(body)
}

// waitDiagnostics waits for the diagnostics of uri's version: a publish
// that names that version, or, from a server whose publishes carry none
// (the peer's), the next publish of uri. A publish of an earlier version
// is not the answer to an edit: ours publishes a version's diagnostics
// again once the working tree has been looked at.
func (c *client) waitDiagnostics(uri string, version int) error {
	uriMember, _ := json.Marshal(uri)
	_, err := c.Await(func(m lspframe.Message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		head := m.Params[:min(len(m.Params), 4<<10)]
		if !bytes.Contains(head, append([]byte(`"uri":`), uriMember...)) {
			return false
		}
		at := bytes.Index(head, []byte(`"version":`))
		if at < 0 {
			return true
		}
		rest := head[at+len(`"version":`):]
		end := bytes.IndexAny(rest, ",}")
		return end > 0 && string(bytes.TrimSpace(rest[:end])) == strconv.Itoa(version)
	})
	return err
}

// waitSettled waits for the diagnostics of uri's version, then until none
// has come for the settled time.
func (c *client) waitSettled(uri string, version int) error {
	if err := c.waitDiagnostics(uri, version); err != nil {
		return err
	}
	return c.Quiet(settled)
}

// peakMB reads the server process's VmHWM (0 where /proc has none).
func (c *client) peakMB() float64 {
	mb, _ := procmem.PeakMB(strconv.Itoa(c.cmd.Process.Pid))
	return mb
}

func (c *client) kill() {
	c.in.Close()
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}
