package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkEditVsCheck types one character in a comment body and waits
// for the diagnostics (BenchmarkEditCommentToDiagnostics's body), and
// times what `check` does with the file in a process of its own before
// and after the keystrokes (checkInChild), so that both are measured in
// the same run: the target is edit ≤ 0.15× check.
func BenchmarkEditVsCheck(b *testing.B) {
	_, edit := rawOpen(b, "ratio")
	editVsCheck(b, edit)
}

// BenchmarkEditSummaryVsCheck is BenchmarkEditVsCheck typing in the
// summary instead, before the patch: every later offset moves.
func BenchmarkEditSummaryVsCheck(b *testing.B) {
	_, edit := rawOpenAt(b, "summary", func(src []byte) int {
		return bytes.Index(src, []byte(`"summary": "`)) + len(`"summary": "`)
	})
	editVsCheck(b, edit)
}

func editVsCheck(b *testing.B, edit func()) {
	before := checkInChild(b, 5)
	var edits time.Duration
	for b.Loop() {
		start := time.Now()
		edit()
		edits += time.Since(start)
	}
	reportVsCheck(b, "edit", edits, before)
}

// reportVsCheck reports the mean of total over the benchmark's
// iterations as what-ms beside check-ms, the mean of before and a check
// timed now (checkInChild), and their ratio as what/check.
func reportVsCheck(b *testing.B, what string, total, before time.Duration) {
	b.StopTimer()
	check := float64(before+checkInChild(b, 5)) / 2
	mean := float64(total) / float64(b.N)
	b.ReportMetric(mean/1e6, what+"-ms")
	b.ReportMetric(check/1e6, "check-ms")
	b.ReportMetric(mean/check, what+"/check")
}

// checkChildEnv makes TestCheckChild time that many checks of the
// generated review and print their mean.
const checkChildEnv = "LREVIEW_CHECK_CHILD"

// TestCheckChild is the `check` baseline of the ratio benchmarks, run in
// a process of its own as the command is: in the benchmark's process its
// ≈ 100 MB of garbage would be collected on the server's clock, or,
// collected beforehand, leave the server fresh pages to fault in.
func TestCheckChild(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv(checkChildEnv))
	if err != nil {
		t.Skip("run by the ratio benchmarks")
	}
	src := generatedReview()
	checkOnce(src) // the first one grows the heap
	var total time.Duration
	for range n {
		runtime.GC()
		start := time.Now()
		checkOnce(src)
		total += time.Since(start)
	}
	fmt.Printf("check-ns %d\n", total.Nanoseconds()/int64(n))
}

// checkInChild returns the mean time of n checks of the generated review
// in a child process (TestCheckChild).
func checkInChild(b *testing.B, n int) time.Duration {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckChild$")
	cmd.Env = append(os.Environ(), checkChildEnv+"="+strconv.Itoa(n))
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("check child: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if ns, ok := strings.CutPrefix(line, "check-ns "); ok {
			if v, err := strconv.ParseInt(ns, 10, 64); err == nil {
				return time.Duration(v)
			}
		}
	}
	b.Fatalf("check child printed no time:\n%s", out)
	return 0
}

// BenchmarkOpenVsCheck opens the 8 MB review under a new name in a server
// spoken to as bytes and waits for its diagnostics, each iteration, and
// times what `check` does with the file in a process of its own before
// and after (checkInChild): the target is open ≤ 1.5× check. Only
// the server's side is timed: the message is encoded before the clock
// starts, and the publish is skimmed, not decoded.
func BenchmarkOpenVsCheck(b *testing.B) {
	src := generatedReview()
	c := newRawServer(b)
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///bench/open000000.review.json", "languageId": "lreview", "version": 1, "text": string(src)}}})
	if err != nil {
		b.Fatal(err)
	}
	before := checkInChild(b, 5)
	var opens time.Duration
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
	}
	reportVsCheck(b, "open", opens, before)
}

// BenchmarkFirstTokensVsCheck times the first semanticTokens/full of a
// document just opened (nothing to reuse: every line classified and
// converted) against check on the same file: what an editor waits for to
// colour the diff after opening a large review.
func BenchmarkFirstTokensVsCheck(b *testing.B) {
	before := checkInChild(b, 5)
	var firsts time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		name := "first" + strconv.Itoa(i)
		c, _ := rawOpen(b, name)
		b.StartTimer()
		start := time.Now()
		tokensRequest(c, 1, "textDocument/semanticTokens/full", name, "")
		firsts += time.Since(start)
		// Each request to a server of its own, as one review open: the
		// ones before are stopped and collected.
		b.StopTimer()
		c.stop()
		runtime.GC()
		b.StartTimer()
	}
	reportVsCheck(b, "tokens", firsts, before)
}
