package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/fileuri"
	"github.com/leanreview/lreview-lsp/internal/reviewfile"
	"github.com/leanreview/lreview-lsp/internal/visual"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// checked is the outcome of checking one argument: the formatter's part
// for it, or the error that kept it from being read.
type checked struct {
	name     string
	part     any
	hasError bool
	err      error
}

// checkGCPercent is the garbage collector's target while check runs,
// unless GOGC says otherwise. check is a batch that keeps little alive
// (one document per worker) but allocates a lot while parsing: at the
// default 100 the collector runs every few megabytes and its marking takes
// the core a second worker would use (BenchmarkCheckMany).
const checkGCPercent = 400

// checkMemoryLimit is the soft limit that goes with checkGCPercent unless
// GOMEMLIMIT says otherwise: near it the collector runs as often as it
// must, so the raised target trades CPU for memory only below 1 GiB, and
// a huge review costs its live size, not five times it.
const checkMemoryLimit = 1 << 30

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(checkGCPercent))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(checkMemoryLimit))
	}
	return runCheckOn(runtime.GOMAXPROCS(0), args, stdin, stdout, stderr)
}

// runCheckOn is check with the given number of workers; the benchmark
// compares one worker with all of them.
func runCheckOn(workers int, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: "+strings.Join(formatNames, ", "))
	root := fs.String("root", "", "the working tree the contract axis rebuilds OpenAPI files from (default: the nearest ancestor of each FILE holding .git)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	f := newFormatter(*format)
	if f == nil {
		fmt.Fprintf(stderr, "lreview-lsp check: --format must be one of %s, got %q\n", strings.Join(formatNames, ", "), *format)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "lreview-lsp check: name at least one FILE (or - for standard input)")
		return 2
	}
	status := 0
	var writeErr error
	if *root != "" {
		if _, err := worktree.Open(*root); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp check: --root: %v\n", err)
			return 2
		}
	}
	axis := &contractAxis{root: *root, visual: visual.Host()}
	for r := range checkAll(fs.Args(), stdin, f, workers, axis) {
		if writeErr != nil {
			continue // drain, so that no worker is left blocked
		}
		if r.err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", r.err)
			writeErr = f.failed(stdout, r.name, r.err)
			status = 2
			continue
		}
		if r.hasError && status == 0 {
			status = 1
		}
		writeErr = f.add(stdout, r.part)
	}
	if writeErr == nil {
		writeErr = f.finish(stdout)
	}
	if err := writeErr; err != nil {
		fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
		return 2
	}
	return status
}

// checkAll checks the files on a pool of workers and yields
// the outcomes strictly in the order of names, each as soon as it and all
// before it are done. Standard input is read once, up front, for the
// first "-"; a later "-" reads it empty, as a second read would.
func checkAll(names []string, stdin io.Reader, f formatter, workers int, axis *contractAxis) <-chan checked {
	inputs := make([]func() (*reviewfile.Version, error), len(names))
	stdinUsed := false
	for i, name := range names {
		if name != "-" {
			inputs[i] = func() (*reviewfile.Version, error) { return reviewInput(name, nil) }
			continue
		}
		r := stdin
		if stdinUsed {
			r = strings.NewReader("")
		}
		stdinUsed = true
		v, err := reviewInput(name, r)
		inputs[i] = func() (*reviewfile.Version, error) { return v, err }
	}
	slots := make([]chan checked, len(names))
	for i := range slots {
		slots[i] = make(chan checked, 1)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(names))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				slots[i] <- checkOne(names[i], inputs[i], f, axis)
			}
		}()
	}
	go func() {
		for i := range names {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
	}()
	out := make(chan checked)
	go func() {
		defer close(out)
		for _, slot := range slots {
			out <- <-slot
		}
	}()
	return out
}

// checkOne reads, parses and checks one file and converts its
// diagnostics while the document is at hand, so that only the small
// converted part waits for its turn to be written.
func checkOne(name string, input func() (*reviewfile.Version, error), f formatter, axis *contractAxis) checked {
	v, err := input()
	if err != nil {
		return checked{name: name, err: err}
	}
	an, err := v.Analysis(context.Background())
	if err != nil {
		return checked{name: name, err: err}
	}
	ds := axis.diagnostics(name, an)
	return checked{
		name:     name,
		part:     f.file(name, v.Bytes(), an.Doc.Mapper(), ds),
		hasError: hasError(ds),
	}
}

func hasError(ds []exchange.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == exchange.SeverityError {
			return true
		}
	}
	return false
}

// fileURI names a file in relatedInformation locations.
func fileURI(name string) protocol.DocumentURI {
	if name == "-" {
		return "untitled:stdin"
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	return protocol.DocumentURI(fileuri.FromPath(abs))
}
