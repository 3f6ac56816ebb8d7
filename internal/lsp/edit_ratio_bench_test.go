package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// BenchmarkEditVsCheck types one character in a comment body and waits
// for the diagnostics (BenchmarkEditCommentToDiagnostics's body), and
// every tenth iteration also times what `check` does with the file
// (BenchmarkCheckBaseline's body), so that both are measured under the
// same load: the target is edit ≤ 0.15× check. The check is timed
// apart from the edits' garbage and its own (timeCheckApart); the
// collections that takes also take some of the edits' garbage off their
// clock, which is why the checks are rare (a keystroke's ≈ 12 MB make the
// server collect every three or four keystrokes on its own).
func BenchmarkEditVsCheck(b *testing.B) {
	src := generatedReview()
	_, edit := rawOpen(b, "ratio")
	var edits, checks time.Duration
	nChecks := 0
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		edit()
		edits += time.Since(start)
		if i%10 == 0 {
			checks += timeCheckApart(src)
			nChecks++
		}
	}
	perEdit := float64(edits) / float64(b.N)
	check := float64(checks) / float64(nChecks)
	b.ReportMetric(perEdit/1e6, "edit-ms")
	b.ReportMetric(check/1e6, "check-ms")
	b.ReportMetric(perEdit/check, "edit/check")
}

// BenchmarkOpenVsCheck opens the 8 MB review under a new name in a server
// spoken to as bytes and waits for its diagnostics, then times what
// `check` does with the file, in each iteration: the target is
// open ≤ 1.5× check. Only the server's side is timed: the message is
// encoded before the clock starts, and the publish is skimmed, not
// decoded; the check is timed apart (timeCheckApart).
func BenchmarkOpenVsCheck(b *testing.B) {
	src := generatedReview()
	c := newRawServer(b)
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/open000000.review.json", "languageId": "lreview", "version": 1, "text": string(src)}}})
	if err != nil {
		b.Fatal(err)
	}
	var opens, checks time.Duration
	for i := 0; b.Loop(); i++ {
		name := "open" + strconv.Itoa(1000000 + i)[1:]
		msg := bytes.Replace(body, []byte("open000000"), []byte(name), 1)
		start := time.Now()
		if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n", len(msg)); err != nil {
			b.Fatal(err)
		}
		if _, err := c.in.Write(msg); err != nil {
			b.Fatal(err)
		}
		c.waitFor(name + `.review.json","version":1,`)
		opens += time.Since(start)
		// The close clears the diagnostics; that publish is read before
		// anything else is written, since the pipe holds no bytes.
		c.send(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///bench/` + name + `.review.json"}}}`)
		c.waitFor(`"diagnostics":[]`)
		checks += timeCheckApart(src)
	}
	b.ReportMetric(float64(opens)/float64(b.N)/1e6, "open-ms")
	b.ReportMetric(float64(checks)/float64(b.N)/1e6, "check-ms")
	b.ReportMetric(float64(opens)/float64(checks), "open/check")
}
