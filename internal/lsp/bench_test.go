package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/reviewgen"
)

var (
	bigReviewOnce sync.Once
	bigReview     []byte
)

// generatedReview is the ~8 MB benchmark review: 100,000 diff lines and
// 2,000 comments, a third of them drifted.
func generatedReview() []byte {
	bigReviewOnce.Do(func() { bigReview = reviewgen.Generate(reviewgen.Default()) })
	return bigReview
}

// reportPeakRSS reports the process's peak resident memory, the figure a
// user sees; Go's heap statistics have no peak of their own.
func reportPeakRSS(b *testing.B) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			if kb, err := strconv.Atoi(f[1]); err == nil {
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
			}
		}
	}
}

// BenchmarkUnmarshalBaseline is encoding/json reading the same review into
// `any`: the yardstick the other figures are compared with in one run.
func BenchmarkUnmarshalBaseline(b *testing.B) {
	src := generatedReview()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		var v any
		if err := json.Unmarshal(src, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckBaseline is what `lreview-lsp check` does with one file in
// process (parse, check, convert the diagnostics): the yardstick of the
// issue's latency targets, measured in the same run as them.
func BenchmarkCheckBaseline(b *testing.B) {
	src := generatedReview()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		doc := exchange.Parse(src)
		rep := anchor.CheckDocument(doc, nil)
		conv := Converter{M: doc.Mapper(), Enc: exchange.UTF16}
		_ = conv.Diagnostics("file:///bench/check.review.json", rep.Diagnostics)
	}
}

// BenchmarkJSONFloor is json.Valid then encoding/json Unmarshal into
// `any`: the floor `check` is compared with.
func BenchmarkJSONFloor(b *testing.B) {
	src := generatedReview()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		var v any
		if !json.Valid(src) {
			b.Fatal("invalid")
		}
		if err := json.Unmarshal(src, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDidOpenToDiagnostics(b *testing.B) {
	src := string(generatedReview())
	c := newTestClient(b, Options{})
	c.versionsOnly = true
	c.initialize()
	// The editor's cost of encoding the notification is not the server's:
	// encode it once, change only the URI each time, and write it to the
	// pipe framed as the transport frames it.
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/open000000.review.json", "languageId": "lreview", "version": 1, "text": src}}})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		name := "open" + strconv.Itoa(100000 + i)[1:]
		uri := protocol.DocumentURI("file:///bench/" + name + ".review.json")
		msg := bytes.Replace(body, []byte("open000000"), []byte(name), 1)
		if _, err := fmt.Fprintf(c.raw, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
			b.Fatal(err)
		}
		if ds := c.waitDiagnostics(uri, 1); len(ds) == 0 {
			b.Fatal("no diagnostics")
		}
		c.notifyServer("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	reportPeakRSS(b)
}

// BenchmarkEditCommentToDiagnostics types one character in a comment body
// and waits for the new version's diagnostics: the latency of every
// keystroke on a large review.
func BenchmarkEditCommentToDiagnostics(b *testing.B) {
	c := newTestClient(b, Options{Debounce: 1})
	c.versionsOnly = true
	c.initialize()
	uri := protocol.DocumentURI("file:///bench/edit.review.json")
	c.open(uri, string(generatedReview()))
	c.waitDiagnostics(uri, 1)
	edit := commentEdit(c, uri)
	for b.Loop() {
		edit()
	}
	reportPeakRSS(b)
}

// tokensClient opens the benchmark review and checks its tokens once: in
// the loops the client takes the reply as raw JSON, since decoding half a
// million numbers is the editor's cost, not the server's.
func tokensClient(b *testing.B, name string) (*testClient, protocol.DocumentURI, *protocol.SemanticTokens) {
	c := newTestClient(b, Options{Debounce: 1})
	c.versionsOnly = true
	c.initialize()
	uri := protocol.DocumentURI("file:///bench/" + name + ".review.json")
	c.open(uri, string(generatedReview()))
	c.waitDiagnostics(uri, 1)
	var toks protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &toks)
	if len(toks.Data) < 5*99000 {
		b.Fatalf("got %d tokens, want one per diff line", len(toks.Data)/5)
	}
	return c, uri, &toks
}

// commentEdit returns a function that types one more character in the
// last comment's body as the next version, and waits for its analysis.
func commentEdit(c *testClient, uri protocol.DocumentURI) func() {
	src := generatedReview()
	at := bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	p := exchange.NewMapper(src).Position(at, exchange.UTF16)
	pos := protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
	version := int32(1)
	return func() {
		version++
		c.change(uri, version, &protocol.Range{Start: pos, End: pos}, "x")
		c.waitDiagnostics(uri, version)
	}
}

// BenchmarkSemanticTokensFull asks for the whole tokens after each
// keystroke in a comment, as an editor does (the edit is not timed).
func BenchmarkSemanticTokensFull(b *testing.B) {
	c, uri, _ := tokensClient(b, "tokens")
	edit := commentEdit(c, uri)
	for b.Loop() {
		b.StopTimer()
		edit()
		b.StartTimer()
		c.mustCall("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	}
	reportPeakRSS(b)
}

// BenchmarkSemanticTokensDelta is BenchmarkSemanticTokensFull with the
// delta request an editor sends once it holds a result.
func BenchmarkSemanticTokensDelta(b *testing.B) {
	c, uri, toks := tokensClient(b, "delta")
	edit := commentEdit(c, uri)
	for b.Loop() {
		b.StopTimer()
		edit()
		b.StartTimer()
		var d protocol.SemanticTokensDelta
		c.mustCall("textDocument/semanticTokens/full/delta", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": toks.ResultID}, &d)
		if d.ResultID == "" {
			b.Fatal("no result id")
		}
		toks.ResultID = d.ResultID
	}
}

func BenchmarkSemanticTokensRange100Lines(b *testing.B) {
	src := generatedReview()
	c := newTestClient(b, Options{})
	c.initialize()
	uri := protocol.DocumentURI("file:///bench/range.review.json")
	c.open(uri, string(src))
	c.waitDiagnostics(uri, 1)
	start := uint32(50000)
	for b.Loop() {
		var toks protocol.SemanticTokens
		c.mustCall("textDocument/semanticTokens/range", map[string]any{
			"textDocument": map[string]any{"uri": uri},
			"range":        protocol.Range{Start: protocol.Position{Line: start}, End: protocol.Position{Line: start + 100}},
		}, &toks)
		if n := len(toks.Data) / 5; n < 90 || n > 101 {
			b.Fatalf("got %d tokens for 100 lines", n)
		}
	}
}
