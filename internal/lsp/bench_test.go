package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/bench/procmem"
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
	if mb, ok := procmem.PeakMB("self"); ok {
		b.ReportMetric(mb, "peak-RSS-MB")
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
		checkOnce(src)
	}
}

// checkOnce is what `lreview-lsp check` does with one file in process:
// parse, check, convert the diagnostics to positions.
func checkOnce(src []byte) {
	doc := exchange.Parse(src)
	an := anchor.CheckDocument(doc, nil)
	conv := Converter{M: doc.Mapper(), Enc: exchange.UTF16}
	_ = conv.Diagnostics("file:///bench/check.review.json", an.Diagnostics)
}

// BenchmarkJSONFloor is json.Valid then encoding/json Unmarshal into
// `any`: the floor `check` is compared with.
func BenchmarkJSONFloor(b *testing.B) {
	src := generatedReview()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		jsonFloor(b, src)
	}
}

func jsonFloor(b *testing.B, src []byte) {
	var v any
	if !json.Valid(src) {
		b.Fatal("invalid")
	}
	if err := json.Unmarshal(src, &v); err != nil {
		b.Fatal(err)
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
	_, edit := rawOpen(b, "edit")
	for b.Loop() {
		edit()
	}
	reportPeakRSS(b)
}

// rawOpen opens the benchmark review in a server spoken to as bytes
// (rawConn) and returns the function that types one more character in
// the last comment's body as the next version and waits for its
// diagnostics.
func rawOpen(b *testing.B, name string) (*rawConn, func()) {
	return rawOpenAt(b, name, func(src []byte) int {
		return bytes.LastIndex(src, []byte(`"body": "`)) + len(`"body": "`)
	})
}

// rawOpenAt is rawOpen typing at the offset at returns for the review.
func rawOpenAt(b *testing.B, name string, at func(src []byte) int) (*rawConn, func()) {
	src := generatedReview()
	c := newRawServer(b)
	uri := "file:///bench/" + name + ".review.json"
	open, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "lreview", "version": 1, "text": string(src)}}})
	if err != nil {
		b.Fatal(err)
	}
	c.send(string(open))
	c.waitFor(`"version":1,`)
	p := exchange.NewMapper(src).Position(at(src), exchange.UTF16)
	version := 1
	return c, func() {
		version++
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":%d},`+
			`"contentChanges":[{"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},"text":"x"}]}}`,
			uri, version, p.Line, p.Character, p.Line, p.Character))
		c.waitFor(fmt.Sprintf(`"version":%d,`, version))
	}
}

// tokensRequest sends a tokens request as call id and returns the reply.
func tokensRequest(c *rawConn, id int, method, name, extra string) []byte {
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"textDocument":{"uri":"file:///bench/%s.review.json"}%s}}`, id, method, name, extra))
	return c.waitFor(fmt.Sprintf(`"id":%d`, id))
}

// BenchmarkSemanticTokensFull asks for the whole tokens after each
// keystroke in a comment, as an editor does (the edit is not timed).
func BenchmarkSemanticTokensFull(b *testing.B) {
	c, edit := rawOpen(b, "tokens")
	var toks struct {
		Result protocol.SemanticTokens `json:"result"`
	}
	if err := json.Unmarshal(tokensRequest(c, 1, "textDocument/semanticTokens/full", "tokens", ""), &toks); err != nil || len(toks.Result.Data) < 5*99000 {
		b.Fatalf("got %d tokens (%v), want one per diff line", len(toks.Result.Data)/5, err)
	}
	id := 1
	for b.Loop() {
		b.StopTimer()
		edit()
		b.StartTimer()
		id++
		tokensRequest(c, id, "textDocument/semanticTokens/full", "tokens", "")
	}
	reportPeakRSS(b)
}

// BenchmarkTypingLatency types in a comment as a person does, a
// keystroke every 80 ms, and reports how long each waited for its
// diagnostics: the median, the 90th percentile and the slowest, which
// BenchmarkEditCommentToDiagnostics's back-to-back keystrokes, with no
// pause to collect garbage in, do not show.
func BenchmarkTypingLatency(b *testing.B) {
	_, edit := rawOpen(b, "typing")
	var took []time.Duration
	for b.Loop() {
		b.StopTimer()
		time.Sleep(80 * time.Millisecond)
		b.StartTimer()
		start := time.Now()
		edit()
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	b.ReportMetric(ms(took[len(took)*9/10]), "p90-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
}

// BenchmarkDocumentSymbolAfterEdit asks for the outline after each
// keystroke in a comment, as an editor's outline view does (the edit is
// not timed).
func BenchmarkDocumentSymbolAfterEdit(b *testing.B) {
	c, edit := rawOpen(b, "outline")
	id := 1
	for b.Loop() {
		b.StopTimer()
		edit()
		b.StartTimer()
		id++
		if reply := tokensRequest(c, id, "textDocument/documentSymbol", "outline", ""); !bytes.Contains(reply, []byte(`"name":"comments"`)) {
			b.Fatalf("no outline in %.200s", reply)
		}
	}
}

// BenchmarkSemanticTokensDelta is BenchmarkSemanticTokensFull with the
// delta request an editor sends once it holds a result.
func BenchmarkSemanticTokensDelta(b *testing.B) {
	c, edit := rawOpen(b, "delta")
	var toks struct {
		Result protocol.SemanticTokens `json:"result"`
	}
	if err := json.Unmarshal(tokensRequest(c, 1, "textDocument/semanticTokens/full", "delta", ""), &toks); err != nil || toks.Result.ResultID == "" {
		b.Fatalf("no result id (%v)", err)
	}
	id := 1
	for b.Loop() {
		b.StopTimer()
		edit()
		b.StartTimer()
		id++
		reply := tokensRequest(c, id, "textDocument/semanticTokens/full/delta", "delta", `,"previousResultId":"`+toks.Result.ResultID+`"`)
		if !bytes.Contains(reply, []byte(`"edits":`)) {
			b.Fatalf("got %.200s, want edits", reply)
		}
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
