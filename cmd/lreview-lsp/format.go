package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/leanreview/lreview-lsp/internal/exchange"
)

// parseRewriteFlags reads the -w flag shared by fmt, fix and rebase.
func parseRewriteFlags(name string, args []string, stderr io.Writer) (*flag.FlagSet, bool, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("w", false, "write the result to the file instead of standard output")
	if err := fs.Parse(args); err != nil {
		return fs, false, false
	}
	return fs, *write, true
}

// inPlace reports whether a result goes back into the file: -w, and a
// file to write to (standard input has none: its result is printed).
func inPlace(name string, write bool) bool { return write && name != "-" }

// emit writes a result in place (-w) or to standard output.
func emit(name string, out []byte, write bool, stdout io.Writer) error {
	if inPlace(name, write) {
		return writeAtomic(name, out)
	}
	_, err := stdout.Write(out)
	return err
}

// rewriteFiles runs the loop fmt and fix share: read each FILE, turn it
// into its new text, and print that or, with -w, write it back when it
// changed. transform reports its own problems through the error, which
// makes the exit status 1; I/O problems make it 2, and other files are
// still processed.
func rewriteFiles(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer,
	transform func(name string, src []byte) (out []byte, changed bool, err error)) int {
	fs, write, ok := parseRewriteFlags(cmd, args, stderr)
	if !ok {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "lreview-lsp %s: name at least one FILE (or - for standard input)\n", cmd)
		return 2
	}
	status := 0
	for _, name := range fs.Args() {
		src, err := readInput(name, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			status = 2
			continue
		}
		out, changed, err := transform(name, src)
		if err != nil {
			fmt.Fprintf(stderr, "lreview-lsp %s: %s: %v\n", cmd, displayName(name), err)
			status = max(status, 1)
			continue
		}
		if inPlace(name, write) && !changed {
			continue // leave the file, and its mtime, alone
		}
		if err := emit(name, out, write, stdout); err != nil {
			fmt.Fprintf(stderr, "lreview-lsp: %v\n", err)
			status = 2
		}
	}
	return status
}

func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return rewriteFiles("fmt", args, stdin, stdout, stderr, func(name string, src []byte) ([]byte, bool, error) {
		out, err := exchange.Format(exchange.Parse(src))
		if err != nil {
			return nil, false, err
		}
		warnUnknown(name, out, stderr)
		return out, !bytes.Equal(out, src), nil
	})
}

// warnUnknown says which unknown members the formatted text kept: the
// spec's formatting keeps them but warns, since leanreview's own rewrite
// drops them. Positions are in the formatted text, which is what -w wrote
// or standard output received.
func warnUnknown(name string, out []byte, stderr io.Writer) {
	doc := exchange.Parse(out)
	m := doc.Mapper()
	for _, d := range exchange.Check(doc).Diagnostics {
		if d.Code != exchange.CodeUnknownField {
			continue
		}
		line, col := m.LineCol(d.Range.Start)
		fmt.Fprintf(stderr, "%s:%d:%d: warning: kept %s [%s]\n", displayName(name), line, col, d.Message, d.Code)
	}
}
